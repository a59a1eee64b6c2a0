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
        var text = ""
        writeJSON(into: &text)
        return text
    }

    func writeJSON(into text: inout String) {
        switch self {
        case .null: text += "null"
        case .bool(let value): text += value ? "true" : "false"
        case .integer(let value): text += String(value)
        case .number(let value): text += Self.numberText(value, quotedWhenNotFinite: true)
        case .string(let value): Self.writeJSONString(value, into: &text)
        case .array(let elements):
            text += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { text += "," }
                element.writeJSON(into: &text)
            }
            text += "]"
        case .object(let members):
            text += "{"
            for (index, member) in members.enumerated() {
                if index > 0 { text += "," }
                Self.writeJSONString(member.key, into: &text)
                text += ":"
                member.value.writeJSON(into: &text)
            }
            text += "}"
        }
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

    static func writeJSONString(_ value: String, into text: inout String) {
        // Most strings need no escape: they go in whole.
        if !value.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") || $0 == 0x7F }) {
            text += "\""
            text += value
            text += "\""
            return
        }
        text += "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                text += String(format: "\\u%04x", scalar.value)
            default: text.unicodeScalars.append(scalar)
            }
        }
        text += "\""
    }

    /// `field` quoted for CSV (RFC 4180) when it holds a comma, a quote or a line break, or
    /// starts or ends with white space.
    static func csvField(_ field: String) -> String {
        let bytes = field.utf8
        let needsQuotes = bytes.contains { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 0x0A || $0 == 0x0D }
            || [0x20, 0x09].contains(bytes.first) || [0x20, 0x09].contains(bytes.last)
        guard needsQuotes else { return field }
        var quoted: [UInt8] = [UInt8(ascii: "\"")]
        quoted.reserveCapacity(bytes.count + 8)
        for byte in bytes {
            quoted.append(byte)
            if byte == UInt8(ascii: "\"") { quoted.append(byte) }
        }
        quoted.append(UInt8(ascii: "\""))
        return String(decoding: quoted, as: UTF8.self)
    }
}
