import Foundation
import LMDB
import Testing

/// `Cursor.skip`, which passes over whole leaf pages by their headers in a read-only
/// transaction: it lands where stepping entry by entry lands, in both directions, from anywhere,
/// past the ends, in write transactions too; and a damaged page it passes over is reported.
@Suite struct CursorSkipTests {
    let directory = TemporaryDirectory()
    private static let pageSize = 4_096

    /// 40,000 big-endian keys with values of 0 to 120 bytes (some in overflow pages), every
    /// seventh deleted again, so that leaf pages hold uneven counts; the keys left, in order.
    private func writtenFile() throws -> [UInt64] {
        let environment = try Environment.open(path: directory.path("skip.mdb"))
        let txn = try environment.beginTransaction()
        let database = try txn.openDatabase(named: "s", create: true)
        var kept: [UInt64] = []
        for number in UInt64(0)..<40_000 {
            let size = number % 997 == 0 ? 5_000 : Int(number * 2_654_435_761 % 121)
            try txn.put(Self.key(number), [UInt8](repeating: UInt8(truncatingIfNeeded: number), count: size), in: database)
        }
        for number in UInt64(0)..<40_000 {
            if number % 7 == 3 { _ = try txn.delete(Self.key(number), in: database) } else { kept.append(number) }
        }
        try txn.commit()
        return kept
    }

    private static func key(_ number: UInt64) -> [UInt8] { withUnsafeBytes(of: number.bigEndian) { Array($0) } }

    private static func number(_ key: UnsafeRawBufferPointer) -> UInt64 { UInt64(bigEndian: key.loadUnaligned(as: UInt64.self)) }

    /// The landing of `count` steps from position `start` of `keys`, as stepping lands:
    /// how many steps were made, and the position reached.
    private static func expected(from start: Int, _ count: Int, backwards: Bool, in keys: [UInt64]) -> (moved: Int, position: Int) {
        let moved = backwards ? min(count, start) : min(count, keys.count - 1 - start)
        return (moved, backwards ? start - moved : start + moved)
    }

    private func expectSkips(in txn: Transaction, keys: [UInt64]) throws {
        let database = try txn.openDatabase(named: "s")
        var checked = 0
        for start in [0, 1, 57, 1_000, 17_123, keys.count / 2, keys.count - 200, keys.count - 1] {
            for count in [0, 1, 2, 30, 99, 100, 101, 250, 1_234, 5_000, 17_000, keys.count - 1, keys.count, keys.count * 3] {
                for backwards in [false, true] {
                    let cursor = try txn.openCursor(database)
                    _ = try Self.key(keys[start]).withUnsafeBytes { try cursor.seek(exactly: $0) }
                    let moved = try cursor.skip(count, backwards: backwards)
                    let (expectedMoved, position) = Self.expected(from: start, count, backwards: backwards, in: keys)
                    let landed = try #require(try cursor.current())
                    #expect(moved == expectedMoved, "from \(start), \(count) \(backwards ? "back" : "on")")
                    #expect(Self.number(landed.key) == keys[position], "from \(start), \(count) \(backwards ? "back" : "on")")
                    #expect(landed.value.count == (keys[position] % 997 == 0 ? 5_000 : Int(keys[position] * 2_654_435_761 % 121)))
                    checked += 1
                }
            }
        }
        #expect(checked == 8 * 14 * 2)
    }

    @Test func aSkipLandsWhereSteppingLands() throws {
        let keys = try writtenFile()
        let environment = try Environment.open(path: directory.path("skip.mdb"))
        try expectSkips(in: try environment.beginReadTransaction(), keys: keys)
    }

    @Test func aWriteTransactionsSkipStepsAndLandsAlike() throws {
        let keys = try writtenFile()
        let environment = try Environment.open(path: directory.path("skip.mdb"))
        let txn = try environment.beginTransaction()
        defer { txn.abort() }
        try expectSkips(in: txn, keys: keys)
    }

    /// A leaf page in the middle of the database whose header names another page: stepping
    /// over it entry by entry reads it without noticing; a skip over it reports it.
    @Test func aDamagedPagePassedOverIsReported() throws {
        let keys = try writtenFile()
        let offset: UInt64
        do {
            let environment = try Environment.open(path: directory.path("skip.mdb"))
            let txn = try environment.beginReadTransaction()
            let cursor = try txn.openCursor(txn.openDatabase(named: "s"))
            let middle = try #require(try Self.key(keys[keys.count / 2]).withUnsafeBytes { try cursor.seek(exactly: $0) })
            let (_, number, _) = try #require(txn.bounds.pageInFile(txn.bounds.page(of: middle.key.baseAddress!)))
            offset = UInt64(number) * UInt64(Self.pageSize)
        }
        let file = try #require(FileHandle(forUpdatingAtPath: directory.path("skip.mdb")))
        try file.seek(toOffset: offset)
        try file.write(contentsOf: withUnsafeBytes(of: UInt64(offset / UInt64(Self.pageSize) + 1)) { Data($0) })
        try file.close()

        let environment = try Environment.open(path: directory.path("skip.mdb"))
        let txn = try environment.beginReadTransaction()
        let cursor = try txn.openCursor(txn.openDatabase(named: "s"))
        _ = try cursor.first()
        #expect(throws: LMDBError.damagedPage) { try cursor.skip(keys.count - 10) }
        _ = try cursor.last()
        #expect(throws: LMDBError.damagedPage) { try cursor.skip(keys.count - 10, backwards: true) }
        // Skips that end before the page still land.
        _ = try cursor.first()
        #expect(try cursor.skip(keys.count / 4) == keys.count / 4)
        #expect(Self.number(try #require(try cursor.current()).key) == keys[keys.count / 4])
    }
}
