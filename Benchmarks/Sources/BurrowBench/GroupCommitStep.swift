import Baselines
import Burrow
import Foundation

/// Durable one-object writes from many writers at once: 8 tasks, each an actor with a realm of
/// its own, each making 250 `asyncWrite`s (which group commit gathers into shared durable
/// commits), beside 8 threads doing the same on SQLite (a connection each, WAL,
/// `synchronous=FULL`) and 8 threads making Burrow's synchronous `write`s (each durable on its
/// own). Every run starts from a fresh file; each engine's best of the trials is kept.
enum GroupCommitStep {
    static let writers = 8
    static let writesPerWriter = 250
    static var total: Int { writers * writesPerWriter }

    struct Measurement {
        /// Commits per second of each engine's best trial.
        let groupedTasks: Double
        let synchronousThreads: Double
        let sqlite: Double
        /// Whether every engine stored every object.
        let allStored: Bool
    }

    static func measure(trials: Int, in directory: URL) throws -> Measurement {
        var grouped = 0.0, threads = 0.0, sqlite = 0.0
        var allStored = true
        for trial in 0..<trials {
            let configuration = Realm.Configuration(fileURL: directory.appendingPathComponent("group-\(trial).realm"), objectTypes: [Item.self])
            try Realm.deleteFiles(for: configuration)
            let groupedRun = try taskWrites(configuration)
            grouped = max(grouped, Double(total) / groupedRun.seconds)
            allStored = allStored && groupedRun.stored == total
            try Realm.deleteFiles(for: configuration)
            let threadRun = try threadWrites(configuration)
            threads = max(threads, Double(total) / threadRun.seconds)
            allStored = allStored && threadRun.stored == total
            try Realm.deleteFiles(for: configuration)
            let path = directory.appendingPathComponent("group-\(trial).sqlite").path
            let sqliteRun = sqlite_concurrent_durable_commits(path, Int32(writers), Int32(writesPerWriter))
            sqlite = max(sqlite, Double(total) / sqliteRun.seconds)
            allStored = allStored && sqliteRun.check == Int64(total)
        }
        return Measurement(groupedTasks: grouped, synchronousThreads: threads, sqlite: sqlite, allStored: allStored)
    }

    /// An actor with a realm of its own that writes its share of the objects.
    private actor Writer {
        private let configuration: Realm.Configuration
        private var realm: Realm?

        init(_ configuration: Realm.Configuration) {
            self.configuration = configuration
        }

        func open() async throws {
            realm = try await Realm.open(configuration: configuration)
        }

        func write(from first: Int, count: Int) async throws {
            guard let realm else { return }
            for id in first..<(first + count) {
                try await realm.asyncWrite { realm.add(Item(workloadID: id)) }
            }
            realm.invalidate()
        }
    }

    private static func taskWrites(_ configuration: Realm.Configuration) throws -> (seconds: Double, stored: Int) {
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var outcome: Result<Double, any Error> = .success(0)
        Task {
            do {
                outcome = .success(try await timeTaskWrites(configuration))
            } catch {
                outcome = .failure(error)
            }
            done.signal()
        }
        done.wait()
        let seconds = try outcome.get()
        return (seconds, try Realm(configuration: configuration).objects(Item.self).count)
    }

    /// The seconds the writers took; they and their realms are gone when it returns.
    private static func timeTaskWrites(_ configuration: Realm.Configuration) async throws -> Double {
        let writers = (0..<writers).map { _ in Writer(configuration) }
        for writer in writers { try await writer.open() }
        let start = ContinuousClock.now
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (index, writer) in writers.enumerated() {
                group.addTask { try await writer.write(from: index * writesPerWriter + 1, count: writesPerWriter) }
            }
            try await group.waitForAll()
        }
        return Stopwatch.seconds(start.duration(to: .now))
    }

    private static func threadWrites(_ configuration: Realm.Configuration) throws -> (seconds: Double, stored: Int) {
        let ready = DispatchSemaphore(value: 0)
        let start = DispatchSemaphore(value: 0)
        let finished = DispatchGroup()
        for index in 0..<writers {
            finished.enter()
            Thread {
                do {
                    let realm = try! Realm(configuration: configuration)
                    ready.signal()
                    start.wait()
                    for id in (index * writesPerWriter + 1)...((index + 1) * writesPerWriter) {
                        try! realm.write { realm.add(Item(workloadID: id)) }
                    }
                }
                finished.leave()  // once the realm is released
            }.start()
        }
        for _ in 0..<writers { ready.wait() }
        let elapsed = Stopwatch.measure {
            for _ in 0..<writers { start.signal() }
            finished.wait()
        }
        return (elapsed.seconds, try Realm(configuration: configuration).objects(Item.self).count)
    }

    static func summary(_ measurement: Measurement) -> String {
        String(format: "Group commit (%d writers × %d durable one-object writes): Burrow asyncWrite from tasks %.0f commits/s, "
               + "Burrow write from threads %.0f commits/s, SQLite (WAL, synchronous=FULL) from threads %.0f commits/s: "
               + "tasks %.2fx of SQLite%@",
               writers, writesPerWriter, measurement.groupedTasks, measurement.synchronousThreads, measurement.sqlite,
               measurement.groupedTasks / measurement.sqlite, measurement.allStored ? "" : " — NOT EVERY OBJECT WAS STORED")
    }
}
