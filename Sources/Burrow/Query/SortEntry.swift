/// An object being sorted: its position in the keys, and its value for the first sort key as
/// two machine words that order as the value does, so that most comparisons of a sort compare
/// integers held in the entry, with no copy of the value and no jump to where it is kept.
///
/// Strings keep their first 16 UTF-8 bytes, integers, booleans and dates their whole value.
/// Other values (and strings that share their first 16 bytes) are compared whole, by the
/// caller: ``order(_:_:)`` returns `nil` for them.
struct SortEntry {
    /// The first and second eight bytes of the value's ordered form, most significant first.
    private let high: UInt64
    private let low: UInt64
    /// The object's position in the keys sorted.
    let index: Int
    /// How the words compare: whether they hold a value, and of which kind.
    private let form: Form
    /// A string's UTF-8 length (the words hold all of it when it is 16 or less).
    private let length: Int32

    private enum Form: UInt8 {
        /// A null value: first, as realm-core sorts it.
        case null
        /// An integer, boolean or date, whole.
        case number
        /// A string, by its first 16 UTF-8 bytes.
        case string
        /// Anything else, and an empty link on the way to the key path: compared whole.
        case unkeyed
    }

    init(_ value: _PersistedValue?, index: Int) {
        self.index = index
        var high: UInt64 = 0, low: UInt64 = 0, length: Int32 = 0
        let form: Form
        switch value {
        case .null?:
            form = .null
        case .int(let v)?:
            form = .number
            high = UInt64(bitPattern: v) ^ (1 << 63)
        case .bool(let v)?:
            form = .number
            high = v ? 1 : 0
        case .date(let v)? where !v.timeIntervalSinceReferenceDate.isNaN:
            form = .number
            // -0 and 0 are the same instant.
            let seconds = v.timeIntervalSinceReferenceDate == 0 ? 0 : v.timeIntervalSinceReferenceDate
            let bits = seconds.bitPattern
            high = bits & (1 << 63) != 0 ? ~bits : bits | (1 << 63)
        case .string(var v)?:
            form = .string
            v.withUTF8 { bytes in
                length = Int32(clamping: bytes.count)
                for (position, byte) in bytes.prefix(16).enumerated() {
                    if position < 8 { high |= UInt64(byte) << (56 - 8 * position) } else { low |= UInt64(byte) << (56 - 8 * (position - 8)) }
                }
            }
        default:
            form = .unkeyed
        }
        self.high = high
        self.low = low
        self.length = length
        self.form = form
    }

    /// The order of the two entries' values (`-1` when `a`'s comes first), or `nil` when only
    /// the values themselves can tell.
    @inline(__always)
    static func order(_ a: SortEntry, _ b: SortEntry) -> Int? {
        guard a.form == b.form else {
            // A null sorts before any value; a kind against another is for the values to say.
            if a.form == .null, b.form != .unkeyed { return -1 }
            if b.form == .null, a.form != .unkeyed { return 1 }
            return nil
        }
        switch a.form {
        case .null: return 0
        case .unkeyed: return nil
        case .number, .string:
            if a.high != b.high { return a.high < b.high ? -1 : 1 }
            if a.low != b.low { return a.low < b.low ? -1 : 1 }
            guard a.form == .string else { return 0 }
            // Equal first 16 bytes: the lengths tell when both strings are that short.
            guard a.length <= 16, b.length <= 16 else { return nil }
            return a.length == b.length ? 0 : (a.length < b.length ? -1 : 1)
        }
    }
}
