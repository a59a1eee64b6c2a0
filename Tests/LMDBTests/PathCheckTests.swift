import Foundation
import LMDB
import Testing

/// The checks of the path a cursor took from a database's root to a leaf page: a sound file of
/// three levels passes them on every kind of read, and a branch page that routes a search
/// elsewhere (a child swapped, a key raised, a root whose header reads as a leaf's) stops the
/// read with `damagedPage` instead of finding nothing, or the wrong entries, where entries are.
@Suite struct PathCheckTests {
    let directory = TemporaryDirectory()
    private static let pageSize = 4_096
    /// Keys are the even numbers below twice this, so that odd ones miss.
    private static let entries = 40_000

    private static func key(_ number: Int) -> [UInt8] { withUnsafeBytes(of: UInt64(number).bigEndian, Array.init) }
    private static func number(_ key: UnsafeRawBufferPointer) -> Int { Int(UInt64(bigEndian: key.loadUnaligned(as: UInt64.self))) }

    /// A database of 40,000 entries (8-byte keys, 100-byte values): three levels of pages.
    private func writeFile() throws -> String {
        let path = directory.path("paths.mdb")
        let environment = try Environment.open(path: path)
        let txn = try environment.beginTransaction()
        let database = try txn.openDatabase(named: "p", create: true)
        for index in 0..<Self.entries {
            try txn.put(Self.key(2 * index), [UInt8](repeating: UInt8(truncatingIfNeeded: index), count: 100), in: database)
        }
        try txn.commit()
        return path
    }

    /// A branch page of the file: where it lies, and its nodes' child page numbers and keys.
    private struct BranchPage {
        let offset: Int
        let children: [Int]
        let keys: [[UInt8]]
        /// Where node `index` lies in the file.
        let nodeOffsets: [Int]
    }

    private static func u16(_ bytes: [UInt8], _ offset: Int) -> Int { Int(bytes[offset]) | Int(bytes[offset + 1]) << 8 }

    private static func branchPages(in bytes: [UInt8]) -> [BranchPage] {
        stride(from: 2 * pageSize, to: bytes.count, by: pageSize).compactMap { start -> BranchPage? in
            guard u16(bytes, start + 10) & 0x01 != 0 else { return nil }
            let count = (u16(bytes, start + 12) - 16) / 2
            let nodes = (0..<count).map { start + u16(bytes, start + 16 + 2 * $0) }
            return BranchPage(offset: start,
                              children: nodes.map { u16(bytes, $0) | u16(bytes, $0 + 2) << 16 | u16(bytes, $0 + 4) << 32 },
                              keys: nodes.map { Array(bytes[$0 + 8..<$0 + 8 + u16(bytes, $0 + 6)]) },
                              nodeOffsets: nodes)
        }
    }

    /// The branch pages whose children are leaf pages, and the root (the page no other names).
    private static func layout(of bytes: [UInt8]) -> (parentsOfLeaves: [BranchPage], root: BranchPage) {
        let branches = branchPages(in: bytes)
        let named = Set(branches.flatMap(\.children))
        let parents = branches.filter { page in page.children.allSatisfy { u16(bytes, $0 * pageSize + 10) & 0x02 != 0 } }
        return (parents, branches.first { !named.contains($0.offset / pageSize) }!)
    }

