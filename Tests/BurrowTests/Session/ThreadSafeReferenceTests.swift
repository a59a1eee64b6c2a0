import LMDB
import Burrow
import Foundation
import Testing

/// Handing realms, objects, results and collections to other threads with references that
/// resolve once, and the `@ThreadSafe` wrapper built on them.
@Suite struct ThreadSafeReferenceTests {
    // A property, not a local of each test: a local may be released after its last use, while
    // the test's realm is still open, and its check that nothing is left open would then fail.
    let directory = TestDirectory()

    private func seeded(_ directory: TestDirectory) throws -> Realm {
        let realm = try directory.realm()
        try realm.write {
            for id in 0..<5 { realm.add(Person(value: ["id": id, "name": "p\(id)", "age": id * 10])) }
            realm.add(Kennel(value: ["id": 1, "dogs": [["name": "rex"], ["name": "fido"]], "tags": ["a", "b"]]))
            realm.add(Club(value: ["id": 1, "languages": ["en"]]))
            realm.add(Ledger(value: ["id": 1, "scores": ["x": 1]]))
        }
        return realm
    }

    /// Resolves `reference` on a new thread and returns what `read` makes of it there.
    private func resolvedOnAnotherThread<T: ThreadConfined & SendableMetatype, R: Sendable>(
        _ configuration: Realm.Configuration, _ reference: ThreadSafeReference<T>, _ read: @escaping @Sendable (T?) -> R
    ) -> R {
        let outcome = Locked<R?>(nil)
        onAnotherThread {
            let realm = try! Realm(configuration: configuration)
            let value = realm.resolve(reference)
            #expect(reference.isInvalidated)
            outcome.withLock { $0 = read(value) }
        }
        return outcome.withLock { $0! }
    }

    @Test func anObjectIsResolvedOnAnotherThread() throws {
        let realm = try seeded(directory)
        let person = realm.object(ofType: Person.self, forPrimaryKey: 2)!
        let reference = ThreadSafeReference(to: person)
        #expect(!reference.isInvalidated)
        let name = resolvedOnAnotherThread(directory.configuration(), reference) { $0?.name }
        #expect(name == "p2")
        #expect(person.name == "p2")  // the source stays usable
    }

    @Test func anObjectDeletedMeanwhileIsReadAtTheReferenceVersionUntilARefresh() throws {
        // RealmSwift's testPassThreadSafeReferenceToDeletedObject: a realm that has read nothing
        // starts at the reference's version, where the object still exists.
        let realm = try seeded(directory)
        let person = realm.object(ofType: Person.self, forPrimaryKey: 2)!
        let first = ThreadSafeReference(to: person)
        let second = ThreadSafeReference(to: person)
        try realm.write { realm.delete(person) }
        let configuration = directory.configuration()
        let seen = Locked<(name: String?, count: Int, foundAfterRefresh: Bool)?>(nil)
        onAnotherThread {
            let realm = try! Realm(configuration: configuration)
            let name = realm.resolve(first)?.name
            let count = realm.objects(Person.self).count
            realm.refresh()
            seen.withLock { $0 = (name, count, realm.resolve(second) != nil) }
        }
        let outcome = try #require(seen.withLock { $0 })
        #expect(outcome.name == "p2")
        #expect(outcome.count == 5)
        #expect(!outcome.foundAfterRefresh)
    }

    @Test func aRealmThatHasReadTheLatestVersionResolvesThere() throws {
        let realm = try seeded(directory)
        let reference = ThreadSafeReference(to: realm.object(ofType: Person.self, forPrimaryKey: 2)!)
        try realm.write { realm.delete(realm.object(ofType: Person.self, forPrimaryKey: 2)!) }
        let configuration = directory.configuration()
        let seen = Locked<(count: Int, found: Bool)?>(nil)
        onAnotherThread {
            let realm = try! Realm(configuration: configuration)
            let count = realm.objects(Person.self).count
            seen.withLock { $0 = (count, realm.resolve(reference) != nil) }
        }
        let outcome = try #require(seen.withLock { $0 })
        #expect(outcome.count == 4)
        #expect(!outcome.found)
    }

    @Test func resultsResolveAtTheReferenceVersionInARealmThatHasReadNothing() throws {
        // RealmSwift's testPassThreadSafeReferenceToResults.
        let realm = try seeded(directory)
        let reference = ThreadSafeReference(to: realm.objects(Person.self).filter("age >= 20").sorted(byKeyPath: "age"))
        try realm.write { realm.add(Person(value: ["id": 9, "name": "late", "age": 90])) }
        let configuration = directory.configuration()
        let seen = Locked<[[Int]]>([])
        onAnotherThread {
            let realm = try! Realm(configuration: configuration)
            let results = realm.resolve(reference)!
            let all = realm.objects(Person.self)
            seen.withLock { $0.append([all.count] + results.map(\.id)) }
            realm.refresh()
            seen.withLock { $0.append([all.count] + results.map(\.id)) }
        }
        #expect(seen.withLock { $0 } == [[5, 2, 3, 4], [6, 2, 3, 4, 9]])
    }

