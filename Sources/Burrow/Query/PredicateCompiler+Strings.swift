import Foundation

/// String matching: byte comparisons, `LIKE` patterns, and case and diacritic folding.
extension PredicateCompiler {
    func stringPredicate(column: Int, _ op: ComparisonOperator, _ constant: [UInt8], nullResult: Bool) -> RowPredicate {
        { row in
            guard !row.isNull(column) else { return nullResult }
            return constant.withUnsafeBytes { Self.testBytes(op, row.columnBytes(column), $0) }
        }
    }

    @inline(__always)
    static func testBytes(_ op: ComparisonOperator, _ value: UnsafeRawBufferPointer, _ constant: UnsafeRawBufferPointer) -> Bool {
        switch op {
        case .beginsWith:
            return value.count >= constant.count
                && ValueComparator.bytes(UnsafeRawBufferPointer(rebasing: value[0..<constant.count]), constant) == 0
        case .endsWith:
            return value.count >= constant.count
                && ValueComparator.bytes(UnsafeRawBufferPointer(rebasing: value[(value.count - constant.count)...]), constant) == 0
        case .contains:
            if constant.isEmpty { return true }
            guard value.count >= constant.count else { return false }
            for start in 0...(value.count - constant.count)
            where memcmp(value.baseAddress! + start, constant.baseAddress!, constant.count) == 0 {
                return true
            }
            return false
        case .like:
            return like(value, pattern: constant)
        default:
            return test(op, ValueComparator.bytes(value, constant))
        }
    }

    /// Whether UTF-8 `value` matches `pattern`, where `*` stands for any run of characters and
    /// `?` for exactly one (one Unicode scalar).
    static func like(_ value: UnsafeRawBufferPointer, pattern: UnsafeRawBufferPointer) -> Bool {
        @inline(__always) func scalarEnd(_ bytes: UnsafeRawBufferPointer, _ start: Int) -> Int {
            var end = start + 1
            while end < bytes.count, bytes[end] & 0xC0 == 0x80 { end += 1 }
            return end
        }
        var v = 0, p = 0
        var starPattern = -1, starValue = 0
        while v < value.count {
            if p < pattern.count, pattern[p] == UInt8(ascii: "?") {
                v = scalarEnd(value, v); p += 1
            } else if p < pattern.count, pattern[p] == UInt8(ascii: "*") {
                starPattern = p; starValue = v; p += 1
            } else if p < pattern.count, pattern[p] == value[v] {
                v += 1; p += 1
            } else if starPattern >= 0 {
                starValue = scalarEnd(value, starValue)
                v = starValue; p = starPattern + 1
            } else {
                return false
            }
        }
        while p < pattern.count, pattern[p] == UInt8(ascii: "*") { p += 1 }
        return p == pattern.count
    }

    /// Folds case and diacritics (Unicode-aware: "Ä" becomes "a").
    static func folding(caseInsensitive: Bool, diacriticInsensitive: Bool) -> @Sendable (String) -> String {
        var flags: String.CompareOptions = []
        if caseInsensitive { flags.insert(.caseInsensitive) }
        if diacriticInsensitive { flags.insert(.diacriticInsensitive) }
        let options = flags
        return { $0.folding(options: options, locale: nil) }
    }
}