    private func damage(_ path: String, _ change: (inout [UInt8], (parentsOfLeaves: [BranchPage], root: BranchPage)) -> Void) throws {
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        change(&bytes, Self.layout(of: bytes))
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    @Test func everyReadOfASoundFileOfThreeLevelsPassesTheChecks() throws {
        let path = try writeFile()
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let (parents, root) = Self.layout(of: bytes)
        #expect(!parents.contains { $0.offset == root.offset }, "the root names branch pages: three levels")
        let environment = try Environment.open(path: path)
        let txn = try environment.beginReadTransaction()
        let database = try txn.openDatabase(named: "p")
        let cursor = try txn.openCursor(database)
        var walked = 0
        var entry = try cursor.first()
        while let (key, _) = entry { #expect(Self.number(key) == 2 * walked); walked += 1; entry = try cursor.next() }
        #expect(walked == Self.entries)
        entry = try cursor.last()
        while entry != nil { walked -= 1; entry = try cursor.previous() }
        #expect(walked == 0)
        // Hits and misses, each found again from another page than the last.
        for number in stride(from: 0, through: 2 * Self.entries + 1, by: 7) {
            let found = try cursor.seek(atLeast: Self.key(number)).map { Self.number($0.key) }
            #expect(found == (number >= 2 * Self.entries - 1 ? nil : number + number % 2))
            let stored = number % 2 == 0 && number < 2 * Self.entries ? [UInt8](repeating: UInt8(truncatingIfNeeded: number / 2), count: 100) : nil
            #expect(try txn.value(for: Self.key(number), in: database) == stored)
        }
    }

    @Test func aBranchNodeNamingAnotherLeafStopsTheSearchAndTheWalk() throws {
        let path = try writeFile()
        var moved = 0
        try damage(path) { bytes, layout in
            // Nodes 1 and 2 of a parent of leaves name each other's leaf: both leaves are sound.
            let page = layout.parentsOfLeaves[0]
            let (first, second) = (page.nodeOffsets[1], page.nodeOffsets[2])
            for offset in 0..<6 { bytes.swapAt(first + offset, second + offset) }
            moved = Self.number(page.keys[1].withUnsafeBytes { $0 })
        }
        let environment = try Environment.open(path: path)
        let txn = try environment.beginReadTransaction()
        let database = try txn.openDatabase(named: "p")
        #expect(throws: LMDBError.damagedPage) { try txn.openCursor(database).seek(atLeast: Self.key(moved)) }
        #expect(throws: LMDBError.damagedPage) {
            let cursor = try txn.openCursor(database)
            var entry = try cursor.first()
            while entry != nil { entry = try cursor.next() }
        }
    }

    @Test func aBranchKeyRaisedAboveItsLeafsFirstKeyStopsASearchLedAstray() throws {
        let path = try writeFile()
        var sought = 0
        try damage(path) { bytes, layout in
            // Node 2's key raised by four entries: still below node 3's, so the page stays
            // sound, but a search for the leaf's first keys goes to the leaf before.
            let page = layout.parentsOfLeaves[0]
            let first = Self.number(page.keys[2].withUnsafeBytes { $0 })
            bytes.replaceSubrange(page.nodeOffsets[2] + 8..<page.nodeOffsets[2] + 16, with: Self.key(first + 8))
            sought = first + 2
        }
        let environment = try Environment.open(path: path)
        let txn = try environment.beginReadTransaction()
        let cursor = try txn.openCursor(try txn.openDatabase(named: "p"))
        #expect(throws: LMDBError.damagedPage) { try cursor.seek(atLeast: Self.key(sought)) }
    }

    @Test func aLeafOverwrittenSoThatASearchStepsOverItStopsTheSearch() throws {
        let path = try writeFile()
        var sought = 0
        try damage(path) { bytes, layout in
            // Leaf 1 of a parent of leaves: its header overwritten as random bytes do, with flags
            // of a leaf of fixed-size keys. LMDB finds every key there below the key sought and
            // steps on to the next leaf, whose first key it returns: the path to that leaf is
            // sound, the leaf it stepped over is not.
            let page = layout.parentsOfLeaves[0]
            let start = page.children[1] * Self.pageSize
            sought = Self.number(page.keys[1].withUnsafeBytes { $0 })
            bytes.replaceSubrange(start..<start + 12, with: [0xC6, 0x1E, 0x4B, 0x9D, 0x02, 0x77, 0xE4, 0xCA, 0x9B, 0x4D, 0x6E, 0xDB])
        }
        let environment = try Environment.open(path: path)
        let txn = try environment.beginReadTransaction()
        let cursor = try txn.openCursor(try txn.openDatabase(named: "p"))
        #expect(throws: LMDBError.damagedPage) { try cursor.seek(atLeast: Self.key(sought + 1)) }
    }

    @Test func aRootWhoseHeaderReadsAsALeafStopsASearchThatFindsNothing() throws {
        let path = try writeFile()
        try damage(path) { bytes, layout in
            // Its page number and flags overwritten, as random bytes do: flags with the leaf bit.
            let start = layout.root.offset
            bytes.replaceSubrange(start..<start + 12, with: [0x8B, 0x94, 0x75, 0x9E, 0xAD, 0x1B, 0x20, 0x78, 0x20, 0x06, 0x26, 0x7A])
        }
        let environment = try Environment.open(path: path)
        let txn = try environment.beginReadTransaction()
        let database = try txn.openDatabase(named: "p")
        #expect(throws: LMDBError.damagedPage) { try txn.openCursor(database).seek(atLeast: Self.key(2 * Self.entries + 1)) }
        #expect(throws: LMDBError.damagedPage) { try txn.value(for: Self.key(3), in: database) }
    }
}