    @Test func aReferenceMadeInAWriteResolvesAfterTheCommit() throws {
        let realm = try seeded(directory)
        realm.beginWrite()
        let created = realm.create(Person.self, value: ["id": 77, "name": "new"])
        let reference = ThreadSafeReference(to: created)
        try realm.commitWrite()
        #expect(resolvedOnAnotherThread(directory.configuration(), reference) { $0?.name } == "new")
    }

    @Test func aStaleRealmMovesUpToTheSourceVersionAndNoFurther() throws {
        let realm = try seeded(directory)
        let holder = ConfinedThread()
        defer { holder.stop() }
        let configuration = directory.configuration()
        // The holder's realm reads the version before the new object exists.
        try holder.run { _ = try Realm(configuration: configuration).objects(Person.self).count }
        try realm.write { realm.add(Person(value: ["id": 8, "name": "late"])) }
        let reference = ThreadSafeReference(to: realm.object(ofType: Person.self, forPrimaryKey: 8)!)
        try realm.write { realm.add(Person(value: ["id": 9, "name": "later"])) }
        let seen = try holder.run { () -> (String?, Int, Int) in
            let realm = try Realm(configuration: configuration)
            let name = realm.resolve(reference)?.name
            let count = realm.objects(Person.self).count
            realm.refresh()
            return (name, count, realm.objects(Person.self).count)
        }
        #expect(seen == ("late", 6, 7))
    }

    @Test func anUnresolvedReferenceKeepsItsVersionUntilItIsResolvedOrReleased() throws {
        var configuration = directory.configuration()
        configuration.maximumNumberOfActiveVersions = 2
        let realm = try Realm(configuration: configuration)
        try realm.write { realm.add(Person(value: ["id": 1, "name": "kept"])) }
        let person = realm.object(ofType: Person.self, forPrimaryKey: 1)!
        var reference: ThreadSafeReference<Person>? = ThreadSafeReference(to: person)
        try realm.write { person.age = 1 }
        // A third version would be kept: the reference's, the last commit's and the new one.
        let error = try #require(throws: Realm.Error.self) { try realm.write { person.age = 2 } }
        #expect(error.code == .limitExceeded)
        #expect(error.localizedDescription.contains("a thread-safe reference not yet resolved"))
        reference = nil
        try realm.write { person.age = 2 }

        // Resolved, the reference's version is the resolving realm's, which lets it go on.
        reference = ThreadSafeReference(to: person)
        try realm.write { person.age = 3 }
        let resolver = ConfinedThread()
        defer { resolver.stop() }
        let age = try resolver.run { () -> Int? in
            let realm = try Realm(configuration: configuration)
            let resolved = realm.resolve(reference!)
            let age = resolved?.age
            realm.refresh()
            return age
        }
        #expect(age == 2)
        try realm.write { person.age = 4 }
        withExtendedLifetime(reference) {}
    }

    @Test func referencesBeyondTheLimitOfKeptSnapshotsStillResolve() throws {
        let realm = try seeded(directory)
        let references = (0..<80).map { _ in ThreadSafeReference(to: realm.object(ofType: Person.self, forPrimaryKey: 1)!) }
        try realm.write { realm.object(ofType: Person.self, forPrimaryKey: 1)!.name = "renamed" }
        let configuration = directory.configuration()
        let names = Locked<[String?]>([])
        onAnotherThread {
            for reference in references {
                // A realm of its own for each, that has read nothing yet.
                let realm = try! Realm(configuration: configuration)
                names.withLock { $0.append(realm.resolve(reference)?.name) }
                realm.invalidate()
            }
        }
        let seen = names.withLock { $0 }
        // The first 64 kept the version they were made at; the others resolve at the latest.
        #expect(seen == Array(repeating: "p1", count: 64) + Array(repeating: "renamed", count: 16))
    }

    @Test func resultsAndCollectionsAreResolvedOnAnotherThread() throws {
        let realm = try seeded(directory)
        let configuration = directory.configuration()
        let kennel = realm.object(ofType: Kennel.self, forPrimaryKey: 1)!
        let results = ThreadSafeReference(to: realm.objects(Person.self).filter("age >= 20").sorted(byKeyPath: "age", ascending: false))
        #expect(resolvedOnAnotherThread(configuration, results) { $0.map { $0.map(\.id) } } == [4, 3, 2])
        #expect(resolvedOnAnotherThread(configuration, ThreadSafeReference(to: kennel.dogs)) { $0?.map(\.name) } == ["rex", "fido"])
        #expect(resolvedOnAnotherThread(configuration, ThreadSafeReference(to: kennel.tags)) { $0.map(Array.init) } == ["a", "b"])
        #expect(resolvedOnAnotherThread(configuration, ThreadSafeReference(to: kennel.tags.filter("self == 'b'"))) { $0?.count } == 1)
        let club = realm.object(ofType: Club.self, forPrimaryKey: 1)!
        #expect(resolvedOnAnotherThread(configuration, ThreadSafeReference(to: club.languages)) { $0.map(Array.init) } == ["en"])
        let ledger = realm.object(ofType: Ledger.self, forPrimaryKey: 1)!
        #expect(resolvedOnAnotherThread(configuration, ThreadSafeReference(to: ledger.scores)) { $0?["x"] } == 1)
        let kennels = kennel.dogs.first!.kennels
        #expect(resolvedOnAnotherThread(configuration, ThreadSafeReference(to: kennels)) { $0?.first?.id } == 1)
        let any = AnyRealmCollection(kennel.dogs)
        #expect(resolvedOnAnotherThread(configuration, ThreadSafeReference(to: any)) { $0?.count } == 2)
        #expect(resolvedOnAnotherThread(configuration, ThreadSafeReference(to: realm)) { $0?.objects(Person.self).count } == 5)
    }

