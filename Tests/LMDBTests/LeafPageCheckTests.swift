import Foundation
import LMDB
import Testing

/// The shape check of leaf pages: every page LMDB writes passes it (keys of many lengths,
/// values inline and in overflow pages, deletions and rewrites, the main database's records of
/// named databases), and each kind of damage to a page's header, offsets, nodes or keys fails it.
@Suite struct LeafPageCheckTests {
    let directory = TemporaryDirectory()
    private static let pageSize = 4_096

    /// A file written the way programs write: 12,000 keys of 1 to 64 bytes with values of 0 to
    /// 300 bytes (one in fifty of 6,000, stored in overflow pages), a third deleted again and a
    /// tenth rewritten at another size, over several transactions, in three named databases.
    private func writtenEnvironment() throws -> Environment {
        let environment = try Environment.open(path: directory.path("pages.mdb"))
        var draw = 0
        for name in ["a", "b", "c"] {
            for round in 0..<3 {
                let txn = try environment.beginTransaction()
                let database = try txn.openDatabase(named: name, create: true)
                for index in 0..<4_000 {
                    let key = Self.key(round * 4_000 + index)
                    try txn.put(key, Self.value(&draw), in: database)
                }
                for index in stride(from: 0, to: 4_000, by: 3) {
                    _ = try txn.delete(Self.key(round * 4_000 + index), in: database)
                }
                try txn.commit()
            }
            let txn = try environment.beginTransaction()
            let database = try txn.openDatabase(named: name, create: true)
            let cursor = try txn.openCursor(database)
            var keys: [[UInt8]] = []
            var entry = try cursor.first()
            while let (key, _) = entry {
                if Self.scatter(&draw) % 10 == 0 { keys.append(Array(key)) }
                entry = try cursor.next()
            }
            for key in keys { try txn.put(key, Self.value(&draw), in: database) }
            try txn.commit()
        }
        return environment
    }

    /// A key of 1 to 64 bytes, starting with a non-zero byte, unique for `index`.
    private static func key(_ index: Int) -> [UInt8] {
        let stem = Array(String(index, radix: 36).utf8)
        return stem + [UInt8](repeating: 0x2E, count: max(0, index % 64 + 1 - stem.count))
    }

    /// The next of a fixed sequence of scattered numbers (Fibonacci hashing of `draw`), so that
    /// the file is the same on every run.
    private static func scatter(_ draw: inout Int) -> Int {
        draw += 1
        return Int(truncatingIfNeeded: (UInt64(draw) &* 0x9E37_79B9_7F4A_7C15) >> 33)
    }

    private static func value(_ draw: inout Int) -> [UInt8] {
        let size = scatter(&draw) % 50 == 0 ? 6_000 : scatter(&draw) % 301
        return [UInt8](repeating: UInt8(truncatingIfNeeded: size), count: size)
    }

    /// The addresses of the leaf pages holding the entries of `database`, in walk order.
    private func leafPages(of database: Database, in txn: Transaction) throws -> [UInt] {
        var pages: [UInt] = []
        let cursor = try txn.openCursor(database)
        var entry = try cursor.first()
        while let (key, _) = entry {
            let page = txn.bounds.page(of: key.baseAddress!)
            if pages.last != page { pages.append(page) }
            entry = try cursor.next()
        }
        return pages
    }

    @Test func everyPageLMDBWroteIsSound() throws {
        let environment = try writtenEnvironment()
        let txn = try environment.beginReadTransaction()
        var checked = 0
        for name in ["a", "b", "c", nil] {
            let database = try txn.openDatabase(named: name)
            for page in try leafPages(of: database, in: txn) {
                #expect(txn.bounds.leafPageIsSound(page), "page at offset \(page) of '\(name ?? "main")'")
                checked += 1
            }
        }
        #expect(checked > 100)
    }

    /// One kind of damage, applied to a copy of a page with at least two entries.
    struct Damage: CustomTestStringConvertible, Sendable {
        let name: String
        let apply: @Sendable (UnsafeMutableRawPointer) -> Void
        var testDescription: String { name }

