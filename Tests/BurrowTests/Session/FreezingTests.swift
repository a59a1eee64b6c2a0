import Burrow
import Foundation
import Synchronization
import Testing

/// Frozen realms, objects, results and collections: snapshots that never change, read by any
/// number of threads at once, pinning one version while they live.
@Suite struct FreezingTests {
    private func seeded(_ directory: TestDirectory) throws -> Realm {
        let realm = try directory.realm()
        try realm.write {
            for id in 0..<10 {
                realm.add(Person(value: ["id": id, "name": "p\(id)", "age": id]))
            }
            realm.add(Kennel(value: ["id": 1, "name": "north", "dogs": [["name": "rex", "age": 3], ["name": "fido", "age": 5]],
                                     "tags": ["a", "b"], "scores": [1, nil]]))
            realm.add(Club(value: ["id": 1, "members": [["id": 100, "name": "ann"]], "languages": ["en", "fr"]]))
            realm.add(Ledger(value: ["id": 1, "scores": ["x": 1, "y": 2]]))
        }
        return realm
    }

    @Test func aFrozenObjectKeepsItsValuesAndThawsToTheLiveOne() throws {
        let directory = TestDirectory()
        let realm = try seeded(directory)
        let person = realm.object(ofType: Person.self, forPrimaryKey: 3)!
        let frozen = person.freeze()
        #expect(frozen.isFrozen)
        #expect(!person.isFrozen)
        #expect(frozen.realm!.isFrozen)
        try realm.write { person.name = "changed" }
        #expect(frozen.name == "p3")
        #expect(person.name == "changed")
        let thawed = try #require(frozen.thaw())
        #expect(!thawed.isFrozen)
        #expect(thawed.name == "changed")
        #expect(person.thaw() === person)
        #expect(frozen.freeze() === frozen)
        try realm.write { realm.delete(person) }
        #expect(frozen.thaw() == nil)
        #expect(frozen.name == "p3")
    }

    @Test func aFrozenRealmIsOneSnapshot() throws {
        let directory = TestDirectory()
        let realm = try seeded(directory)
        let snapshot = realm.freeze()
        #expect(snapshot.isFrozen)
        #expect(snapshot.freeze() == snapshot)
        try realm.write { realm.add(Person(value: ["id": 50])) }
        #expect(snapshot.objects(Person.self).count == 10)
        #expect(snapshot.refresh() == false)
        #expect(snapshot.objects(Person.self).filter("age >= 5").sorted(byKeyPath: "age", ascending: false).first?.id == 9)
        #expect(realm.objects(Person.self).count == 11)
        let live = try #require(snapshot.thaw())
        #expect(!live.isFrozen)
        #expect(live.objects(Person.self).count == 11)
    }

    @Test func frozenResultsAndCollectionsKeepTheirVersion() throws {
        let directory = TestDirectory()
        let realm = try seeded(directory)
        let kennel = realm.object(ofType: Kennel.self, forPrimaryKey: 1)!
        let club = realm.object(ofType: Club.self, forPrimaryKey: 1)!
        let ledger = realm.object(ofType: Ledger.self, forPrimaryKey: 1)!
        let results = realm.objects(Person.self).filter("age < 5").freeze()
        let dogs = kennel.dogs.freeze()
        let tags = kennel.tags.freeze()
        let scores = kennel.scores.freeze()
        let members = club.members.freeze()
        let languages = club.languages.freeze()
        let map = ledger.scores.freeze()
        let owners = kennel.dogs.first!.kennels.freeze()
        let dogResults = kennel.dogs.filter("age > 1").freeze()
        let tagResults = kennel.tags.sorted(ascending: false).freeze()
        for value in [results.isFrozen, dogs.isFrozen, tags.isFrozen, members.isFrozen, languages.isFrozen, map.isFrozen,
                      owners.isFrozen, dogResults.isFrozen, tagResults.isFrozen, scores.isFrozen] {
            #expect(value)
        }
        try realm.write {
            realm.delete(realm.objects(Person.self).filter("age < 3"))
            kennel.dogs.removeAll()
            kennel.tags.append("c")
            club.languages.insert("de")
            ledger.scores["z"] = 3
        }
        #expect(results.count == 5)
        #expect(dogs.map(\.name) == ["rex", "fido"])
        #expect(Array(tags) == ["a", "b"])
        #expect(Array(scores) == [1, nil])
        #expect(members.map(\.name) == ["ann"])
        #expect(Set(languages) == ["en", "fr"])
        #expect(map.count == 2 && map["y"] == 2)
        #expect(owners.map(\.name) == ["north"])
        #expect(dogResults.count == 2)
        #expect(Array(tagResults) == ["b", "a"])
        // Thawing reads the latest version.
        #expect(try #require(results.thaw()).count == 2)
        #expect(try #require(dogs.thaw()).isEmpty)
        #expect(Array(try #require(tags.thaw())) == ["a", "b", "c"])
        #expect(try #require(map.thaw()).count == 3)
        #expect(AnyRealmCollection(dogs).freeze().isFrozen)
    }

