import Burrow
import Foundation

/// The sync benchmark: the first download and the upload of `count` objects through a
/// PostgreSQL server, each beside its floors measured in the same run (PostgreSQL's own `COPY`
/// of the same rows through `psql`, and Burrow's local insert or read of the same objects).
enum SyncStep {
    final class SyncItem: Object {
        @Persisted(primaryKey: true) var id = 0
        @Persisted var name = ""
        @Persisted var value = 0.0
        @Persisted var flag = false
    }

    struct Measurement {
        let count: Int
        let localInsert: Double
        let localRead: Double
        let upload: Double
        let copyFrom: Double
        let download: Double
        let copyTo: Double
        let serverRows: Int
        let downloadedObjects: Int
        /// Seconds from a commit on one file to the notification on another, sorted.
        let latencies: [Double]
    }

    static func configuration(_ url: URL, server: String?) -> Realm.Configuration {
        var configuration = Realm.Configuration(fileURL: url, objectTypes: [SyncItem.self])
        if let server {
            configuration.syncConfiguration = SyncConfiguration(server: server,
                                                                initialSubscriptions: { $0.append(QuerySubscription<SyncItem>()) })
        }
        return configuration
    }

    static func insert(_ count: Int, into realm: Realm) throws {
        try realm.write {
            for index in 0..<count {
                realm.create(SyncItem.self, value: ["id": index, "name": "item \(index)", "value": Double(index) * 0.5, "flag": index % 2 == 0])
            }
        }
    }

    /// Blocks until `session` finished `direction`.
    static func wait(_ session: SyncSession, for direction: SyncSession.ProgressDirection) throws {
        let done = DispatchSemaphore(value: 0)
        let failure = FailureBox()
        Task.detached {
            do { try await session.wait(for: direction) } catch { failure.error = error }
            done.signal()
        }
        done.wait()
        if let error = failure.error { throw error }
    }

    final class FailureBox: @unchecked Sendable { var error: Error? }