        static func u16(_ page: UnsafeMutableRawPointer, _ offset: Int) -> Int { Int(page.load(fromByteOffset: offset, as: UInt16.self)) }
        static func setU16(_ page: UnsafeMutableRawPointer, _ offset: Int, _ value: Int) {
            page.storeBytes(of: UInt16(truncatingIfNeeded: value), toByteOffset: offset, as: UInt16.self)
        }
        /// The offset of entry `index`'s node.
        static func node(_ page: UnsafeMutableRawPointer, _ index: Int) -> Int { u16(page, 16 + 2 * index) }

        static let all: [Damage] = [
            Damage(name: "page number") { $0.storeBytes(of: $0.load(as: UInt64.self) + 1, as: UInt64.self) },
            Damage(name: "page kind") { setU16($0, 10, 0x01) },
            Damage(name: "one entry fewer") { setU16($0, 12, u16($0, 12) - 2) },
            Damage(name: "one entry more") { setU16($0, 12, u16($0, 12) + 2) },
            Damage(name: "upper bound lower") { setU16($0, 14, u16($0, 14) - 2) },
            Damage(name: "upper bound higher") { setU16($0, 14, u16($0, 14) + 2) },
            Damage(name: "an offset named twice") { setU16($0, 18, node($0, 0)) },
            Damage(name: "two offsets swapped") { page in
                let (first, second) = (node(page, 0), node(page, 1))
                setU16(page, 16, second)
                setU16(page, 18, first)
            },
            Damage(name: "an odd offset") { setU16($0, 18, node($0, 1) + 1) },
            Damage(name: "a key longer") { setU16($0, node($0, 1) + 6, u16($0, node($0, 1) + 6) + 2) },
            Damage(name: "a value longer") { page in
                // A node whose value is inline (an overflow value's node holds a page number).
                let count = (u16(page, 12) - 16) / 2
                let start = (0..<count).map { node(page, $0) }.first { u16(page, $0 + 4) == 0 }!
                setU16(page, start, u16(page, start) + 2)
            },
            Damage(name: "unknown node flags") { setU16($0, node($0, 1) + 4, 0x80) },
            Damage(name: "a key out of order") { page in
                let start = node(page, 1)
                for byte in 0..<u16(page, start + 6) { page.storeBytes(of: 0, toByteOffset: start + 8 + byte, as: UInt8.self) }
            },
        ]
    }

    @Test(arguments: Damage.all) func damageFailsTheCheck(_ damage: Damage) throws {
        let environment = try writtenEnvironment()
        let txn = try environment.beginReadTransaction()
        let pages = try leafPages(of: txn.openDatabase(named: "b"), in: txn)
        var damaged = 0
        let copy = UnsafeMutableRawPointer.allocate(byteCount: Self.pageSize, alignment: Self.pageSize)
        defer { copy.deallocate() }
        for page in pages {
            copy.copyMemory(from: UnsafeRawPointer(bitPattern: page)!, byteCount: Self.pageSize)
            let number = UInt(copy.load(as: UInt64.self))
            guard (Damage.u16(copy, 12) - 16) / 2 >= 2 else { continue }
            #expect(LeafPageCheck.isSound(copy, number: number, size: Self.pageSize), "the copy itself")
            damage.apply(copy)
            #expect(!LeafPageCheck.isSound(copy, number: number, size: Self.pageSize), "page \(number)")
            damaged += 1
        }
        #expect(damaged > 20)
    }
}

