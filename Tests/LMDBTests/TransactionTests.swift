import Foundation
import LMDB
import Testing

@Suite struct TransactionTests {
    let directory = TemporaryDirectory()

    private func environment() throws -> Environment {
        try Environment.open(path: directory.path("t.mdb"))
    }

    @Test func writesAndReadsBack() throws {
        let environment = try environment()
        let txn = try environment.beginTransaction()
        let db = try txn.openDatabase(named: "kv", create: true)
        try txn.put(Array("alpha".utf8), Array("one".utf8), in: db)
        try txn.put(Array("beta".utf8), [], in: db)
        #expect(try txn.value(for: Array("alpha".utf8), in: db) == Array("one".utf8))
        try txn.commit()

        let reader = try environment.beginReadTransaction()
        #expect(try reader.value(for: Array("alpha".utf8), in: db) == Array("one".utf8))
        #expect(try reader.value(for: Array("beta".utf8), in: db) == [])
        #expect(try reader.value(for: Array("gamma".utf8), in: db) == nil)
        #expect(try reader.count(in: db) == 2)
    }

    @Test func missingDatabaseIsNotFoundUnlessCreated() throws {
        let txn = try environment().beginTransaction()
        #expect(throws: LMDBError.notFound) { try txn.openDatabase(named: "nope") }
        _ = try txn.openDatabase(named: "nope", create: true)
    }

    @Test func noOverwriteAndAppendReportExistingKeys() throws {
        let txn = try environment().beginTransaction()
        let db = try txn.openDatabase(named: "kv", create: true)
        try txn.put([1], [1], in: db)
        #expect(throws: LMDBError.keyExists) { try txn.put([1], [2], in: db, flags: .noOverwrite) }
        try txn.put([5], [5], in: db, flags: .append)
        #expect(throws: LMDBError.keyExists) { try txn.put([3], [3], in: db, flags: .append) }
        #expect(try txn.value(for: [1], in: db) == [1])
    }

    @Test func abortDiscardsChanges() throws {
        let environment = try environment()
        let setup = try environment.beginTransaction()
        let db = try setup.openDatabase(named: "kv", create: true)
        try setup.commit()
        let txn = try environment.beginTransaction()
        try txn.put([1], [1], in: db)
        txn.abort()
        let reader = try environment.beginReadTransaction()
        #expect(try reader.count(in: db) == 0)
    }

    @Test func readersKeepTheirSnapshotUntilRenewed() throws {
        let environment = try environment()
        let setup = try environment.beginTransaction()
        let db = try setup.openDatabase(named: "kv", create: true)
        try setup.put([1], [1], in: db)
        try setup.commit()

        let reader = try environment.beginReadTransaction()
        let writer = try environment.beginTransaction()
        try writer.put([1], [2], in: db)
        try writer.put([2], [2], in: db)
        try writer.commit()

        #expect(try reader.value(for: [1], in: db) == [1])
        #expect(try reader.count(in: db) == 1)
        reader.reset()
        #expect(!reader.isActive)
        try reader.renew()
        #expect(try reader.value(for: [1], in: db) == [2])
        #expect(try reader.count(in: db) == 2)
    }

    @Test func deleteAndDrop() throws {
        let txn = try environment().beginTransaction()
        let db = try txn.openDatabase(named: "kv", create: true)
        for key in 0..<10 { try txn.put([UInt8(key)], [], in: db) }
        #expect(try txn.delete([3], in: db))
        #expect(try !txn.delete([3], in: db))
        #expect(try txn.count(in: db) == 9)
        try txn.drop(db)
        #expect(try txn.count(in: db) == 0)
    }

    @Test func cursorWalksInKeyOrderAndSeeks() throws {
        let txn = try environment().beginTransaction()
        let db = try txn.openDatabase(named: "kv", create: true)
        for key in [UInt8(30), 10, 20, 40] { try txn.put([key], [key], in: db) }
        let cursor = try txn.openCursor(db)
        var seen: [UInt8] = []
        var entry = try cursor.first()
        while let current = entry {
            seen.append(current.key[0])
            entry = try cursor.next()
        }
        #expect(seen == [10, 20, 30, 40])
        #expect(try cursor.seek(atLeast: [25])?.key.first == 30)
        #expect(try cursor.seek(atLeast: [41]) == nil)
        #expect(try cursor.last()?.value.first == 40)
        #expect(try cursor.previous()?.key.first == 30)
        try cursor.deleteCurrent()
        #expect(try txn.count(in: db) == 3)
    }

