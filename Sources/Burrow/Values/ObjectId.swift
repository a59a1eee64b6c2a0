import Foundation

/// A 12-byte unique identifier: 4 bytes of seconds since 1970, 5 random bytes fixed per
/// process, and a 3-byte counter, as in BSON. Ordered by creation time.
///
/// ```swift
/// final class Item: Object {
///     @Persisted(primaryKey: true) var id = ObjectId.generate()
/// }
/// let id = try ObjectId(string: "6401f0b0c1d2e3f405060708")
/// ```
public struct ObjectId: Hashable, Comparable, Sendable, CustomStringConvertible, Codable {
    /// The 12 bytes, most significant first.
    public let bytes: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8)

    private static let processRandom: [UInt8] = (0..<5).map { _ in UInt8.random(in: 0...255) }
    private static let counter = Counter()

    private final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var value = UInt32.random(in: 0..<0xFF_FFFF)
        func next() -> UInt32 {
            lock.lock(); defer { lock.unlock() }
            value = (value &+ 1) & 0xFF_FFFF
            return value
        }
    }

    /// A new identifier, as ``generate()`` makes: what a `@Persisted var _id: ObjectId`
    /// declared without a value starts with, so that every new object has its own.
    public init() {
        self = Self.generate()
    }

    /// An identifier for `timestamp` (whole seconds since 1970), with the low three bytes of
    /// `machineId` and the low two of `processId` in place of the per-process random bytes,
    /// then the counter as in ``generate()``.
    ///
    /// ```swift
    /// let id = ObjectId(timestamp: Date(), machineId: 10, processId: 20)
    /// id.timestamp   // now, to the second
    /// ```
    public init(timestamp: Date, machineId: Int, processId: Int) {
        let middle = [UInt8(truncatingIfNeeded: machineId >> 16), UInt8(truncatingIfNeeded: machineId >> 8),
                      UInt8(truncatingIfNeeded: machineId), UInt8(truncatingIfNeeded: processId >> 8),
                      UInt8(truncatingIfNeeded: processId)]
        self = Self.make(seconds: timestamp.timeIntervalSince1970, middle: middle)
    }

    /// Parses a literal of 24 hexadecimal digits; traps on any other text.
    ///
    /// ```swift
    /// let id = ObjectId("6401f0b0c1d2e3f405060708")
    /// ```
    public init(_ literal: StaticString) {
        let text = literal.withUTF8Buffer { String(decoding: $0, as: UTF8.self) }
        do {
            try self.init(string: text)
        } catch {
            burrowPreconditionFailure("Invalid ObjectId literal '\(text)': expected 24 hexadecimal digits.")
        }
    }

    /// An identifier from exactly 12 bytes.
    public init?(bytes source: some Collection<UInt8>) {
        guard source.count == 12 else { return nil }
        let b = Array(source)
        bytes = (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11])
    }

    /// Parses 24 hexadecimal digits.
    ///
    /// - Throws: ``Realm/Error`` with code `.fail` when the string is not 24 hex digits.
    public init(string: String) throws {
        let utf8 = Array(string.utf8)
        var parsed: [UInt8] = []
        if utf8.count == 24 {
            for index in stride(from: 0, to: 24, by: 2) {
                guard let high = Self.hexDigit(utf8[index]), let low = Self.hexDigit(utf8[index + 1]) else { break }
                parsed.append(high << 4 | low)
            }
        }
        guard parsed.count == 12, let id = ObjectId(bytes: parsed) else {
            throw Realm.Error(.fail, "Invalid ObjectId string '\(string)': expected 24 hexadecimal digits.")
        }
        self = id
    }

    /// A new identifier, unique within this process and very likely across processes.
    public static func generate() -> ObjectId {
        make(seconds: Date().timeIntervalSince1970, middle: processRandom)
    }

    /// Four bytes of whole seconds (clamped to what they hold), five `middle` bytes, then the
    /// process's counter.
    private static func make(seconds: TimeInterval, middle: [UInt8]) -> ObjectId {
        let clamped = seconds.isNaN ? 0 : Swift.min(Swift.max(seconds.rounded(.down), 0), Double(UInt32.max))
        let whole = UInt32(clamped)
        let count = counter.next()
        var raw = [UInt8](repeating: 0, count: 12)
        raw[0] = UInt8(whole >> 24); raw[1] = UInt8(whole >> 16 & 0xFF)
        raw[2] = UInt8(whole >> 8 & 0xFF); raw[3] = UInt8(whole & 0xFF)
        raw.replaceSubrange(4..<9, with: middle)
        raw[9] = UInt8(count >> 16); raw[10] = UInt8(count >> 8 & 0xFF); raw[11] = UInt8(count & 0xFF)
        return ObjectId(bytes: raw)!
    }

    /// The creation time encoded in the first four bytes.
    public var timestamp: Date {
        let b = byteArray
        let seconds = UInt32(b[0]) << 24 | UInt32(b[1]) << 16 | UInt32(b[2]) << 8 | UInt32(b[3])
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    /// The 12 bytes as an array.
    public var byteArray: [UInt8] {
        withUnsafeBytes(of: bytes) { Array($0) }
    }

    /// 24 lowercase hexadecimal digits.
    public var stringValue: String {
        byteArray.map { String($0, radix: 16).leftPadded(to: 2) }.joined()
    }

    public var description: String { stringValue }

    public static func == (lhs: ObjectId, rhs: ObjectId) -> Bool { lhs.byteArray == rhs.byteArray }
    public func hash(into hasher: inout Hasher) { hasher.combine(byteArray) }
    public static func < (lhs: ObjectId, rhs: ObjectId) -> Bool {
        lhs.byteArray.lexicographicallyPrecedes(rhs.byteArray)
    }

    public init(from decoder: any Decoder) throws {
        try self.init(string: decoder.singleValueContainer().decode(String.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(stringValue)
    }

    private static func hexDigit(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

extension ObjectId: ExpressibleByStringLiteral {
    /// `let id: ObjectId = "6401f0b0c1d2e3f405060708"`; traps unless the literal is 24
    /// hexadecimal digits.
    public init(stringLiteral value: StaticString) {
        self.init(value)
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
