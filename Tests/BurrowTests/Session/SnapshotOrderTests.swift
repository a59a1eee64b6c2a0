import Burrow
import Foundation
import Synchronization
import Testing

/// A realm never reads a version older than one it has already shown, however its refreshes
/// race the commits of other threads.
@Suite struct SnapshotOrderTests {
    @Test func refreshNeverGoesBackInTime() throws {
        let directory = TestDirectory()
        let configuration = directory.configuration()
        let realm = try Realm(configuration: configuration)
        try realm.write { realm.add(Person(value: ["id": 1, "age": 0])) }
        let stop = Atomic<Bool>(false)
        let writer = Thread {
            let realm = try! Realm(configuration: configuration)
            let person = realm.object(ofType: Person.self, forPrimaryKey: 1)!
            while !stop.load(ordering: .relaxed) {
                try! realm.write { person.age = (person.age ?? 0) + 1 }
            }
        }
        writer.start()
        defer { stop.store(true, ordering: .relaxed) }
        let readers = (0..<2).map { _ in ConfinedThread() }
        defer { readers.forEach { $0.stop() } }
        let backwards = Atomic<Int>(0)
        let refreshes = Atomic<Int>(0)
        let group = DispatchGroup()
        for reader in readers {
            DispatchQueue.global().async(group: group) {
                try! reader.run {
                    let realm = try Realm(configuration: configuration)
                    let person = realm.object(ofType: Person.self, forPrimaryKey: 1)!
                    var last = person.age ?? 0
                    let deadline = Date().addingTimeInterval(1.5)
                    while Date() < deadline {
                        realm.refresh()
                        let age = person.age ?? 0
                        if age < last { backwards.add(1, ordering: .relaxed) }
                        last = age
                        refreshes.add(1, ordering: .relaxed)
                    }
                }
            }
        }
        group.wait()
        stop.store(true, ordering: .relaxed)
        while writer.isExecuting { usleep(1_000) }
        #expect(refreshes.load(ordering: .relaxed) > 1_000)
        #expect(backwards.load(ordering: .relaxed) == 0)
    }

    @Test func theSnapshotAfterACommitIncludesIt() throws {
        let directory = TestDirectory()
        let realm = try directory.realm()
        for id in 0..<200 {
            try realm.write { realm.add(Person(value: ["id": id])) }
            #expect(realm.objects(Person.self).count == id + 1)
        }
    }
}
