import Baselines
import Burrow
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Primary-key reads from several threads, each on its own realm, while one more thread
/// commits one-object writes (a pause apart, the same for both engines), beside raw LMDB doing
/// the same with as many reader threads (a read transaction each) and a writer. Both read the
/// same ids (the baselines' random sequence, one seed per thread), and the sums of the ages read
/// are compared. Two cores shared by five threads make single runs noisy: the step runs several
/// times on each engine and reports each one's best.
enum ConcurrentReadsStep {
    static let threads = 4
    static let readsPerThread = 100_000

    struct Measurement {
        let objects: Int
        let burrow: (readsPerSecond: Double, writes: Int)
        let lmdb: (readsPerSecond: Double, writes: Int)
        let sumsAgree: Bool
    }

    /// Runs the step `trials` times on each engine, alternating between them so that both see
    /// the same spells of machine noise, and keeps each engine's best rate.
    static func measure(count: Int, trials: Int, in directory: URL) throws -> Measurement {
        let objects = count
        let file = directory.appendingPathComponent("concurrent.realm")
        let configuration = Realm.Configuration(fileURL: file)
        try Realm.deleteFiles(for: configuration)
        defer { _ = try? Realm.deleteFiles(for: configuration) }
        do {
            let realm = try Realm(configuration: configuration)
            try realm.write { for id in 1...objects { realm.add(Item(workloadID: id)) } }
        }
        let total = Double(threads * readsPerThread)
        var burrow: (readsPerSecond: Double, writes: Int) = (0, 0)
        var lmdb: (readsPerSecond: Double, writes: Int) = (0, 0)
        var sumsAgree = true
        let lmdbPath = directory.appendingPathComponent("concurrent-lmdb.mdb").path
        for _ in 0..<trials {
            let burrowTrial = try burrowReads(configuration, objects: objects)
            if total / burrowTrial.seconds > burrow.readsPerSecond {
                burrow = (total / burrowTrial.seconds, burrowTrial.writes)
            }
            let lmdbTrial = lmdb_concurrent_reads(lmdbPath, objects, Int32(threads), readsPerThread)
            if total / lmdbTrial.seconds > lmdb.readsPerSecond {
                lmdb = (total / lmdbTrial.seconds, Int(lmdbTrial.writes))
            }
            sumsAgree = sumsAgree && burrowTrial.sum == lmdbTrial.sum
        }
        return Measurement(objects: objects, burrow: burrow, lmdb: lmdb, sumsAgree: sumsAgree)
    }

    private static func burrowReads(_ configuration: Realm.Configuration, objects: Int) throws -> (seconds: Double, sum: Int64, writes: Int) {
        let stop = Atomic<Bool>(false)
        let writes = Atomic<Int>(0)
        let sums = Atomic<Int64>(0)
        let ready = DispatchSemaphore(value: 0)
        let start = DispatchSemaphore(value: 0)
        let readersDone = DispatchGroup()
        let writerDone = DispatchGroup()
        writerDone.enter()
        Thread {
            let realm = try! Realm(configuration: configuration)
            var seed: UInt32 = 7
            while !stop.load(ordering: .relaxed) {
                let id = Int64(Int(rand_r(&seed)) % objects + 1)
                try! realm.write { realm.object(ofType: Item.self, forPrimaryKey: id)!.score += 1 }
                writes.add(1, ordering: .relaxed)
                usleep(UInt32(CONCURRENT_WRITE_PAUSE_MICROSECONDS))
            }
            writerDone.leave()
        }.start()
        for index in 0..<threads {
            readersDone.enter()
            Thread {
                let realm = try! Realm(configuration: configuration)
                var seed = UInt32(index + 1)
                var sum: Int64 = 0
                ready.signal()
                start.wait()
                for _ in 0..<readsPerThread {
                    let id = Int64(Int(rand_r(&seed)) % objects + 1)
                    sum += Int64(realm.object(ofType: Item.self, forPrimaryKey: id)!.age)
                }
                sums.add(sum, ordering: .relaxed)
                readersDone.leave()
            }.start()
        }
        // Every reader has its realm open before the clock starts, as LMDB's have their environment.
        for _ in 0..<threads { ready.wait() }
        let readers = Stopwatch.measure {
            for _ in 0..<threads { start.signal() }
            readersDone.wait()
        }
        stop.store(true, ordering: .relaxed)
        writerDone.wait()
        return (readers.seconds, sums.load(ordering: .relaxed), writes.load(ordering: .relaxed))
    }

    static func summary(_ measurement: Measurement) -> String {
        String(format: "Concurrent reads (%d threads × %d primary-key reads of %d objects, one thread committing): "
               + "Burrow %.0f reads/s (%d writes meanwhile), LMDB %.0f reads/s (%d writes), best of each: %.2fx of LMDB%@",
               threads, readsPerThread, measurement.objects, measurement.burrow.readsPerSecond, measurement.burrow.writes,
               measurement.lmdb.readsPerSecond, measurement.lmdb.writes,
               measurement.burrow.readsPerSecond / measurement.lmdb.readsPerSecond,
               measurement.sumsAgree ? "" : " — THE SUMS OF AGES READ DIFFER")
    }
}
