import Foundation
import LMDB
import Synchronization
import Testing

/// A read transaction reads the version its id names, however its renewals race the commits
/// of another thread (LMDB 0.9.24 alone gives about 5 in a million renewals the version two
/// commits newer when the CPUs are busy).
@Suite struct SnapshotLabelTests {
    let directory = TemporaryDirectory()

    @Test func renewedSnapshotsReadTheVersionTheirIDNames() throws {
        let environment = try Environment.open(path: directory.path("t.mdb"))
        let setup = try environment.beginTransaction()
        let db = try setup.openDatabase(named: "kv", create: true)
        try setup.put([1], withUnsafeBytes(of: setup.id) { Array($0) }, in: db)
        try setup.commit()
        let stop = Atomic<Bool>(false)
        let newer = Atomic<Int>(0), older = Atomic<Int>(0), renewals = Atomic<Int>(0)
        let writerDone = DispatchSemaphore(value: 0)
        let writer = Thread {
            // Each commit stores its own id: a reader compares it with its snapshot's.
            while !stop.load(ordering: .relaxed) {
                let txn = try! environment.beginTransaction()
                try! txn.put([1], withUnsafeBytes(of: txn.id) { Array($0) }, in: db)
                try! txn.commit()
            }
            writerDone.signal()
        }
        writer.start()
        let group = DispatchGroup()
        for _ in 0..<2 {
            group.enter()
            Thread {
                let txn = try! environment.beginReadTransaction()
                let until = Date().addingTimeInterval(3)
                var count = 0
                while Date() < until {
                    for _ in 0..<1000 {
                        try! txn.renew()
                        let value = try! txn.value(for: [1], in: db)!.withUnsafeBytes { $0.loadUnaligned(as: Int.self) }
                        if value > txn.id { newer.add(1, ordering: .relaxed) }
                        if value < txn.id { older.add(1, ordering: .relaxed) }
                        count += 1
                    }
                }
                renewals.add(count, ordering: .relaxed)
                group.leave()
            }.start()
        }
        group.wait()
        stop.store(true, ordering: .relaxed)
        writerDone.wait()
        #expect(renewals.load(ordering: .relaxed) > 0)
        #expect(newer.load(ordering: .relaxed) == 0, "snapshots read a version newer than their id")
        #expect(older.load(ordering: .relaxed) == 0, "snapshots read a version older than their id")
    }
}
