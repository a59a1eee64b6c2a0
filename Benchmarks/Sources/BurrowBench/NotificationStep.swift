import Burrow
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// What notifications cost and how fast they arrive:
///
/// - the insert and update-all steps (N objects, one write each, best of eight) without any
///   observer and with one observer of sorted, filtered results of the class, delivered on a
///   queue (the change log is written either way);
/// - commit-to-notification latency of an object observer on a queue, for commits of another
///   thread and of another process (this program, started again as a writer): from the moment
///   `commitWrite` returns in the writer to the moment the block starts, median and p99 over
///   ``samples`` commits, one at a time;
/// - the same latency for the observer of sorted, filtered results over N objects after a
///   commit that changes one of them.
enum NotificationStep {
    static let samples = 200

    struct Measurement {
        var insertWithout = 0.0, insertWith = 0.0, updateWithout = 0.0, updateWith = 0.0
        var threadLatencies: [Double] = []
        var processLatencies: [Double] = []
        var largeResultsLatency = 0.0
    }

    static func measure(count: Int, in directory: URL) throws -> Measurement {
        var measurement = Measurement(insertWithout: .infinity, insertWith: .infinity, updateWithout: .infinity, updateWith: .infinity)
        // Best of eight, each on fresh files: a single write of this size varies by tens of
        // percent from run to run on this machine.
        // The two kinds alternate which goes first, so neither always meets a warmer machine.
        for round in 1...8 {
            for observing in round % 2 == 0 ? [false, true] : [true, false] {
                let configuration = try freshConfiguration("notify-\(observing ? "observed" : "bare")-\(round).realm", in: directory)
                if observing {
                    let observed = try observedRun(count, in: Realm(configuration: configuration))
                    measurement.insertWith = min(measurement.insertWith, observed.insert)
                    measurement.updateWith = min(measurement.updateWith, observed.update)
                    measurement.largeResultsLatency = observed.largeResultsLatency
                } else {
                    let (insert, update) = try insertAndUpdate(count, in: Realm(configuration: configuration))
                    measurement.insertWithout = min(measurement.insertWithout, insert)
                    measurement.updateWithout = min(measurement.updateWithout, update)
                }
                // Every round starts on the same disk: the file of the last one goes.
                try deleteOnceClosed(configuration)
            }
        }
        measurement.threadLatencies = try threadLatencies(in: directory)
        measurement.processLatencies = try processLatencies(in: directory)
        return measurement
    }

    /// The insert and update-all with an observer of sorted, filtered results on a queue, then
    /// the latency of that observer after a commit changing one object of the results.
    private static func observedRun(_ count: Int, in realm: Realm) throws -> (insert: Double, update: Double, largeResultsLatency: Double) {
        let observer = try ResultsObserver(of: realm)
        defer { observer.invalidate() }
        let (insert, update) = try insertAndUpdate(count, in: realm, settle: observer.settle)
        // One object of the results changes; they hold most of the N objects.
        let changed = realm.objects(Item.self).filter("age > 10").first!
        try realm.write { changed.score += 1 }
        let committed = now()
        try wait(observer.delivered)
        return (insert, update, max(0, observer.lastDelivery.get() - committed))
    }

    /// An observer of sorted, filtered items on a queue, as the benchmark's observed writes
    /// have: each notification records when it arrived and signals `delivered`.
    final class ResultsObserver {
        let delivered = DispatchSemaphore(value: 0)
        let lastDelivery = Locked(0.0)
        private let queue = DispatchQueue(label: "observer")
        private var token: NotificationToken?

        /// Starts observing and waits for the initial notification.
        init(of realm: Realm) throws {
            token = realm.objects(Item.self).filter("age > 10").sorted(byKeyPath: "name").observe(on: queue) { [delivered, lastDelivery] _ in
                lastDelivery.set(NotificationStep.now())
                delivered.signal()
            }
            try wait(delivered)
        }

        /// Waits for the notification of the last write, and for the queue to finish with it:
        /// each timed write starts once the observer is idle, so that it is timed alone, as the
        /// writes without an observer are.
        func settle() throws {
            try wait(delivered)
            queue.sync {}
        }

        func invalidate() {
            token?.invalidate()
            queue.sync {}
        }
    }

    /// How a write is measured: it runs `write` (the step named `step`) and returns its cost.
    typealias Measure = (_ step: String, _ write: () throws -> Void) throws -> Double

    /// The monotonic clock's seconds.
    static func clock(_ step: String, _ write: () throws -> Void) throws -> Double { try Stopwatch.measure(write).seconds }

    /// Measures one write inserting `count` items and one updating all of them; with `settle`,
    /// waits for the observer to take each write in before going on.
    static func insertAndUpdate(_ count: Int, in realm: Realm, measure: Measure = clock,
                                settle: (() throws -> Void)? = nil) throws -> (Double, Double) {
        let insert = try measure("insert") { try realm.write { for id in 1...count { realm.add(Item(workloadID: id)) } } }
        try settle?()
        let update = try measure("update-all") { try realm.write { for item in realm.objects(Item.self) { item.age += 1 } } }
        try settle?()
        return (insert, update)
    }

    /// Waits for a notification, at most a minute.
    static func wait(_ delivered: DispatchSemaphore) throws {
        guard delivered.wait(timeout: .now() + 60) == .success else { throw BenchmarkError("A notification did not arrive within a minute.") }
    }

