import Foundation
import LMDB
import Testing

/// The check of meta pages before LMDB maps a file reads the root pages of the newer meta page
/// only: another process's commit writes its pages before its meta page, and may already have
/// put other data where the older version's root was.
@Suite struct MetaPageCheckTests {
    let directory = TemporaryDirectory()

    /// A closed file after a few commits, with its page size and its two meta pages' transaction
    /// ids and main roots.
    private func committedFile() throws -> (path: String, pageSize: Int, ids: [UInt64], roots: [UInt64]) {
        let path = directory.path("meta.mdb")
        do {
            let environment = try Environment.open(path: path)
            for round in 0..<3 {
                let txn = try environment.beginTransaction()
                let db = try txn.openDatabase(named: "kv", create: true)
                try txn.put(Array("key \(round)".utf8), Array(repeating: UInt8(round), count: 100), in: db)
                try txn.commit()
            }
        }
        #expect(!Environment.isOpen(path: path))
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        func load(_ offset: Int) -> UInt64 { bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: UInt64.self) } }
        let pageSize = Int(UInt32(truncatingIfNeeded: load(40)))
        // In each meta page: the main database's root at 128, the transaction id at 144.
        return (path, pageSize, [load(144), load(pageSize + 144)], [load(128), load(pageSize + 128)])
    }

    private func zeroPageHeader(_ page: UInt64, pageSize: Int, in path: String) throws {
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        bytes.replaceSubrange(Int(page) * pageSize..<Int(page) * pageSize + 16, with: Data(count: 16))
        try bytes.write(to: URL(fileURLWithPath: path))
    }

    @Test func theOlderVersionsRootMayHoldOtherDataTheNewersMayNot() throws {
        let file = try committedFile()
        let newer = file.ids[1] > file.ids[0] ? 1 : 0
        try #require(file.ids[0] != file.ids[1] && file.roots[0] != file.roots[1], "\(file)")
        // As a commit in progress leaves it: the older version's root page written over.
        try zeroPageHeader(file.roots[1 - newer], pageSize: file.pageSize, in: file.path)
        try Environment.checkMetaPages(atPath: file.path)
        let environment = try Environment.open(path: file.path)
        let txn = try environment.beginReadTransaction()
        #expect(try txn.value(for: Array("key 2".utf8), in: try txn.openDatabase(named: "kv")) == Array(repeating: 2, count: 100))
    }

    @Test func aDamagedRootOfTheNewerVersionIsRefused() throws {
        let file = try committedFile()
        let newer = file.ids[1] > file.ids[0] ? 1 : 0
        try zeroPageHeader(file.roots[newer], pageSize: file.pageSize, in: file.path)
        #expect(throws: LMDBError.corrupted) { try Environment.checkMetaPages(atPath: file.path) }
    }
}
