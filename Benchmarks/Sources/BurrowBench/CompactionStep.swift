import Burrow
import Foundation

/// Times `burrow compact`'s library call on a file of N items of which half were deleted,
/// beside `mdb_copy -c` (LMDB's own tool, the same compacting copy) on a copy of that file,
/// and checks every object left against the workload. Burrow's time includes opening the
/// file and making the copy durable (`fsync` of the copy and of its folder) before the
/// rename; `mdb_copy` does not sync.
enum CompactionStep {
    struct Measurement {
        let bytesBefore: Int
        let burrowSeconds: Double
        let burrowBytesAfter: Int
        /// `nil` when `mdb_copy` is not installed.
        let mdbCopy: (seconds: Double, bytesAfter: Int)?
    }

    static func measure(count: Int, in directory: URL) throws -> Measurement {
        let file = directory.appendingPathComponent("compact.realm")
        let configuration = Realm.Configuration(fileURL: file)
        try Realm.deleteFiles(for: configuration)
        defer { _ = try? Realm.deleteFiles(for: configuration) }
        do {
            let realm = try Realm(configuration: configuration)
            try realm.write { for id in 0..<count { realm.add(Item(workloadID: id)) } }
            try realm.write { realm.delete(realm.objects(Item.self).filter("id >= %@", Int64(count / 2))) }
        }
        let twin = directory.appendingPathComponent("compact-twin.realm")
        let mdbOutput = directory.appendingPathComponent("compact-mdb.realm")
        for leftover in [twin, mdbOutput] { try? FileManager.default.removeItem(at: leftover) }
        defer { for made in [twin, mdbOutput] { try? FileManager.default.removeItem(at: made) } }
        try FileManager.default.copyItem(at: file, to: twin)

        let burrow = try Stopwatch.measure { try FileCompaction.compact(file) }
        // Every object left is compared with the workload's values for its id.
        let kept = try Realm(configuration: configuration).objects(Item.self).sorted(byKeyPath: "id")
        var matching = 0
        for (position, item) in kept.enumerated() {
            let expected = Item(workloadID: position)
            if item.id == expected.id && item.name == expected.name && item.age == expected.age && item.score == expected.score
                && item.flag == expected.flag && item.blob == expected.blob { matching += 1 }
        }
        guard kept.count == count / 2, matching == kept.count else { throw CompactionMismatch(expected: count / 2, found: matching) }
        return Measurement(bytesBefore: burrow.value.bytesBefore, burrowSeconds: burrow.seconds,
                           burrowBytesAfter: burrow.value.bytesAfter, mdbCopy: try mdbCopy(twin, into: mdbOutput))
    }

    /// `mdb_copy -c -n SRC DST`, timed; `nil` when the tool is missing.
    private static func mdbCopy(_ source: URL, into destination: URL) throws -> (seconds: Double, bytesAfter: Int)? {
        let candidates = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":").map { "\($0)/mdb_copy" }
        guard let tool = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else { return nil }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = ["-c", "-n", source.path, destination.path]
        let run = try Stopwatch.measure {
            try process.run()
            process.waitUntilExit()
        }
        guard process.terminationStatus == 0 else { return nil }
        let size = try FileManager.default.attributesOfItem(atPath: destination.path)[.size] as? Int ?? 0
        return (run.seconds, size)
    }

    struct CompactionMismatch: Error, CustomStringConvertible {
        let expected: Int
        let found: Int
        var description: String { "the compacted file holds \(found) matching items, not \(expected)" }
    }

    static func summary(_ measurement: Measurement, count: Int) -> String {
        let megabytes = { (bytes: Int) in String(format: "%.1f MB", Double(bytes) / 1e6) }
        var text = String(format: "Compaction of %d items with half deleted (%@): burrow compact %.2f s → %@",
                          count, megabytes(measurement.bytesBefore), measurement.burrowSeconds, megabytes(measurement.burrowBytesAfter))
        if let mdb = measurement.mdbCopy {
            text += String(format: "; mdb_copy -c %.2f s → %@", mdb.seconds, megabytes(mdb.bytesAfter))
        } else {
            text += "; mdb_copy not installed (Debian lmdb-utils)"
        }
        return text
    }
}