    @Test func cursorSkipsEntriesBothWaysAndStopsAtTheEnds() throws {
        let txn = try environment().beginTransaction()
        let db = try txn.openDatabase(named: "kv", create: true)
        for key in UInt8(0)..<200 { try txn.put([key], [key &* 3], in: db) }
        let cursor = try txn.openCursor(db)
        _ = try cursor.first()
        #expect(try cursor.skip(0) == 0 && cursor.current()?.key.first == 0)
        #expect(try cursor.skip(150) == 150 && cursor.current()?.value.first == 150 &* 3)
        #expect(try cursor.skip(40, backwards: true) == 40 && cursor.current()?.key.first == 110)
        #expect(try cursor.skip(500) == 89 && cursor.current()?.key.first == 199)
        #expect(try cursor.skip(1) == 0 && cursor.current()?.key.first == 199)
        #expect(try cursor.skip(1_000, backwards: true) == 199 && cursor.current()?.key.first == 0)
    }

    @Test func readCursorsStartUnpositionedOnTheirOwnDatabaseAndSnapshot() throws {
        let environment = try environment()
        let setup = try environment.beginTransaction()
        let letters = try setup.openDatabase(named: "letters", create: true)
        let digits = try setup.openDatabase(named: "digits", create: true)
        for key in [UInt8(ascii: "a"), UInt8(ascii: "b")] { try setup.put([key], [], in: letters) }
        for key in [UInt8(ascii: "1"), UInt8(ascii: "2")] { try setup.put([key], [], in: digits) }
        try setup.commit()

        let reader = try environment.beginReadTransaction()
        func firstKeys(_ db: Database) throws -> [UInt8] {
            // `next` on a cursor nobody has positioned starts at the first entry.
            let cursor = try reader.openCursor(db)
            return [try cursor.next()?.key.first, try cursor.next()?.key.first].compactMap { $0 }
        }
        for _ in 0..<3 {
            #expect(try firstKeys(letters) == [UInt8(ascii: "a"), UInt8(ascii: "b")])
            #expect(try firstKeys(digits) == [UInt8(ascii: "1"), UInt8(ascii: "2")])
        }
        // Two cursors alive at once on one database are distinct.
        let outer = try reader.openCursor(letters)
        #expect(try outer.last()?.key.first == UInt8(ascii: "b"))
        #expect(try firstKeys(letters).first == UInt8(ascii: "a"))
        #expect(try outer.current()?.key.first == UInt8(ascii: "b"))

        let writer = try environment.beginTransaction()
        try writer.put([UInt8(ascii: "0")], [], in: digits)
        try writer.commit()
        #expect(try firstKeys(digits) == [UInt8(ascii: "1"), UInt8(ascii: "2")])
        try reader.renew()
        #expect(try firstKeys(digits) == [UInt8(ascii: "0"), UInt8(ascii: "1")])
    }

    @Test func keysLongerThanTheLimitAreRejected() throws {
        let environment = try environment()
        #expect(environment.maxKeySize == 511)
        let txn = try environment.beginTransaction()
        let db = try txn.openDatabase(named: "kv", create: true)
        #expect(throws: LMDBError.badValueSize) {
            try txn.put([UInt8](repeating: 1, count: 512), [], in: db)
        }
    }

    @Test func errorsDescribeThemselves() {
        #expect(LMDBError.notFound.description.contains("MDB_NOTFOUND"))
        #expect(LMDBError.noSuchFile.description == String(cString: strerror(ENOENT)))
    }

    @Test func countsLiveTransactions() throws {
        let environment = try environment()
        let reader = try environment.beginReadTransaction()
        let second = try environment.beginReadTransaction()
        #expect(environment.activeTransactionCount == 2)
        reader.reset()
        #expect(environment.activeTransactionCount == 1)
        try reader.renew()
        second.abort()
        #expect(environment.activeTransactionCount == 1)
    }
}

@Suite struct MutationCountTests {
    let directory = TemporaryDirectory()

    @Test func everyKindOfChangeCountsAndReadsDoNot() throws {
        let environment = try Environment.open(path: directory.path("m.mdb"))
        let txn = try environment.beginTransaction()
        let db = try txn.openDatabase(named: "kv", create: true)
        var expected: UInt64 = 0
        func changed(_ body: () throws -> Void) rethrows {
            try body()
            expected += 1
            #expect(txn.mutationCount == expected)
        }
        try changed { try txn.put([1], [1], in: db) }
        try changed { try txn.put([2], [2], in: db) }
        _ = try txn.value(for: [1], in: db)
        let cursor = try txn.openCursor(db)
        _ = try cursor.first()
        #expect(txn.mutationCount == expected)
        try changed { try [3].withUnsafeBytes { key in try [3].withUnsafeBytes { try cursor.put(key, $0) } } }
        _ = try cursor.first()
        try changed { try cursor.deleteCurrent() }
        try changed { try txn.delete([2], in: db) }
        try changed { try txn.drop(db) }
        txn.abort()
    }
}
