import Burrow
import Foundation
import Testing

/// Notifications of lists, sets, maps and linking objects.
@Suite struct CollectionNotificationTests {
    let directory = TestDirectory()

    private func realm() throws -> Realm {
        try Realm(configuration: directory.configuration(objectTypes: [Kennel.self, Puppy.self, Owner.self, Club.self, Ledger.self]))
    }

    /// Records the changes `observe` reports.
    private final class Recorder<C> {
        var events: [String] = []
        func record(_ change: RealmCollectionChange<C>) {
            switch change {
            case .initial: events.append("initial")
            case .update(_, let deletions, let insertions, let modifications): events.append("\(deletions) \(insertions) \(modifications)")
            case .error(let error): events.append("error \(error)")
            }
        }
    }

    @Test func listsReportByPosition() throws {
        let realm = try realm()
        let kennel = Kennel(value: ["id": 1, "dogs": [["name": "a"], ["name": "b"], ["name": "c"]], "tags": ["x", "y"]])
        try realm.write { realm.add(kennel) }
        let dogs = Recorder<List<Puppy>>(), tags = Recorder<List<String>>()
        let tokens = [kennel.dogs.observe(dogs.record), kennel.tags.observe(tags.record)]
        realm.refresh()
        #expect(dogs.events == ["initial"] && tags.events == ["initial"])
        try realm.write { kennel.dogs[1].age = 4 }
        #expect(dogs.events.last == "[] [] [1]")
        #expect(tags.events.count == 1)
        try realm.write {
            kennel.dogs.move(from: 0, to: 2)
            kennel.tags[0] = "z"
            kennel.tags.append("w")
        }
        #expect(dogs.events.last == "[0] [2] []")
        #expect(tags.events.last == "[] [2] [0]")
        try realm.write { realm.delete(kennel) }
        #expect(dogs.events.last == "[0, 1, 2] [] []")
        withExtendedLifetime(tokens) {}
    }

    @Test func setsMapsAndLinkingObjects() throws {
        let realm = try realm()
        let owner = Owner(value: ["id": 1, "name": "Ann"])
        let club = Club(value: ["id": 1, "languages": ["en"], "members": [owner]])
        let ledger = Ledger(value: ["id": 1, "scores": ["a": 1, "b": 2]])
        try realm.write {
            realm.add(club)
            realm.add(ledger)
            realm.add(Puppy(value: ["name": "p", "owner": owner]))
        }
        let languages = Recorder<MutableSet<String>>(), puppies = Recorder<LinkingObjects<Puppy>>()
        var mapEvents: [String] = []
        let tokens = [
            club.languages.observe(languages.record),
            owner.puppies.observe(puppies.record),
            ledger.scores.observe { change in
                switch change {
                case .initial: mapEvents.append("initial")
                case .update(_, let deletions, let insertions, let modifications): mapEvents.append("\(deletions) \(insertions) \(modifications)")
                case .error: mapEvents.append("error")
                }
            },
        ]
        realm.refresh()
        try realm.write {
            club.languages.insert("fr")
            ledger.scores["a"] = 10
            ledger.scores["c"] = 3
            ledger.scores.removeObject(for: "b")
            realm.add(Puppy(value: ["name": "q", "owner": owner]))
        }
        #expect(languages.events == ["initial", "[] [1] []"])
        #expect(mapEvents == ["initial", "[\"b\"] [\"c\"] [\"a\"]"])
        #expect(puppies.events == ["initial", "[] [1] []"])
        try realm.write { realm.objects(Puppy.self).filter("name == 'p'").first!.age = 9 }
        #expect(puppies.events.last == "[] [] [0]")
        withExtendedLifetime(tokens) {}
    }

    @Test func resultsOfValuesReportValuesLeavingAndJoining() throws {
        let realm = try realm()
        let kennel = Kennel(value: ["id": 1, "tags": ["b", "d"]])
        try realm.write { realm.add(kennel) }
        let recorder = Recorder<Results<String>>()
        let token = kennel.tags.sorted(ascending: true).observe(recorder.record)
        realm.refresh()
        try realm.write { kennel.tags.append("a"); kennel.tags.append("c") }
        try realm.write { kennel.tags.remove(at: 0) }
        // Another object of the class changing does not touch these results.
        try realm.write { realm.add(Kennel(value: ["id": 2, "tags": ["z"]])) }
        #expect(recorder.events == ["initial", "[] [0, 2] []", "[1] [] []"])
        withExtendedLifetime(token) {}
    }

