@testable import LMDB
import Testing

/// The table a read transaction finds opened values in again: every key it was given, by
/// database, bytes and length, through its growth, and nothing else.
@Suite struct OpenedValueTableTests {
    /// A stand-in for an opened value: a distinct address and length per entry.
    private static func value(_ number: Int) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: UnsafeRawPointer(bitPattern: 0x1000 + number * 16), count: number % 97)
    }

    private static func key(_ number: Int, length: Int) -> [UInt8] {
        (0..<length).map { UInt8(truncatingIfNeeded: (number >> (8 * ($0 % 4))) &+ $0) }
    }

    @Test func findsEveryKeyByDatabaseBytesAndLength() {
        var table = OpenedValueTable()
        var stored: [(database: UInt64, key: [UInt8], number: Int)] = []
        for number in 0..<20_000 {
            let length = 1 + number % 24  // short keys in the slots, long ones beside them
            let entry = (database: UInt64(number % 3 + 1), key: Self.key(number, length: length), number: number)
            guard entry.key.withUnsafeBytes({ table.value(database: entry.database, key: $0) }) == nil else { continue }
            entry.key.withUnsafeBytes { table.insert(Self.value(number), database: entry.database, key: $0) }
            stored.append(entry)
        }
        #expect(stored.count > 19_000)
        for entry in stored {
            let found = entry.key.withUnsafeBytes { table.value(database: entry.database, key: $0) }
            #expect(found?.baseAddress == Self.value(entry.number).baseAddress && found?.count == Self.value(entry.number).count)
        }
        // The same bytes in another database, a zero byte more (the words pad with zeros), or
        // never stored: absent.
        for probe in [stored[0], stored.first { $0.key.count > 16 }!] {
            #expect(probe.key.withUnsafeBytes { table.value(database: probe.database % 3 + 1, key: $0) } == nil)
            #expect(probe.key.withUnsafeBytes { table.value(database: 9, key: $0) } == nil)
        }
        let probe = stored[0]
        #expect((probe.key + [0]).withUnsafeBytes { table.value(database: probe.database, key: $0) } == nil)
        #expect([UInt8](repeating: 0xEE, count: 7).withUnsafeBytes { table.value(database: 1, key: $0) } == nil)
        #expect([UInt8](repeating: 0xEE, count: 40).withUnsafeBytes { table.value(database: 1, key: $0) } == nil)
    }

    @Test func anEmptyTableFindsNothing() {
        let table = OpenedValueTable()
        #expect([UInt8]([1, 2, 3]).withUnsafeBytes { table.value(database: 1, key: $0) } == nil)
        #expect([UInt8](repeating: 1, count: 20).withUnsafeBytes { table.value(database: 1, key: $0) } == nil)
    }
}