extension LeafPageCheckTests {
    /// The last key of a page, damaged so that it still sorts last in its page but after the
    /// first key of the next page: the page alone is sound, and the step across shows it.
    @Test func aKeyOutOfOrderAcrossTwoPagesStopsTheWalk() throws {
        let path = directory.path("pages.mdb")
        let (offset, length): (Int, Int)
        var entries = 0
        do {
            let environment = try writtenEnvironment()
            let txn = try environment.beginReadTransaction()
            let database = try txn.openDatabase(named: "b")
            let page = try #require(UnsafeRawPointer(bitPattern: try leafPages(of: database, in: txn)[0]))
            let count = (Int(page.load(fromByteOffset: 12, as: UInt16.self)) - 16) / 2
            let node = Int(page.load(fromByteOffset: 16 + 2 * (count - 1), as: UInt16.self))
            offset = Int(page.load(as: UInt64.self)) * Self.pageSize + node + 8
            length = Int(page.load(fromByteOffset: node + 6, as: UInt16.self))
            let cursor = try txn.openCursor(database)
            var entry = try cursor.first()
            while entry != nil { entries += 1; entry = try cursor.next() }
        }
        let file = try #require(FileHandle(forUpdatingAtPath: path))
        try file.seek(toOffset: UInt64(offset))
        try file.write(contentsOf: Data(repeating: 0xFF, count: length))
        try file.close()

        let environment = try Environment.open(path: path)
        let txn = try environment.beginReadTransaction()
        let cursor = try txn.openCursor(try txn.openDatabase(named: "b"))
        var walked = 0
        #expect(throws: LMDBError.damagedPage) {
            var entry = try cursor.first()
            while entry != nil { walked += 1; entry = try cursor.next() }
        }
        // The damaged key is the page's last: the path check finds it above the next page's
        // first key (the branch node's) on arrival, the step across would find it too.
        #expect(walked < entries)
        // Backwards, the step onto the damaged page shows it too.
        #expect(throws: LMDBError.damagedPage) {
            var entry = try cursor.last()
            while entry != nil { entry = try cursor.previous() }
        }
    }
}

extension LeafPageCheckTests {
    /// A page with one entry fewer in its header: a cursor that reaches it finds it damaged in a
    /// database whose pages are checked whole (read as runs a seek finds); elsewhere a seek is
    /// a lookup, whose misses the layer above checks, and a walk reads one entry fewer (a walk
    /// of a whole table compares its count with LMDB's, above).
    @Test(arguments: [false, true]) func aPageMissingAnEntryStopsACursorOnWholePages(checkedWhole: Bool) throws {
        let path = directory.path("rows.mdb")
        let offset: Int
        let keys = (0..<2_000).map { Array(String(format: "row-%05d", $0).utf8) }
        do {
            let environment = try Environment.open(path: path)
            let txn = try environment.beginTransaction()
            let database = try txn.openDatabase(named: "rows", create: true)
            for key in keys { try txn.put(key, Array(repeating: 7, count: 40), in: database) }
            try txn.commit()
            let read = try environment.beginReadTransaction()
            let page = try leafPages(of: try read.openDatabase(named: "rows"), in: read)[3]
            offset = Int(try #require(UnsafeRawPointer(bitPattern: page)).load(as: UInt64.self)) * Self.pageSize + 12
        }
        let file = try #require(FileHandle(forUpdatingAtPath: path))
        try file.seek(toOffset: UInt64(offset))
        let lower = try #require(try file.read(upToCount: 2))
        try file.seek(toOffset: UInt64(offset))
        try file.write(contentsOf: Data([lower[0] &- 2, lower[1]]))
        try file.close()

        let environment = try Environment.open(path: path)
        func rows(in txn: Transaction) throws -> Database {
            let database = try txn.openDatabase(named: "rows")
            return checkedWhole ? database.checkingPages(.wholePages) : database
        }
        do {
            let txn = try environment.beginReadTransaction()
            let cursor = try txn.openCursor(try rows(in: txn))
            var walked = 0
            let walk = {
                var entry = try cursor.first()
                while entry != nil { walked += 1; entry = try cursor.next() }
            }
            if checkedWhole {
                #expect(throws: LMDBError.damagedPage) { try walk() }
            } else {
                try walk()
                #expect(walked == keys.count - 1)
            }
        }
        // Another snapshot, with nothing checked yet.
        let txn = try environment.beginReadTransaction()
        let landing = try txn.openCursor(try rows(in: txn))
        let seekEveryKey = { for key in keys { _ = try landing.seek(atLeast: key) } }
        if checkedWhole {
            #expect(throws: LMDBError.damagedPage) { try seekEveryKey() }
            // The same cursor, going on after the error, meets it again on that page.
            #expect(throws: LMDBError.damagedPage) { try seekEveryKey() }
        } else {
            try seekEveryKey()
        }
    }
}
