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

    static func configuration(_ path: String, server: String, readServer: String? = nil) -> Realm.Configuration {
        var configuration = Realm.Configuration(fileURL: URL(fileURLWithPath: path), objectTypes: [Ping.self])
        configuration.syncConfiguration = SyncConfiguration(server: server, readServer: readServer,
                                                            initialSubscriptions: { $0.append(QuerySubscription<Ping>()) })
        return configuration
    }

    /// What the clients of one run measured.
    struct Run {
        /// Seconds from a commit to a notification in another process, sorted.
        let latencies: [Double]
        /// Seconds from the start until the last client's commits were all uploaded.
        let uploadedAfter: Double
    }

    /// Runs the clients as child processes of this program and gathers what they measured.
    static func measure(server: String, in directory: URL) throws -> Measurement {
        let run = try run(server: server, readServer: nil, writers: clients, observers: 0, rate: commitsPerSecond, seconds: seconds,
                          in: directory)
        return Measurement(latencies: run.latencies, commits: clients * seconds * commitsPerSecond)
    }

    /// Runs `writers` clients committing `rate` times a second for `seconds`, and `observers`
    /// that only watch, each a child process with a file of its own, downloading from
    /// `readServer` when given; gathers what they measured.
    static func run(server: String, readServer: String?, writers: Int, observers: Int, rate: Int, seconds: Int,
                    in directory: URL) throws -> Run {
        let start = NotificationStep.now() + 4 + Double(writers + observers) / 4
        let processes = try (0..<(writers + observers)).map { client -> (Process, URL) in
            let output = directory.appendingPathComponent("latency-client\(client)-\(writers).txt")
            let process = Process()
            process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
            process.arguments = [clientFlag, server, readServer ?? "-",
                                 directory.appendingPathComponent("latency-client\(client)-\(writers).realm").path,
                                 String(client), String(start), output.path, String(client < writers ? rate : 0), String(seconds)]
            try process.run()
            return (process, output)
        }
        var latencies: [Double] = []
        var uploadedAt = start
        for (process, output) in processes {
            process.waitUntilExit()
            guard process.terminationStatus == 0 else { throw BenchmarkError("a sync latency client failed (status \(process.terminationStatus))") }
            let lines = try String(contentsOf: output, encoding: .utf8).split(separator: "\n")
            if let last = lines.last, last.hasPrefix("uploaded "), let time = Double(last.dropFirst("uploaded ".count)) {
                uploadedAt = max(uploadedAt, time)
            }
            latencies += lines.compactMap { Double($0) }
        }
        return Run(latencies: latencies.sorted(), uploadedAfter: uploadedAt - start)
    }

    /// A client: `SERVER READSERVER FILE INDEX START OUTPUT [RATE SECONDS]` (`-` for no read
    /// server). Syncs its file, then from the monotonic time START commits RATE times a second
    /// for SECONDS, recording in OUTPUT the latency of each notification of another client's
    /// commit, and last when its own commits were all uploaded.
    static func runClient(_ arguments: [String]) throws {
        guard arguments.count == 6 || arguments.count == 8, let me = Int(arguments[3]), let start = Double(arguments[4]) else {
            throw BenchmarkError("usage: BurrowBench \(clientFlag) SERVER READSERVER FILE INDEX START OUTPUT [RATE SECONDS]")
        }
        let rate = arguments.count == 8 ? Int(arguments[6]) ?? commitsPerSecond : commitsPerSecond
        let seconds = arguments.count == 8 ? Int(arguments[7]) ?? Self.seconds : Self.seconds
        let realm = try Realm(configuration: configuration(arguments[2], server: arguments[0],
                                                           readServer: arguments[1] == "-" ? nil : arguments[1]))
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
        if rate > 0 {
            let interval = 1 / Double(rate)
            for sequence in 1...(seconds * rate) {
                let due = start + Double(sequence) * interval
                let wait = due - NotificationStep.now()
                if wait > 0 { usleep(useconds_t(wait * 1_000_000)) }
                try realm.write {
                    mine.sequence = sequence
                    mine.sentAt = NotificationStep.now()
                }
            }
        } else {
            let wait = start + Double(seconds) - NotificationStep.now()
            if wait > 0 { usleep(useconds_t(wait * 1_000_000)) }
        }
        try SyncStep.wait(realm.syncSession!, for: .upload)
        let uploaded = NotificationStep.now()
        // The others' last commits.
        Thread.sleep(forTimeInterval: 2)
        let lines = try samples.get().map { String($0) } + ["uploaded \(uploaded)"]
        try lines.joined(separator: "\n").write(toFile: arguments[5], atomically: true, encoding: .utf8)
    }

    static func summary(_ m: Measurement) -> String {
        let notified = m.latencies.count, possible = m.commits * (clients - 1)
        return """
              \(clients) processes at \(commitsPerSecond) commits/s each for \(seconds) s, commit to notification in another process: \
            \(notified) of \(possible) notified (the rest coalesced): \(SyncStep.percentiles(m.latencies))
            """
    }
}
