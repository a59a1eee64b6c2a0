import Burrow
import Foundation
import Testing

/// Several processes share one file: commits of one are seen by the others.
@Suite struct MultiProcessTests {
    let directory = TestDirectory()

    @Test func aChildProcessCommitIsSeenAfterRefresh() async throws {
        let path = directory.file().path
        // The realm lives on one thread across the wait for the child.
        let owner = ConfinedThread()
        defer { owner.stop() }
        var people: Results<Person>?
        try owner.run {
            let realm = try Realm(fileURL: URL(fileURLWithPath: path))
            try realm.write { realm.add(Person(value: ["id": 1, "name": "parent"])) }
            people = realm.objects(Person.self)
            #expect(people?.count == 1)
        }

        await #expect(processExitsWith: .success) { [path = path as String] in
            let child = try! Realm(fileURL: URL(fileURLWithPath: path))
            precondition(child.objects(Person.self).count == 1, "the child sees the parent's commit")
            try! child.write {
                child.add(Person(value: ["id": 2, "name": "child"]))
                child.object(ofType: Person.self, forPrimaryKey: 1)!.nickname = "seen by child"
            }
        }

        try owner.run {
            let realm = try Realm(fileURL: URL(fileURLWithPath: path))
            #expect(people?.count == 1)
            realm.refresh()
            #expect(people?.count == 2)
            #expect(realm.object(ofType: Person.self, forPrimaryKey: 2)?.name == "child")
            #expect(realm.object(ofType: Person.self, forPrimaryKey: 1)?.nickname == "seen by child")
            people = nil
        }
    }

    @Test func aProcessKilledInTheMiddleOfAWriteLosesOnlyThatWrite() async throws {
        let path = directory.file().path
        do {
            let realm = try Realm(fileURL: URL(fileURLWithPath: path))
            try realm.write { for id in 0..<100 { realm.add(Person(value: ["id": id])) } }
        }
        await #expect(processExitsWith: .signal(SIGKILL)) { [path = path as String] in
            let child = try! Realm(fileURL: URL(fileURLWithPath: path))
            child.beginWrite()
            for id in 100..<5000 { child.add(Person(value: ["id": id, "name": "doomed"])) }
            kill(getpid(), SIGKILL)
        }
        let realm = try Realm(fileURL: URL(fileURLWithPath: path))
        realm.refresh()
        #expect(realm.objects(Person.self).count == 100)
        #expect(realm.objects(Person.self).filter("name == 'doomed'").isEmpty)
        // The dead writer's lock is recovered: writing goes on.
        try realm.write { realm.add(Person(value: ["id": 100])) }
        #expect(realm.objects(Person.self).count == 101)
    }
}
