import Burrow
import Foundation
import Testing

/// A map of objects, for observation of maps on an actor.
final class Yard: Object {
    @Persisted var pets: Map<String, Puppy?>
}

/// What notifications delivered to an actor said, in order, read by the test once enough came.
actor ChangeLog {
    private(set) var entries: [String] = []

    func append(_ entry: String) { entries.append(entry) }

    /// The entries once there are `count` of them, or after ten seconds those there are.
    func waitFor(_ count: Int) async -> [String] {
        let deadline = ContinuousClock.now + .seconds(10)
        while entries.count < count, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(2))
        }
        return entries
    }
}

/// `observe(on: actor)` of every observable kind: the block runs isolated to the actor, with a
/// value read by the actor's own realm (reading it there would trap otherwise), the key paths
/// filter as they do elsewhere, and the token stops it.
@Suite struct ActorObservationTests {
    let directory = TestDirectory()

    @MainActor @Test func resultsNotifyOnTheActorWithValuesItMayRead() async throws {
        let realm = try await Realm.open(configuration: directory.configuration())
        try realm.write { realm.add([Puppy(value: ["name": "Rex", "age": 1]), Puppy(value: ["name": "Bo", "age": 2])]) }
        let log = ChangeLog()
        let token = await realm.objects(Puppy.self).sorted(byKeyPath: "age").observe(on: log) { log, change in
            switch change {
            case .initial(let puppies): log.append("initial \(puppies.map(\.name))")
            case .update(let puppies, let deletions, let insertions, let modifications):
                log.append("update \(puppies.map(\.name)) -\(deletions) +\(insertions) ~\(modifications)")
            case .error(let error): log.append("error \(error)")
            }
        }
        #expect(await log.waitFor(1) == ["initial [\"Rex\", \"Bo\"]"])
        // Each change is waited for: versions the actor's realm reaches together make one notification.
        try realm.write { realm.objects(Puppy.self).filter("name == 'Bo'").first!.name = "Bobo" }
        #expect(await log.waitFor(2).last == "update [\"Rex\", \"Bobo\"] -[] +[] ~[1]")
        try realm.write { realm.add(Puppy(value: ["name": "Ace", "age": 0])) }
        #expect(await log.waitFor(3).last == "update [\"Ace\", \"Rex\", \"Bobo\"] -[] +[0] ~[]")
        #expect(token.invalidate())
        #expect(!token.invalidate())  // RealmSwift's: whether it was valid until this call
        try realm.write { realm.add(Puppy(value: ["name": "Late", "age": 9])) }
        try await Task.sleep(for: .milliseconds(100))
        #expect(await log.entries.count == 3)
    }

    /// RealmSwift's testObserveOnAlreadyCancelledTask: observing from a cancelled task gives a
    /// token already invalidated, and the block never runs.
    @MainActor @Test func observingFromACancelledTaskGivesAnInvalidatedToken() async throws {
        let realm = try await Realm.open(configuration: directory.configuration())
        try realm.write { realm.add(Puppy(value: ["name": "Rex"])) }
        let rex = try #require(realm.objects(Puppy.self).first)
        let log = ChangeLog()
        let wasValid = await Task { @MainActor in
            withUnsafeCurrentTask { $0?.cancel() }
            let token = await rex.observe(on: log) { log, _ in log.append("called") }
            return token.invalidate()
        }.value
        #expect(!wasValid)
        try realm.write { rex.name = "Rex II" }
        try await Task.sleep(for: .milliseconds(100))
        #expect(await log.entries.isEmpty)
    }

    @MainActor @Test func keyPathsLimitWhatCountsAsAModification() async throws {
        let realm = try await Realm.open(configuration: directory.configuration())
        let rex = Puppy(value: ["name": "Rex", "age": 1])
        try realm.write { realm.add(rex) }
        let log = ChangeLog()
        let byString = await realm.objects(Puppy.self).observe(keyPaths: ["age"], on: log) { log, change in
            switch change {
            case .initial: log.append("strings initial")
            case .update(_, _, _, let modifications): log.append("strings ~\(modifications)")
            case .error: log.append("strings error")
            }
        }
        let typed = await realm.objects(Puppy.self).observe(keyPaths: [\.age], on: log) { log, change in
            switch change {
            case .initial: log.append("typed initial")
            case .update(_, _, _, let modifications): log.append("typed ~\(modifications)")
            case .error: log.append("typed error")
            }
        }
        #expect(await log.waitFor(2).sorted() == ["strings initial", "typed initial"])
        try realm.write { rex.name = "Rexy" }  // not observed
        try realm.write { rex.age = 2 }
        let entries = await log.waitFor(4)
        #expect(entries.dropFirst(2).sorted() == ["strings ~[0]", "typed ~[0]"])
        byString.invalidate()
        typed.invalidate()
    }