    static func measure(count: Int, server: String, in directory: URL) throws -> Measurement {
        // Floor: Burrow's own insert and read of the objects.
        let local = try Realm(configuration: configuration(directory.appendingPathComponent("local.realm"), server: nil))
        let localInsert = try Stopwatch.measure { try insert(count, into: local) }.seconds
        let localRead = Stopwatch.measure {
            var checksum = 0.0
            for item in local.objects(SyncItem.self) { checksum += item.value + Double(item.id + item.name.utf8.count) + (item.flag ? 1 : 0) }
            return checksum
        }.seconds

        // Upload: the objects are written while the session is paused, then timed to the server.
        let uploading = try Realm(configuration: configuration(directory.appendingPathComponent("upload.realm"), server: server))
        let session = uploading.syncSession!
        session.pause()
        try insert(count, into: uploading)
        let upload = try Stopwatch.measure {
            session.resume()
            try wait(session, for: .upload)
        }.seconds
        // Paused once timed: its download of what it uploaded would run beside the next steps.
        session.pause()

        // Floor: PostgreSQL's COPY of the same rows into a table of the same shape.
        let csv = directory.appendingPathComponent("rows.csv")
        var text = ""
        text.reserveCapacity(count * 32)
        for index in 0..<count { text += "\(index),item \(index),\(Double(index) * 0.5),\(index % 2 == 0)\n" }
        try text.write(to: csv, atomically: true, encoding: .utf8)
        try psql(server, "CREATE TABLE copy_target (LIKE public.\"SyncItem\")")
        let copyFrom = try Stopwatch.measure { try psql(server, "\\copy copy_target (id, name, value, flag) FROM '\(csv.path)' CSV") }.seconds
        let copyTo = try Stopwatch.measure { try psql(server, "\\copy (SELECT * FROM public.\"SyncItem\") TO '/dev/null' CSV") }.seconds
        let serverRows = Int(try psql(server, "SELECT count(*) FROM public.\"SyncItem\"", tuplesOnly: true).trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1

        // First download into a new file.
        var downloaded = 0
        let download = try Stopwatch.measure {
            let fresh = try Realm(configuration: configuration(directory.appendingPathComponent("download.realm"), server: server))
            try wait(fresh.syncSession!, for: .download)
            fresh.refresh()
            downloaded = fresh.objects(SyncItem.self).count
            fresh.syncSession!.pause()
        }.seconds
        return Measurement(count: count, localInsert: localInsert, localRead: localRead, upload: upload, copyFrom: copyFrom,
                           download: download, copyTo: copyTo, serverRows: serverRows, downloadedObjects: downloaded,
                           latencies: try latencies(server: server, in: directory))
    }

    static let latencySamples = 200

    /// Commits on one synced file at 100 a second, each timed to the object notification it
    /// fires on another synced file of this process (observed on a queue).
    static func latencies(server: String, in directory: URL) throws -> [Double] {
        let writer = try Realm(configuration: configuration(directory.appendingPathComponent("latency-writer.realm"), server: server))
        let reader = try Realm(configuration: configuration(directory.appendingPathComponent("latency-reader.realm"), server: server))
        try writer.write { writer.create(SyncItem.self, value: ["id": -1, "name": "probe"]) }
        try wait(writer.syncSession!, for: .upload)
        try wait(reader.syncSession!, for: .download)
        reader.refresh()
        guard let probe = reader.object(ofType: SyncItem.self, forPrimaryKey: -1) else { throw BenchmarkError("the probe did not arrive") }
        let arrivals = Locked([Int: Double]())
        let token = probe.observe(on: DispatchQueue(label: "sync observer")) { (change: ObjectChange<SyncItem>) in
            if case .change(let item, _) = change { arrivals.update { $0[Int(item.value)] = NotificationStep.now() } }
        }
        defer { token.invalidate() }
        let item = writer.object(ofType: SyncItem.self, forPrimaryKey: -1)!
        var sent: [Int: Double] = [:]
        for sample in 1...latencySamples {
            try writer.write { item.value = Double(sample) }
            sent[sample] = NotificationStep.now()
            usleep(10_000)
        }
        Thread.sleep(forTimeInterval: 1)
        writer.syncSession!.pause()
        reader.syncSession!.pause()
        let arrived = arrivals.get()
        return sent.compactMap { sample, time in arrived[sample].map { max(0, $0 - time) } }.sorted()
    }

    @discardableResult
    static func psql(_ server: String, _ command: String, tuplesOnly: Bool = false) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/psql")
        process.arguments = [server, "-v", "ON_ERROR_STOP=1", "-q"] + (tuplesOnly ? ["-t", "-A"] : []) + ["-c", command]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw BenchmarkError("psql failed: \(command)") }
        return String(decoding: data, as: UTF8.self)
    }

    static func summary(_ m: Measurement) -> String {
        func s(_ seconds: Double) -> String { String(format: "%8.3f s", seconds) }
        let downloadFloor = m.copyTo + m.localInsert, uploadFloor = m.copyFrom + m.localRead
        return """
            sync, \(m.count) objects (server rows \(m.serverRows), downloaded \(m.downloadedObjects))
              first download    \(s(m.download))   floor \(s(downloadFloor)) (COPY TO \(s(m.copyTo)) + Burrow insert \(s(m.localInsert)))   \(String(format: "%.1fx", m.download / downloadFloor)) (bar 1.5x)
              upload            \(s(m.upload))   floor \(s(uploadFloor)) (COPY FROM \(s(m.copyFrom)) + Burrow read \(s(m.localRead)))   \(String(format: "%.1fx", m.upload / uploadFloor)) (bar 1.5x)
              commit to notification on another file, \(m.latencies.count) of \(latencySamples) commits at 100/s: \(percentiles(m.latencies))
            """
    }

    static func percentiles(_ sorted: [Double]) -> String {
        guard !sorted.isEmpty else { return "none arrived" }
        func at(_ fraction: Double) -> String {
            String(format: "%.1f ms", sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))] * 1000)
        }
        return "p50 \(at(0.5)), p99 \(at(0.99)) (goal: p99 under 100 ms)"
    }
}
