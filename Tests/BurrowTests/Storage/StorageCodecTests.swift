@testable import Burrow
import Foundation
import Testing

@Suite struct StorageCodecTests {
    private func order(_ a: _PersistedValue, _ b: _PersistedValue) -> Int {
        ValueComparator.bytes(IndexKeyEncoder.key(for: a), IndexKeyEncoder.key(for: b))
    }

    @Test func integerKeysSortLikeIntegers() {
        var generator = SystemRandomNumberGenerator()
        let values: [Int64] = [.min, -1, 0, 1, .max] + (0..<200).map { _ in Int64.random(in: .min ... .max, using: &generator) }
        for a in values { for b in values.prefix(20) {
            #expect(order(.int(a), .int(b)) == ValueComparator.sign(a, b))
        } }
    }

    @Test func doubleKeysSortLikeDoubles() {
        let values: [Double] = [-.infinity, -1e300, -1, -0.5, -Double.leastNonzeroMagnitude, 0, Double.leastNonzeroMagnitude,
                                0.5, 1, 1e300, .infinity]
        for (i, a) in values.enumerated() { for (j, b) in values.enumerated() {
            #expect(order(.double(a), .double(b)) == ValueComparator.sign(i, j), "\(a) vs \(b)")
        } }
        #expect(order(.double(-0.0), .double(0.0)) == 0)
        #expect(order(.double(.nan), .double(.infinity)) == 1)
        #expect(order(.double(.nan), .double(-.nan)) == 0)
    }

    @Test func stringKeysSortByBytesWithPrefixesFirst() {
        let values = ["", "\u{0}", "\u{0}\u{0}", "a", "a\u{0}", "a\u{0}b", "ab", "b", "é", "🐶"]
        for (i, a) in values.enumerated() { for (j, b) in values.enumerated() {
            #expect(order(.string(a), .string(b)) == ValueComparator.sign(i, j), "\(a.debugDescription) vs \(b.debugDescription)")
        } }
        #expect(order(.null, .string("")) == -1)
    }

    @Test func longStringsGetBoundedKeysThatStillTellValuesApart() {
        let long = String(repeating: "x", count: 5000)
        let key = IndexKeyEncoder.key(for: .string(long))
        #expect(key.count < 511 - 8)
        #expect(IndexKeyEncoder.isTruncated(key))
        #expect(key == IndexKeyEncoder.key(for: .string(long)))
        #expect(key != IndexKeyEncoder.key(for: .string(long + "y")))
    }

    @Test func rowsRoundTripEveryKindAndNull() {
        let values: [_PersistedValue] = [
            .bool(true), .int(-42), .float(1.25), .double(-2.5), .string("héllo"), .data(Data([0, 255])),
            .date(Date(timeIntervalSinceReferenceDate: 123.456)), .uuid(UUID()), .objectId(ObjectId.generate()),
            .decimal("3.14159"), .null, .string(""),
        ]
        let kinds: [_StorageKind] = [.bool, .int, .float, .double, .string, .data, .date, .uuid, .objectId, .decimal, .int, .string]
        var buffer: [UInt8] = []
        RowCodec.encode(values, into: &buffer)
        buffer.withUnsafeBytes { bytes in
            let reader = RowReader(bytes)
            #expect(reader.columnCount == values.count)
            for (column, value) in values.enumerated() {
                #expect(reader.value(column, kind: kinds[column]) == value, "column \(column)")
            }
            #expect(reader.isNull(10) && !reader.isNull(11))
            #expect(reader.value(40, kind: .int) == .null)  // a column added later reads as null
        }
    }

    @Test func anEmptyRowHasNoColumns() {
        var buffer: [UInt8] = []
        RowCodec.encode([], into: &buffer)
        buffer.withUnsafeBytes { #expect(RowReader($0).columnCount == 0) }
    }

    @Test func nestedCollectionsRoundTripAndEveryTruncationIsDamage() throws {
        let value = _PersistedValue.mixed(.dictionary(keys: ["a", "é"], values: [
            .list([.int(1), .null, .typedLink(classID: 3, key: 9), .list([])]),
            .dictionary(keys: ["x"], values: [.string("y")]),
        ]))
        var bytes: [UInt8] = []
        RowCodec.append(value, to: &bytes)
        #expect(bytes.count == RowCodec.byteCount(of: value))
        #expect(try bytes.withUnsafeBytes { try RowCodec.decode($0, kind: .mixed) } == value)
        // Every truncation is reported, never decoded to a shorter value.
        for length in 0..<bytes.count {
            #expect(throws: StorageError.self, "truncated to \(length) bytes") {
                try Array(bytes[..<length]).withUnsafeBytes { try RowCodec.decode($0, kind: .mixed) }
            }
        }
    }