    @Test func anyRealmCollectionObservesWhatItWraps() throws {
        let realm = try realm()
        let kennel = Kennel(value: ["id": 1, "dogs": [["name": "a"]]])
        try realm.write { realm.add(kennel) }
        let recorder = Recorder<AnyRealmCollection<Puppy>>()
        let tokens = [AnyRealmCollection(kennel.dogs).observe(recorder.record),
                      AnyRealmCollection(realm.objects(Puppy.self)).observe(keyPaths: ["age"], on: nil) { _ in }]
        realm.refresh()
        try realm.write { kennel.dogs.append(Puppy(value: ["name": "b"])) }
        #expect(recorder.events == ["initial", "[] [1] []"])
        withExtendedLifetime(tokens) {}
    }

    @Test func mapsStreamFrozenChanges() async throws {
        let configuration = directory.configuration(objectTypes: [Kennel.self, Puppy.self, Owner.self, Club.self, Ledger.self])
        let owner = ConfinedThread()
        defer { owner.stop() }
        // Only the task holds the stream: the observation ends when the task's loop does.
        var stream: AsyncStream<RealmMapChange<Map<String, Int>>>? = try owner.run {
            let realm = try Realm(configuration: configuration)
            let ledger = Ledger(value: ["id": 1, "scores": ["a": 1]])
            try realm.write { realm.add(ledger) }
            return ledger.scores.changes
        }
        let reading = Task { [stream] in
            var events: [String] = []
            for await change in stream! {
                switch change {
                case .initial(let map):
                    events.append("initial \(map.count) \(map.isFrozen)")
                    try owner.run {
                        let realm = try Realm(configuration: configuration)
                        try realm.write { realm.object(ofType: Ledger.self, forPrimaryKey: 1)!.scores["b"] = 2 }
                    }
                case .update(let map, let deletions, let insertions, let modifications):
                    events.append("update \(map.count) \(deletions) \(insertions) \(modifications)")
                case .error(let error): events.append("error \(error)")
                }
                if events.count == 2 { break }
            }
            return events
        }
        // A notification that never comes fails the test rather than hanging it.
        let watchdog = Task {
            try await Task.sleep(for: .seconds(60))
            reading.cancel()
        }
        defer { watchdog.cancel() }
        stream = nil
        let events = try await reading.value
        #expect(events == ["initial 1 true", "update 2 [] [\"b\"] []"])
        // The queue's realm closes once the stream has ended.
        for _ in 0..<500 where Internals.isOpen(configuration) { try await Task.sleep(for: .milliseconds(10)) }
        #expect(!Internals.isOpen(configuration))
    }

    @Test func misuseTraps() async {
        let outsideWrite = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let realm = MisuseTests.freshRealm()
            try! realm.write {
                realm.add(Dog())
                _ = realm.objects(Dog.self).observe { _ in }
            }
        }
        expectMessage(outsideWrite, "Cannot register notification blocks from within write transactions.")
        let unmanaged = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Dog().observe { (_: ObjectChange<Dog>) in }
        }
        expectMessage(unmanaged, "Only objects which are managed by a Realm support change notifications")
        let frozen = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let realm = MisuseTests.freshRealm()
            _ = realm.objects(Dog.self).freeze().observe { _ in }
        }
        expectMessage(frozen, "Frozen Realms do not change and do not have change notifications.")
        let badKeyPath = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let realm = MisuseTests.freshRealm()
            let dog = Dog()
            try! realm.write { realm.add(dog) }
            _ = dog.observe(keyPaths: ["colour"]) { (_: ObjectChange<Dog>) in }
        }
        expectMessage(badKeyPath, "property 'colour' not found in object of type 'Dog'")
    }
}
