import Foundation

/// Orders stored values the way queries and indexes do: numbers by value across integer and
/// floating kinds, strings and data by their bytes (UTF-8 for strings: "é" and "e\u{301}"
/// differ, as in Realm), dates by time, `false` before `true`.
enum ValueComparator {
    /// -1, 0 or 1; `nil` when the two values cannot be compared (different families, or null).
    static func compare(_ a: _PersistedValue, _ b: _PersistedValue) -> Int? {
        switch (a, b) {
        case (.mixed(let x), _): return compare(x, b)
        case (_, .mixed(let y)): return compare(a, y)
        case (.typedLink(_, let x), .link(let y)), (.link(let x), .typedLink(_, let y)): return sign(x, y)
        case (.typedLink(let c, let x), .typedLink(let d, let y)): return c == d ? sign(x, y) : sign(c, d)
        case (.int(let x), .int(let y)): return sign(x, y)
        case (.bool(let x), .bool(let y)): return sign(x ? 1 : 0, y ? 1 : 0)
        case (.string(let x), .string(let y)): return utf8Order(x, y)
        case (.data(let x), .data(let y)): return x.withUnsafeBytes { xb in y.withUnsafeBytes { yb in bytes(xb, yb) } }
        case (.date(let x), .date(let y)): return sign(x.timeIntervalSinceReferenceDate, y.timeIntervalSinceReferenceDate)
        case (.uuid(let x), .uuid(let y)):
            return withUnsafeBytes(of: x.uuid) { xb in withUnsafeBytes(of: y.uuid) { yb in bytes(xb, yb) } }
        case (.objectId(let x), .objectId(let y)):
            return withUnsafeBytes(of: x.bytes) { xb in withUnsafeBytes(of: y.bytes) { yb in bytes(xb, yb) } }
        case (.link(let x), .link(let y)): return sign(x, y)
        case (.decimal(let x), .decimal(let y)): return Decimal128.order(x, y)
        case (.decimal(let x), _): return order(x, b)
        case (_, .decimal(let y)): return order(y, a).map { -$0 }
        default:
            guard let x = number(a), let y = number(b) else { return nil }
            return sign(x, y)
        }
    }

    /// Whether `value` is a value of `kind`.
    static func sameKind(_ value: _PersistedValue, _ kind: _StorageKind) -> Bool {
        value.kind == kind
    }

    /// The order of a decimal and a number of another kind. Integers convert exactly; floating
    /// values through their 15-digit decimal form, as literals do (`0.1` is the decimal 0.1).
    private static func order(_ x: Decimal128, _ other: _PersistedValue) -> Int? {
        switch other {
        case .int(let v): return Decimal128.order(x, Decimal128(number: v))
        case .double(let v): return Decimal128.order(x, Decimal128(number: v))
        case .float(let v): return Decimal128.order(x, Decimal128(number: v))
        default: return nil
        }
    }

    private static func number(_ value: _PersistedValue) -> Double? {
        switch value {
        case .int(let v): Double(v)
        case .double(let v): v
        case .float(let v): Double(v)
        default: nil
        }
    }

    @inline(__always)
    static func sign<T: Comparable>(_ x: T, _ y: T) -> Int { x < y ? -1 : (x == y ? 0 : 1) }

    /// The order of two strings' UTF-8 bytes (the order of their code points), read where the
    /// strings keep them: a sort compares each value many times, and copying the bytes out
    /// cost more than comparing them.
    static func utf8Order(_ x: String, _ y: String) -> Int {
        var x = x, y = y
        return x.withUTF8 { xb in y.withUTF8 { yb in bytes(UnsafeRawBufferPointer(xb), UnsafeRawBufferPointer(yb)) } }
    }

    /// Lexicographic order of two byte strings.
    static func bytes(_ x: [UInt8], _ y: [UInt8]) -> Int {
        x.withUnsafeBytes { xb in y.withUnsafeBytes { yb in bytes(xb, yb) } }
    }

    /// Lexicographic order of two byte buffers, with `memcmp`.
    @inline(__always)
    static func bytes(_ x: UnsafeRawBufferPointer, _ y: UnsafeRawBufferPointer) -> Int {
        let common = min(x.count, y.count)
        if common > 0 {
            let result = memcmp(x.baseAddress!, y.baseAddress!, common)
            if result != 0 { return result < 0 ? -1 : 1 }
        }
        return sign(x.count, y.count)
    }
}
