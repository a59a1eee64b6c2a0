import Foundation

/// A value as the tool prints it: JSON's kinds, with object members in schema order.
///
/// `Sendable` is stated, not left to inference: inferring it for this recursive type (an
/// array of tuples holding itself) is a cycle for the Swift 6 compiler in some builds.
enum ToolValue: Sendable {
    case null
    case bool(Bool)
    case integer(Int64)
    case number(Double)
    case string(String)
    case array([ToolValue])
    case object([(key: String, value: ToolValue)])

    /// Whether this is `null`.
    var isNull: Bool {
        if case .null = self { true } else { false }
    }

    /// Whether this is `true`.
    var isTrue: Bool {
        if case .bool(true) = self { true } else { false }
    }

    /// Compact JSON text. Numbers JSON cannot hold (infinities, NaN) are strings.
    var json: String {
        var bytes: [UInt8] = []
        appendJSON(to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The value in a table cell or a CSV field: strings bare, `nil` for null, collections and
    /// embedded objects as JSON.
    var plainText: String {
        switch self {
        case .null: "nil"
        case .string(let value): value
        case .number(let value): Self.numberText(value, quotedWhenNotFinite: false)
        default: json
        }
    }

    /// The shortest text that reads back as the same `Double`; `inf`, `-inf`, `nan` otherwise.
    static func numberText(_ value: Double, quotedWhenNotFinite: Bool) -> String {
        guard value.isFinite else {
            let word = value.isNaN ? "nan" : (value < 0 ? "-inf" : "inf")
            return quotedWhenNotFinite ? "\"\(word)\"" : word
        }
        if value == value.rounded(), abs(value) < 1e15 { return String(format: "%.1f", value) }
        return "\(value)"
    }
}