    /// A new file holding item 1, observed on a queue: each notification records when it arrived,
    /// by the item's age (the sample number), and signals `delivered`.
    private static func observedItem(_ name: String, in directory: URL, delivered: DispatchSemaphore?) throws
        -> (realm: Realm, item: Item, arrivals: Locked<[Int: Double]>, token: NotificationToken) {
        let realm = try freshRealm(name, in: directory).realm
        let item = Item(workloadID: 1)
        try realm.write { realm.add(item) }
        let arrivals = Locked([Int: Double]())
        let token = item.observe(on: DispatchQueue(label: "object observer")) { (change: ObjectChange<Item>) in
            if case .change(let item, _) = change { arrivals.update { $0[Int(item.age)] = now() } }
            delivered?.signal()
        }
        return (realm, item, arrivals, token)
    }

    /// Latencies of an object observer on a queue for commits of this thread's realm.
    private static func threadLatencies(in directory: URL) throws -> [Double] {
        let delivered = DispatchSemaphore(value: 0)
        let (realm, item, arrivals, token) = try observedItem("notify-thread.realm", in: directory, delivered: delivered)
        var sent: [Int: Double] = [:]
        for sample in 1...samples {
            try realm.write { item.age = Int32(sample) }
            sent[sample] = now()
            _ = delivered.wait(timeout: .now() + 1)
        }
        token.invalidate()
        return latencies(sent: sent, arrivals: arrivals.get())
    }

    /// Latencies of an object observer on a queue for commits of another process.
    private static func processLatencies(in directory: URL) throws -> [Double] {
        let (realm, _, arrivals, token) = try observedItem("notify-process.realm", in: directory, delivered: nil)
        // Lets the observation start before the writer does.
        Thread.sleep(forTimeInterval: 0.2)
        let writer = Process()
        writer.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL
        writer.arguments = [writerFlag, realm.configuration.fileURL!.path, String(samples)]
        let output = Pipe()
        writer.standardOutput = output
        try writer.run()
        let lines = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        writer.waitUntilExit()
        guard writer.terminationStatus == 0 else { throw BenchmarkError("The notification writer process failed.") }
        Thread.sleep(forTimeInterval: 0.2)
        token.invalidate()
        var sent: [Int: Double] = [:]
        for line in lines.split(separator: "\n") {
            let fields = line.split(separator: " ")
            if fields.count == 2, let sample = Int(fields[0]), let time = Double(fields[1]) { sent[sample] = time }
        }
        return latencies(sent: sent, arrivals: arrivals.get())
    }

    /// The flag that starts this program as the writer of ``processLatencies(in:)``.
    static let writerFlag = "--notification-writer"

    /// The writer process: `commits` commits of item 1's age, each followed by a line "sample
    /// time" and a pause, so that each is observed alone.
    static func runWriter(path: String, commits: Int) throws {
        let realm = try Realm(configuration: Realm.Configuration(fileURL: URL(fileURLWithPath: path)))
        let item = realm.object(ofType: Item.self, forPrimaryKey: Int64(1))!
        for sample in 1...commits {
            try realm.write { item.age = Int32(sample) }
            print("\(sample) \(now())")
            usleep(5_000)
        }
    }

    private static func latencies(sent: [Int: Double], arrivals: [Int: Double]) -> [Double] {
        sent.compactMap { sample, time in arrivals[sample].map { max(0, $0 - time) } }.sorted()
    }

    static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// A realm on a new file in `directory` (the run's folder, removed at the end).
    private static func freshRealm(_ name: String, in directory: URL) throws -> (realm: Realm, path: String) {
        let configuration = try freshConfiguration(name, in: directory)
        return (try Realm(configuration: configuration), configuration.fileURL!.path)
    }

    /// Deletes the files of `configuration` once no realm has them open: the observer's queue
    /// lets go of its realm shortly after its last notification.
    private static func deleteOnceClosed(_ configuration: Realm.Configuration) throws {
        for _ in 1..<500 {
            do {
                try Realm.deleteFiles(for: configuration)
                return
            } catch let error as Realm.Error where error.code == .fileOperationFailed {
                usleep(10_000)
            }
        }
        try Realm.deleteFiles(for: configuration)
    }

    /// The configuration of a new file in `directory`.
    static func freshConfiguration(_ name: String, in directory: URL) throws -> Realm.Configuration {
        let configuration = Realm.Configuration(fileURL: directory.appendingPathComponent(name))
        try Realm.deleteFiles(for: configuration)
        return configuration
    }

    static func summary(_ measurement: Measurement, count: Int) -> String {
        func percentile(_ values: [Double], _ fraction: Double) -> Double {
            values.isEmpty ? .nan : values[min(values.count - 1, Int(Double(values.count) * fraction))]
        }
        let m = measurement
        return [
            String(format: "Notifications: insert %.3f s without an observer, %.3f s with one (%+.0f%%); update-all %.3f s, %.3f s (%+.0f%%)",
                   m.insertWithout, m.insertWith, (m.insertWith / m.insertWithout - 1) * 100,
                   m.updateWithout, m.updateWith, (m.updateWith / m.updateWithout - 1) * 100),
            String(format: "Commit to notification, object observer on a queue: other thread median %.2f ms, p99 %.2f ms (%d of %d); other process median %.2f ms, p99 %.2f ms (%d of %d)",
                   percentile(m.threadLatencies, 0.5) * 1e3, percentile(m.threadLatencies, 0.99) * 1e3, m.threadLatencies.count, samples,
                   percentile(m.processLatencies, 0.5) * 1e3, percentile(m.processLatencies, 0.99) * 1e3, m.processLatencies.count, samples),
            String(format: "Commit to notification, sorted filtered results of %d objects after a one-object commit: %.2f ms", count,
                   m.largeResultsLatency * 1e3),
        ].joined(separator: "\n")
    }
}

/// A value shared between the benchmark's threads.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    func get() -> Value { lock.withLock { value } }
    func set(_ new: Value) { lock.withLock { value = new } }
    func update(_ body: (inout Value) -> Void) { lock.withLock { body(&value) } }
}
