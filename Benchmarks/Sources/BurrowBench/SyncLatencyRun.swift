import Burrow
import Foundation

/// Four client processes, each committing 100 small writes a second to a synced file of its
/// own, each observing the others' objects: the time from a commit in one process to the
/// notification it fires in another. Every process reads the same monotonic clock, so a
/// write carries its own commit time.
enum SyncLatencyRun {
    final class Ping: Object {
        @Persisted(primaryKey: true) var client = 0
        @Persisted var sequence = 0
        @Persisted var sentAt = 0.0
    }

    static let clients = 4
    static let seconds = 10
    static let commitsPerSecond = 100
    /// The flag that runs a client instead of the benchmark.
    static let clientFlag = "--sync-latency-client"

    struct Measurement {
        /// Seconds from a commit to a notification in another process, sorted.
        let latencies: [Double]
        /// Commits made by all clients; each is seen by the other three.
        let commits: Int
    }

    static func configuration(_ path: String, server: String) -> Realm.Configuration {
        var configuration = Realm.Configuration(fileURL: URL(fileURLWithPath: path), objectTypes: [Ping.self])
        configuration.syncConfiguration = SyncConfiguration(server: server, initialSubscriptions: { $0.append(QuerySubscription<Ping>()) })
        return configuration
    }

    /// Runs the clients as child processes of this program and gathers what they measured.
    static func measure(server: String, in directory: URL) throws -> Measurement {
        let start = NotificationStep.now() + 6
        let processes = try (0..<clients).map { client -> (Process, URL) in
            let output = directory.appendingPathComponent("latency-client\(client).txt")
            let process = Process()
            process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
            process.arguments = [clientFlag, server, directory.appendingPathComponent("latency-client\(client).realm").path,
                                 String(client), String(start), output.path]
            try process.run()
            return (process, output)
        }
        var latencies: [Double] = []
        for (process, output) in processes {
            process.waitUntilExit()
            guard process.terminationStatus == 0 else { throw BenchmarkError("a sync latency client failed (status \(process.terminationStatus))") }
            let text = try String(contentsOf: output, encoding: .utf8)
            latencies += text.split(separator: "\n").compactMap { Double($0) }
        }
        return Measurement(latencies: latencies.sorted(), commits: clients * seconds * commitsPerSecond)
    }

    /// A client: `SERVER FILE INDEX START OUTPUT`. Syncs its file, then from the monotonic
    /// time START commits at the set rate, recording in OUTPUT the latency of each
    /// notification of another client's commit.
    static func runClient(_ arguments: [String]) throws {
        guard arguments.count == 5, let me = Int(arguments[2]), let start = Double(arguments[3]) else {
            throw BenchmarkError("usage: BurrowBench \(clientFlag) SERVER FILE INDEX START OUTPUT")
        }
        let realm = try Realm(configuration: configuration(arguments[1], server: arguments[0]))
        try realm.write { realm.create(Ping.self, value: ["client": me], update: .modified) }
        try SyncStep.wait(realm.syncSession!, for: .upload)
        try SyncStep.wait(realm.syncSession!, for: .download)
        let samples = Locked([Double]())
        var lastSeen: [Int: Int] = [:]
        let token = realm.objects(Ping.self).observe(on: DispatchQueue(label: "latency observer")) { change in
            guard case .update(let pings, _, let insertions, let modifications) = change else { return }
            let now = NotificationStep.now()
            for index in insertions + modifications {
                let ping = pings[index]
                // A commit coalesced with a later one into one download fires no notification
                // of its own; only the latest is timed.
                guard ping.client != me, ping.sequence > lastSeen[ping.client, default: 0] else { continue }
                lastSeen[ping.client] = ping.sequence
                samples.update { $0.append(now - ping.sentAt) }
            }
        }
        defer { token.invalidate() }
        let mine = realm.object(ofType: Ping.self, forPrimaryKey: me)!
        let interval = 1 / Double(commitsPerSecond)
        for sequence in 1...(seconds * commitsPerSecond) {
            let due = start + Double(sequence) * interval
            let wait = due - NotificationStep.now()
            if wait > 0 { usleep(useconds_t(wait * 1_000_000)) }
            try realm.write {
                mine.sequence = sequence
                mine.sentAt = NotificationStep.now()
            }
        }
        // The others' last commits.
        Thread.sleep(forTimeInterval: 2)
        try samples.get().map { String($0) }.joined(separator: "\n").write(toFile: arguments[4], atomically: true, encoding: .utf8)
    }

    static func summary(_ m: Measurement) -> String {
        let notified = m.latencies.count, possible = m.commits * (clients - 1)
        return """
              \(clients) processes at \(commitsPerSecond) commits/s each for \(seconds) s, commit to notification in another process: \
            \(notified) of \(possible) notified (the rest coalesced): \(SyncStep.percentiles(m.latencies))
            """
    }
}
