import Foundation
import LMDB
import Testing

/// Page counts as LMDB's own `mdb_stat` reports them: each database's, and the free list's.
@Suite struct StatisticsTests {
    let directory = TemporaryDirectory()

    /// What `mdb_stat -n -f -s d` prints for `path`, by line label ("Free pages", …), in order.
    private func mdbStat(_ path: String) throws -> [(String, Int)] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/mdb_stat")
        process.arguments = ["-n", "-f", "-s", "d", path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return text.split(separator: "\n").compactMap { line in
            let parts = line.split(separator: ":")
            guard parts.count == 2, let value = Int(parts[1].trimmingCharacters(in: .whitespaces)) else { return nil }
            return (parts[0].trimmingCharacters(in: .whitespaces), value)
        }
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/mdb_stat"), "mdb_stat (Debian's lmdb-utils) is not installed"))
    func freePagesAndDatabasePagesMatchMDBStat() throws {
        let path = directory.path("stats.mdb")
        var options = Environment.Options()
        options.maxDatabases = 8
        do {
            let environment = try Environment.open(path: path, options: options)
            let write = try environment.beginTransaction()
            let database = try write.openDatabase(named: "d", create: true)
            for key in 0..<5000 { try write.put(Array("key \(key)".utf8), [UInt8](repeating: UInt8(key % 251), count: key % 3 == 0 ? 5000 : 40), in: database) }
            try write.commit()
            // Deleting most of it frees pages.
            let delete = try environment.beginTransaction()
            for key in 0..<4500 { _ = try delete.delete(Array("key \(key)".utf8), in: database) }
            try delete.commit()
            let read = try environment.beginReadTransaction()
            let statistics = try read.statistics(of: try read.openDatabase(named: "d"))
            let free = try read.freePageCount()
            read.abort()
            #expect(free > 100 && statistics.entries == 500 && statistics.overflowPages > 0)
            let reported = try mdbStat(path)
            // The free list comes first, then the database asked for.
            let freePages = reported.first { $0.0 == "Free pages" }?.1
            #expect(freePages == free, "\(reported)")
            let named = Array(reported.drop { $0.0 != "Free pages" }.dropFirst())
            #expect(named.first { $0.0 == "Entries" }?.1 == statistics.entries, "\(reported)")
            #expect(named.first { $0.0 == "Leaf pages" }?.1 == statistics.leafPages)
            #expect(named.first { $0.0 == "Branch pages" }?.1 == statistics.branchPages)
            #expect(named.first { $0.0 == "Overflow pages" }?.1 == statistics.overflowPages)
        }
    }
}