    @Test func damagedOrTooDeepNestedBytesAreReported() {
        func decode(_ bytes: [UInt8]) throws -> _PersistedValue {
            try bytes.withUnsafeBytes { try NestedValueCodec.decodeMixed($0) }
        }
        // A list whose one element claims an integer but holds a single byte.
        var shortInteger: [UInt8] = [NestedValueCodec.listTag, 1, 0, 0, 0, 2, 0, 0, 0, _StorageKind.int.rawValue, 7]
        #expect(throws: StorageError.self) { try decode(shortInteger) }
        shortInteger[5] = 1  // the element is its tag alone
        shortInteger.removeLast()
        #expect(throws: StorageError.self) { try decode(shortInteger) }
        // A count far larger than the bytes could hold, and an unknown tag.
        #expect(throws: StorageError.self) { try decode([NestedValueCodec.listTag, 0xFF, 0xFF, 0xFF, 0x7F]) }
        #expect(throws: StorageError.self) { try decode([0x3F, 1, 2]) }
        // Lists nested far deeper than any write makes are refused instead of recursing on.
        var deep: _PersistedValue = .int(1)
        for _ in 0..<(AnyRealmValue.maximumNestingDepth + 20) { deep = .list([deep]) }
        var bytes: [UInt8] = []
        RowCodec.append(.mixed(deep), to: &bytes)
        #expect(throws: StorageError.self) { try bytes.withUnsafeBytes { try RowCodec.decode($0, kind: .mixed) } }
    }

    @Test func fixedWidthValuesOfTheWrongWidthAreReported() {
        let kinds: [_StorageKind] = [.bool, .int, .float, .double, .date, .uuid, .objectId, .link]
        for kind in kinds {
            #expect(throws: StorageError.self, "\(kind)") {
                try [UInt8](repeating: 1, count: 3).withUnsafeBytes { try RowCodec.decode($0, kind: kind) }
            }
        }
        #expect(throws: StorageError.self) { try Array("12abc".utf8).withUnsafeBytes { try RowCodec.decode($0, kind: .decimal) } }
        // Sixteen bytes, but a coefficient of 10³⁴ (not canonical) or the large-coefficient form.
        let limit = Decimal128.coefficientLimit
        for (low, high) in [(UInt64(truncatingIfNeeded: limit), 0x3040_0000_0000_0000 | UInt64(limit >> 64)), (0, 0x6000_0000_0000_0000)] {
            var bytes: [UInt8] = []
            withUnsafeBytes(of: low.littleEndian) { bytes += $0 }
            withUnsafeBytes(of: high.littleEndian) { bytes += $0 }
            #expect(throws: StorageError.self) { try bytes.withUnsafeBytes { try RowCodec.decode($0, kind: .decimal) } }
        }
        #expect(throws: StorageError.self) { try [2, 9].withUnsafeBytes { try ListEntries.decode($0, kind: .int) } }
        #expect(throws: StorageError.self) { try [9, 0, 0, 0, 65].withUnsafeBytes { try MapEntries.decode($0, kind: .int) } }
    }

    @Test func rowsWithOffsetsPastTheirEndAreNotRead() {
        var buffer: [UInt8] = []
        RowCodec.encode([.int(5), .string("abc")], into: &buffer)
        buffer.withUnsafeBytes { #expect(RowReader.isWellFormed($0)) }
        // The last end offset points past the row.
        buffer[2 + 1 + 4] = 200
        _ = buffer.withUnsafeBytes { bytes in
            #expect(throws: StorageError.self) { try RowReader(bytes).checkedValue(1, kind: .string) }
        }
        #expect(!RowReader.isWellFormed(UnsafeRawBufferPointer(start: nil, count: 0)))
        [UInt8]([40, 0, 0]).withUnsafeBytes { #expect(!RowReader.isWellFormed($0)) }
    }
}
