import Foundation
import LMDB
import Testing

@Suite struct EnvironmentTests {
    let directory = TemporaryDirectory()

    @Test func opensTheSameEnvironmentOncePerFile() throws {
        let path = directory.path("a.mdb")
        let first = try Environment.open(path: path)
        let second = try Environment.open(path: path)
        #expect(first === second)
        // A hard link is the same file: the registry matches device and inode, not the path.
        let linked = directory.path("link.mdb")
        try FileManager.default.linkItem(atPath: path, toPath: linked)
        #expect(try Environment.open(path: linked) === first)
        #expect(Environment.isOpen(path: path))
    }

    @Test func closesWhenTheLastReferenceGoes() throws {
        let path = directory.path("closing.mdb")
        do {
            let environment = try Environment.open(path: path)
            #expect(environment.pageSize > 0)
        }
        #expect(!Environment.isOpen(path: path))
        #expect(FileManager.default.fileExists(atPath: path + "-lock"))
    }

    /// A program the process starts (here with `posix_spawn`, which closes nothing itself)
    /// inherits none of the file's descriptors: each is close-on-exec.
    @Test func childProcessesDoNotInheritTheFile() throws {
        let path = directory.path("inherited.mdb")
        let listing = directory.path("descriptors.txt")
        let environment = try Environment.open(path: path)
        #expect(environment.pageSize > 0)
        let script = "for f in /proc/$$/fd/*; do readlink \"$f\"; done > '\(listing)'"
        var pid: pid_t = 0
        let arguments = ["/bin/sh", "-c", script]
        var argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        #expect(posix_spawn(&pid, "/bin/sh", nil, nil, &argv, environ) == 0)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        let opened = try String(contentsOfFile: listing, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(opened.contains(listing), "the listing names the child's own descriptors")
        #expect(!opened.contains { $0.hasPrefix(path) }, "the child holds \(opened.filter { $0.hasPrefix(path) })")
    }

    @Test func readOnlyOpenOfAMissingFileFails() {
        var options = Environment.Options()
        options.readOnly = true
        #expect(throws: LMDBError.noSuchFile) {
            try Environment.open(path: directory.path("missing.mdb"), options: options)
        }
    }

    @Test func rejectsAFileThatIsNotLMDB() throws {
        let path = directory.path("text.mdb")
        let text = Data(String(repeating: "not a database\n", count: 2000).utf8)
        try text.write(to: URL(fileURLWithPath: path))
        #expect(throws: LMDBError.invalid) { try Environment.open(path: path) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == text)
    }

    @Test func growsTheMapOnlyWithoutLiveTransactions() throws {
        var options = Environment.Options()
        options.mapSize = 1 << 20
        let environment = try Environment.open(path: directory.path("grow.mdb"), options: options)
        let reader = try environment.beginReadTransaction()
        #expect(environment.activeTransactionCount == 1)
        #expect(throws: LMDBError.busy) { try environment.growMap(to: 1 << 22) }
        reader.abort()
        try environment.growMap(to: 1 << 22)
        #expect(environment.mapSize == 1 << 22)
    }

    @Test func mapFullIsReportedAndTheMapCanThenGrow() throws {
        var options = Environment.Options()
        options.mapSize = 64 * 1024
        let environment = try Environment.open(path: directory.path("full.mdb"), options: options)
        let big = [UInt8](repeating: 7, count: 4096)
        var failure: LMDBError?
        do {
            let txn = try environment.beginTransaction()
            let db = try txn.openDatabase(named: nil)
            for index in 0..<64 { try txn.put(Array("k\(index)".utf8), big, in: db) }
            try txn.commit()
        } catch let error as LMDBError {
            failure = error
        }
        #expect(failure == .mapFull)
        try environment.growMap(to: 4 << 20)
        let txn = try environment.beginTransaction()
        let db = try txn.openDatabase(named: nil)
        for index in 0..<64 { try txn.put(Array("k\(index)".utf8), big, in: db) }
        try txn.commit()
    }

    @Test func copiesCompactedAndRefusesToOverwrite() throws {
        let environment = try Environment.open(path: directory.path("source.mdb"))
        let txn = try environment.beginTransaction()
        let db = try txn.openDatabase(named: "items", create: true)
        for index in 0..<1000 { try txn.put(Array("key\(index)".utf8), [UInt8](repeating: 1, count: 100), in: db) }
        try txn.commit()
        let target = directory.path("copy.mdb")
        try environment.copy(to: target, compact: true)
        #expect(throws: LMDBError.fileExists) { try environment.copy(to: target, compact: true) }
        let copy = try Environment.open(path: target)
        let reader = try copy.beginReadTransaction()
        #expect(try reader.count(in: reader.openDatabase(named: "items")) == 1000)
    }
}
