import Foundation

/// A hybrid logical clock's reading: milliseconds since 1970 in the high 48 bits, a counter in
/// the low 16. It follows the wall clock, yet never goes back and always moves past any
/// reading it has seen from another machine, so that a change made after seeing another is
/// ordered after it even when the two machines' clocks disagree.
struct HybridTimestamp: Comparable, Hashable, Sendable, CustomStringConvertible {
    let rawValue: UInt64

    init(rawValue: UInt64) { self.rawValue = rawValue }

    /// The reading at `milliseconds` since 1970 with counter `0`.
    init(milliseconds: UInt64) { rawValue = milliseconds << 16 }

    static let zero = HybridTimestamp(rawValue: 0)

    /// The wall clock's reading now.
    static func wallClock(_ date: Date = Date()) -> HybridTimestamp {
        HybridTimestamp(milliseconds: UInt64(max(0, date.timeIntervalSince1970 * 1000)))
    }

    /// The reading after `self`: the wall clock when it is ahead, else one tick later.
    func next(wallClock: HybridTimestamp = .wallClock()) -> HybridTimestamp {
        wallClock > self ? wallClock : HybridTimestamp(rawValue: rawValue &+ 1)
    }

    /// The milliseconds since 1970 this reading stands for.
    var milliseconds: UInt64 { rawValue >> 16 }

    static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

    var description: String { "\(milliseconds).\(rawValue & 0xFFFF)" }
}

/// When a change was made and by which client: the order every machine agrees on. Readings
/// are compared first, and the client id breaks a tie, so two changes are never equal unless
/// they are the same change.
struct ChangeClock: Comparable, Hashable, Sendable, CustomStringConvertible {
    let timestamp: HybridTimestamp
    let client: UUID

    static func < (lhs: Self, rhs: Self) -> Bool {
        if lhs.timestamp != rhs.timestamp { return lhs.timestamp < rhs.timestamp }
        return lhs.client.uuidString < rhs.client.uuidString
    }

    /// The text form: 16 hex digits of the reading, `-`, the client's 32 hex digits. Texts
    /// compare (byte by byte) as the clocks do, so a server orders them with plain SQL.
    var text: String {
        // Written byte by byte: clocks are formatted for every property of every upload.
        var bytes = [UInt8](repeating: UInt8(ascii: "-"), count: 49)
        let digits = Array("0123456789abcdef".utf8)
        for index in 0..<16 { bytes[index] = digits[Int(timestamp.rawValue >> (60 - 4 * UInt64(index)) & 0xF)] }
        withUnsafeBytes(of: client.uuid) { raw in
            for (index, byte) in raw.enumerated() {
                bytes[17 + 2 * index] = digits[Int(byte >> 4)]
                bytes[18 + 2 * index] = digits[Int(byte & 0xF)]
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The clock of a ``text`` form; `nil` when `text` is not one.
    init?(text: String) {
        // Read byte by byte: every field of every downloaded change carries a clock.
        guard let parsed = text.utf8.withContiguousStorageIfAvailable(Self.parse) ?? Self.parse(Array(text.utf8)) else { return nil }
        self = parsed
    }

    private static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> ChangeClock? {
        guard bytes.count == 49, bytes[16] == UInt8(ascii: "-") else { return nil }
        func digit(_ index: Int) -> UInt8? {
            switch bytes[index] {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): bytes[index] - UInt8(ascii: "0")
            // Lowercase only: clock texts compare as text, where "B" < "a".
            case UInt8(ascii: "a")...UInt8(ascii: "f"): bytes[index] - UInt8(ascii: "a") + 10
            default: nil
            }
        }
        var raw: UInt64 = 0
        for index in 0..<16 {
            guard let value = digit(index) else { return nil }
            raw = raw << 4 | UInt64(value)
        }
        var uuid: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        let valid = withUnsafeMutableBytes(of: &uuid) { raw -> Bool in
            for index in 0..<16 {
                guard let high = digit(17 + 2 * index), let low = digit(18 + 2 * index) else { return false }
                raw[index] = high << 4 | low
            }
            return true
        }
        guard valid else { return nil }
        return ChangeClock(timestamp: HybridTimestamp(rawValue: raw), client: UUID(uuid: uuid))
    }

    private static func parse(_ bytes: [UInt8]) -> ChangeClock? {
        bytes.withUnsafeBufferPointer(parse)
    }

    init(timestamp: HybridTimestamp, client: UUID) {
        self.timestamp = timestamp
        self.client = client
    }

    var description: String { text }
}