    @Test func freezingManyObjectsOfOneVersionPinsItOnce() throws {
        let directory = TestDirectory()
        let realm = try directory.realm()
        try realm.write {
            for id in 0..<10_000 { realm.add(Person(value: ["id": id, "name": "p\(id)"])) }
        }
        let internals = realm.internals
        let readersBefore = internals.environment.activeTransactionCount
        var frozen: [Person]? = realm.objects(Person.self).map { $0.freeze() }
        #expect(frozen?.count == 10_000)
        #expect(internals.frozenVersionCount == 1)
        #expect(internals.environment.activeTransactionCount == readersBefore + 1)
        #expect(Set(frozen!.map { $0.realm!.internals.identity }).count == 1)
        #expect(frozen?[9_999].name == "p9999")
        frozen = nil
        #expect(internals.frozenVersionCount == 0)
        #expect(internals.environment.activeTransactionCount == readersBefore)
    }

    @Test func aFrozenRealmIsReadByManyThreadsAtOnce() throws {
        let directory = TestDirectory()
        let realm = try seeded(directory)
        let snapshot = Frozen(realm.freeze())
        let kennel = Frozen(realm.object(ofType: Kennel.self, forPrimaryKey: 1)!.freeze())
        let people = Frozen(realm.objects(Person.self).freeze())
        let failures = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: 8) { round in
            for _ in 0..<200 {
                let matches = snapshot.value.objects(Person.self).filter("age >= %@", round).sorted(byKeyPath: "name")
                if matches.count != 10 - round { failures.add(1, ordering: .relaxed) }
                if matches.first?.age != round { failures.add(1, ordering: .relaxed) }
                if kennel.value.dogs.map(\.name) != ["rex", "fido"] { failures.add(1, ordering: .relaxed) }
                if kennel.value.dogs[1].kennels.first?.name != "north" { failures.add(1, ordering: .relaxed) }
                if people.value[round].name != "p\(round)" { failures.add(1, ordering: .relaxed) }
                if people.value.sum(ofProperty: "id") as Int != 45 { failures.add(1, ordering: .relaxed) }
            }
        }
        #expect(failures.load(ordering: .relaxed) == 0)
    }

    @Test func freezingInsideAWriteSnapshotsTheVersionTheWriteBeganFrom() throws {
        let directory = TestDirectory()
        let realm = try seeded(directory)
        let person = realm.object(ofType: Person.self, forPrimaryKey: 1)!
        realm.beginWrite()
        person.name = "uncommitted"
        realm.add(Person(value: ["id": 99]))
        let frozen = person.freeze()
        let snapshot = realm.freeze()
        #expect(frozen.name == "p1")
        #expect(snapshot.objects(Person.self).count == 10)
        realm.cancelWrite()
    }

    @Test func freezingAStaleRealmKeepsItsVersionAndMovesTheLiveOneOn() throws {
        let directory = TestDirectory()
        let realm = try seeded(directory)
        let configuration = directory.configuration()
        #expect(realm.objects(Person.self).count == 10)
        onAnotherThread {
            let other = try! Realm(configuration: configuration)
            try! other.write { other.add(Person(value: ["id": 70])) }
        }
        // The live realm has not refreshed: the snapshot is the version it reads.
        let snapshot = realm.freeze()
        #expect(snapshot.objects(Person.self).count == 10)
        #expect(realm.objects(Person.self).count == 11)
    }

    @Test func frozenValuesCrossTasks() async throws {
        let directory = TestDirectory()
        let realm = try seeded(directory)
        let frozen = Frozen(realm.objects(Person.self).sorted(byKeyPath: "id").freeze())
        let names = try await withThrowingTaskGroup(of: String.self) { group in
            for index in 0..<4 { group.addTask { frozen.value[index].name } }
            return try await group.reduce(into: Set<String>()) { $0.insert($1) }
        }
        #expect(names == ["p0", "p1", "p2", "p3"])
    }

    // MARK: Misuse

    @Test func modifyingAFrozenObjectTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let realm = MisuseTests.freshRealm()
            let dog = Dog()
            try! realm.write { realm.add(dog) }
            let frozen = dog.freeze()
            try! realm.write { frozen.name = "x" }
        }
        expectMessage(result, "Attempting to modify a frozen object - call thaw on the Object instance first.")
    }

    @Test func writingToAFrozenRealmTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let frozen = MisuseTests.freshRealm().freeze()
            try! frozen.write { }
        }
        expectMessage(result, "Can't perform transactions on a frozen Realm")
    }

    @Test func appendingToAFrozenListTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let realm = MisuseTests.freshRealm()
            let kennel = Kennel(value: ["id": 1])
            try! realm.write { realm.add(kennel) }
            let tags = kennel.tags.freeze()
            try! realm.write { tags.append("x") }
        }
        expectMessage(result, "Attempting to modify a frozen object - call thaw on the Object instance first.")
    }

    @Test func freezingAnUnmanagedObjectTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Dog().freeze()
        }
        expectMessage(result, "Unmanaged objects cannot be frozen.")
    }

    @Test func thawingAnUnmanagedObjectTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Dog().thaw()
        }
        expectMessage(result, "Unmanaged objects cannot be thawed.")
    }

    @Test func freezingAnObjectCreatedInTheOpenWriteTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let realm = MisuseTests.freshRealm()
            realm.beginWrite()
            _ = realm.create(Dog.self).freeze()
        }
        expectMessage(result, "Cannot freeze an object in the same write transaction as it was created in.")
    }

    @Test func sendingALiveValueTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Frozen(MisuseTests.freshRealm().objects(Dog.self))
        }
        expectMessage(result, "Only frozen values can be sent to other threads")
    }

    @Test func freezingAnUnmanagedListTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = List<Int>().freeze()
        }
        expectMessage(result, "This method may only be called on List instances retrieved from a Realm")
    }
}