    @MainActor @Test func listsAndMapsNotifyOnTheActor() async throws {
        let realm = try await Realm.open(configuration: directory.configuration())
        let kennel = Kennel(value: ["id": 1, "dogs": [["name": "Rex"]]])
        let yard = Yard()
        try realm.write {
            realm.add(kennel)
            realm.add(yard)
            yard.pets["first"] = kennel.dogs[0]
        }
        let log = ChangeLog()
        let listToken = await kennel.dogs.observe(on: log) { log, change in
            switch change {
            case .initial(let dogs): log.append("list initial \(dogs.map(\.name))")
            case .update(let dogs, _, let insertions, _): log.append("list +\(insertions) \(dogs.map(\.name))")
            case .error: log.append("list error")
            }
        }
        let mapToken = await yard.pets.observe(keyPaths: [\.name], on: log) { log, change in
            switch change {
            case .initial(let pets): log.append("map initial \(pets.keys.sorted())")
            case .update(_, _, let insertions, let modifications): log.append("map +\(insertions) ~\(modifications)")
            case .error: log.append("map error")
            }
        }
        #expect(await log.waitFor(2).sorted() == ["list initial [\"Rex\"]", "map initial [\"first\"]"])
        try realm.write {
            kennel.dogs.append(Puppy(value: ["name": "Bo"]))
            kennel.dogs[0].name = "Rexy"
            yard.pets["second"] = kennel.dogs[1]
        }
        let entries = await log.waitFor(4)
        #expect(entries.count == 4)
        #expect(entries.contains("list +[1] [\"Rexy\", \"Bo\"]"))
        #expect(entries.contains("map +[\"second\"] ~[\"first\"]"))
        listToken.invalidate()
        mapToken.invalidate()
    }

    @MainActor @Test func objectsNotifyChangesAndDeletionOnTheActor() async throws {
        let realm = try await Realm.open(configuration: directory.configuration())
        let rex = Puppy(value: ["name": "Rex", "age": 1])
        try realm.write { realm.add(rex) }
        let log = ChangeLog()
        let token = await rex.observe(keyPaths: [\Puppy.name], on: log) { (log, change: ObjectChange<Puppy>) in
            switch change {
            case .change(let puppy, let properties):
                log.append("change \(puppy.name) \(properties.map { "\($0.name): \($0.oldValue ?? "nil") -> \($0.newValue ?? "nil")" })")
            case .deleted: log.append("deleted")
            case .error(let error): log.append("error \(error)")
            }
        }
        try realm.write { rex.age = 5 }  // not observed
        try realm.write { rex.name = "Rexy" }
        #expect(await log.waitFor(1) == ["change Rexy [\"name: Rex -> Rexy\"]"])
        try realm.write { realm.delete(rex) }
        #expect(await log.waitFor(2) == ["change Rexy [\"name: Rex -> Rexy\"]", "deleted"])
        token.invalidate()
    }

    @MainActor @Test func sectionsAndProjectionsNotifyOnTheActor() async throws {
        let realm = try await Realm.open(configuration: directory.configuration())
        let ana = Citizen(value: ["id": 1, "firstName": "Ana", "lastName": "Ek"])
        try realm.write { realm.add(ana) }
        let log = ChangeLog()
        let sectionsToken = await realm.objects(Citizen.self).sectioned(by: \.lastName).observe(on: log) { log, change in
            switch change {
            case .initial(let sections): log.append("sections initial \(sections.allKeys)")
            case .update(let sections, _, let insertions, _, let sectionsToInsert, _):
                log.append("sections \(sections.allKeys) +\(insertions) new sections \(Array(sectionsToInsert))")
            }
        }
        let view = CitizenView(projecting: ana)
        let viewToken = await view.observe(keyPaths: [\CitizenView.name], on: log) { (log, change: ObjectChange<CitizenView>) in
            if case .change(let view, let properties) = change { log.append("view \(view.name) \(properties.map(\.name))") }
        }
        #expect(await log.waitFor(1) == ["sections initial [\"Ek\"]"])
        try realm.write { ana.firstName = "Anna" }
        // Both hear of the first-name change (the sections as a modification in place); each
        // change is waited for, since versions reached together make one notification.
        let first = await log.waitFor(3)
        #expect(first.count == 3 && first.contains("view Anna [\"name\"]"))
        try realm.write { realm.add(Citizen(value: ["id": 2, "firstName": "Bo", "lastName": "Al"])) }
        let entries = await log.waitFor(first.count + 1)
        #expect(entries.last == "sections [\"Al\", \"Ek\"] +[[0, 0]] new sections [0]")
        sectionsToken.invalidate()
        viewToken.invalidate()
    }

    @Test func anUnmanagedCollectionCannotBeObservedOnAnActor() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let kennel = Kennel()
            _ = await kennel.dogs.observe(on: ChangeLog()) { _, _ in }
        }
        expectMessage(result, "Change notifications are only supported for managed objects and collections.")
    }
}