    @Test func aResolvedReferenceLetsTheSourceRealmGo() throws {
        var configuration = Realm.Configuration(inMemoryIdentifier: "handover-\(UUID())")
        configuration.objectTypes = [Person.self]
        let source = ConfinedThread()
        defer { source.stop() }
        let reference = try source.run { () -> ThreadSafeReference<Person> in
            let realm = try Realm(configuration: configuration)
            try realm.write { realm.add(Person(value: ["id": 1, "name": "kept"])) }
            return ThreadSafeReference(to: realm.object(ofType: Person.self, forPrimaryKey: 1)!)
        }
        // The unresolved reference holds its source value, and so the in-memory realm.
        #expect(Realm.fileExists(for: configuration))
        do {
            let realm = try Realm(configuration: configuration)
            #expect(realm.resolve(reference)?.name == "kept")
        }
        #expect(!Realm.fileExists(for: configuration))
    }

    @Test func theThreadSafeWrapperResolvesWhereItIsRead() throws {
        let realm = try seeded(directory)
        @ThreadSafe var person = realm.object(ofType: Person.self, forPrimaryKey: 1)
        @ThreadSafe var people = realm.objects(Person.self).filter("age > 0")
        let wrapper = _person
        let peopleWrapper = _people
        let seen = Locked<(String?, Int?)>((nil, nil))
        onAnotherThread {
            seen.withLock { $0 = (wrapper.wrappedValue?.name, peopleWrapper.wrappedValue?.count) }
            let realm = try! Realm(configuration: wrapper.wrappedValue!.realm!.configuration)
            try! realm.write { wrapper.wrappedValue!.name = "changed there" }
        }
        #expect(seen.withLock { $0 } == ("p1", 4))
        realm.refresh()
        #expect(person?.name == "changed there")
        try realm.write { realm.delete(person!) }
        #expect(person == nil)
        person = realm.object(ofType: Person.self, forPrimaryKey: 2)
        #expect(person?.name == "p2")
        person = nil
        #expect(person == nil)
    }

    // MARK: Misuse

    @Test func resolvingTwiceTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let realm = MisuseTests.freshRealm()
            let dog = Dog()
            try! realm.write { realm.add(dog) }
            let reference = ThreadSafeReference(to: dog)
            _ = realm.resolve(reference)
            _ = realm.resolve(reference)
        }
        expectMessage(result, "Can only resolve a thread safe reference once.")
    }

    @Test func aRealmOfAnotherFileResolvesNothingAndSpendsTheReference() throws {
        let realm = try directory.realm()
        let dog = Dog(value: ["name": "Rex"])
        try realm.write { realm.add(dog) }
        let elsewhere = TestDirectory()
        let reference = ThreadSafeReference(to: dog)
        #expect(try elsewhere.realm().resolve(reference) == nil)
        #expect(reference.isInvalidated)
    }

    @Test func resolvingASpentReferenceTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let directory = TestDirectory()
            let realm = try! directory.realm()
            let dog = Dog()
            try! realm.write { realm.add(dog) }
            let reference = ThreadSafeReference(to: dog)
            let elsewhere = TestDirectory()
            _ = try! elsewhere.realm().resolve(reference)
            _ = realm.resolve(reference)
        }
        expectMessage(result, "Can only resolve a thread safe reference once.")
    }

    @Test func referencingAnUnmanagedObjectTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = ThreadSafeReference(to: Dog())
        }
        expectMessage(result, "Cannot construct reference to unmanaged object")
    }

    @Test func referencingADeletedObjectTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let realm = MisuseTests.freshRealm()
            let dog = Dog()
            try! realm.write { realm.add(dog) }
            try! realm.write { realm.delete(dog) }
            _ = ThreadSafeReference(to: dog)
        }
        expectMessage(result, "Cannot construct reference to invalidated object")
    }

    @Test func wrappingAnUnmanagedObjectTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            @ThreadSafe var dog = Optional(Dog())
            _ = dog
        }
        expectMessage(result, "Only managed objects may be wrapped as thread safe.")
    }
}
