/// Where an element of a synced list sits: a string of base-36 digits, compared as text,
/// that is also the element's identity on every machine. A new element's key is made between
/// its neighbours' keys, then made unique with the clock of the change that inserted it, so
/// that two machines inserting at the same place concurrently make keys that differ only in
/// their clocks: both elements are kept, in clock order.
///
/// A key never ends in the digit `0`, so that there is always room between two keys.
enum PositionKey {
    static let digits = Array("0123456789abcdefghijklmnopqrstuvwxyz".utf8)
    private static let base = 36
    private static let values: [UInt8: Int] = Dictionary(uniqueKeysWithValues: digits.enumerated().map { ($1, $0) })

    /// A key for an element inserted by the change at `clock` between the elements keyed
    /// `lower` and `upper` (`nil`: the list's start or end), greater than `lower` and less
    /// than `upper` (when `lower < upper`, which keys of one list always are).
    static func between(_ lower: String?, _ upper: String?, clock: String) -> String {
        var key = midpoint(lower.map(digitValues) ?? [], upper.map(digitValues))
        // The clock's hex digits are base-36 digits; `z` ends the key with a digit that is
        // not `0`.
        key.append(contentsOf: clock.utf8.compactMap { values[$0] })
        key.append(base - 1)
        return String(decoding: key.map { digits[$0] }, as: UTF8.self)
    }

    /// Keys for `count` elements listed in order with nothing known around them: what a
    /// list's value without keys is given, the same on every machine (`clock` `nil`), or a
    /// list's new keys when its old ones grew long (made unique with `clock`). Each is the
    /// element's position in fixed-width base 36, so that keys stay as short as the count.
    static func sequence(count: Int, clock: String? = nil) -> [String] {
        var width = 1
        while width < 12 && Self.power(width) <= count { width += 1 }
        let suffix = clock.map { Array($0.utf8.filter { values[$0] != nil }) } ?? []
        return (1...max(count, 1)).prefix(count).map { position in
            var digits: [UInt8] = []
            var rest = position
            for _ in 0..<width {
                digits.append(Self.digits[rest % base])
                rest /= base
            }
            return String(decoding: digits.reversed() + suffix + [Self.digits[base - 1]], as: UTF8.self)
        }
    }

    private static func power(_ exponent: Int) -> Int {
        (0..<exponent).reduce(1) { product, _ in product * base }
    }

    /// How long a key may grow before its list is given new keys.
    static let longest = 512

    /// Whether `text` is a key: base-36 digits, not ending in `0`.
    static func isValid(_ text: String) -> Bool {
        guard let last = text.utf8.last, last != digits[0], text.utf8.count <= 4096 else { return false }
        return text.utf8.allSatisfy { values[$0] != nil }
    }

    private static func digitValues(_ text: String) -> [Int] {
        text.utf8.map { values[$0] ?? 0 }
    }

    /// Digits strictly between `lower` and `upper` read as fractions `0.lower` and `0.upper`
    /// (`nil`: 1), which neither end in `0` nor are a prefix of `upper`: so that any digits
    /// appended keep the result between the two.
    private static func midpoint(_ lower: [Int], _ upper: [Int]?) -> [Int] {
        var result: [Int] = []
        var boundedAbove = upper != nil
        var index = 0
        while true {
            let low = index < lower.count ? lower[index] : 0
            // `upper` ended, or is below `lower`, with the digits before equal: it is not
            // above `lower` (keys out of order only come from damaged data), so the result
            // is made one after `lower`.
            if boundedAbove, let upper, index >= upper.count || upper[index] < low { boundedAbove = false }
            let high = boundedAbove ? upper![index] : base
            if high - low > 1 {
                if boundedAbove {
                    result.append((low + high) / 2)
                } else {
                    // Past the list's end the next digit up, not the midpoint, so that the
                    // keys of a list that grows at its end stay short.
                    result.append(index < lower.count ? low + 1 : base / 2)
                }
                return result
            }
            result.append(low)
            // One apart: the result is below `upper` from here on, whatever follows.
            if high - low == 1 { boundedAbove = false }
            index += 1
        }
    }
}
