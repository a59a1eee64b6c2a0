@testable import Burrow
@testable import LMDB
import Foundation
import Testing

/// The change log: what each commit did to objects, reduced to each object's net change,
/// stored with the commit, merged across commits and trimmed once no reader needs it.
@Suite struct ChangeLogTests {
    let directory = TestDirectory()

    private func events(_ list: [(UInt64, ChangeSet.Event.Kind, UInt32)]) -> ChangeSet {
        let set = ChangeSet()
        for (key, kind, property) in list {
            switch kind {
            case .insertion: set.inserted(ObjectKey(key), classID: 1)
            case .deletion: set.deleted(ObjectKey(key), classID: 1)
            case .modification: set.modified(ObjectKey(key), propertyID: property, classID: 1)
            }
        }
        return set
    }

    @Test func eachObjectIsReducedToItsNetChange() {
        let set = events([(5, .modification, 2), (1, .insertion, 0), (1, .modification, 3), (2, .insertion, 0), (2, .deletion, 0),
                          (3, .deletion, 0), (3, .insertion, 0), (4, .modification, 3), (4, .modification, 2), (4, .modification, 3),
                          (6, .modification, 1), (6, .deletion, 0)])
        let changes = set.net[1]!
        #expect(changes.insertions == [1, 3])
        #expect(changes.deletions == [3, 6])
        #expect(changes.modifications.map(\.key) == [4, 5])
        #expect(changes.modifications.map(\.properties) == [[2, 3], [2]])
        #expect(!changes.cleared)
        #expect(ChangeSet().net.isEmpty)
        #expect(events([(7, .insertion, 0), (7, .deletion, 0)]).net.isEmpty)
    }

    @Test func emptyingAClassOverridesWhatCameBefore() {
        let set = events([(1, .modification, 2), (2, .deletion, 0)])
        set.cleared(classID: 1)
        set.inserted(ObjectKey(9), classID: 1)
        set.modified(ObjectKey(9), propertyID: 4, classID: 1)
        let changes = set.net[1]!
        #expect(changes.cleared)
        #expect(changes.insertions == [9])
        #expect(changes.deletions.isEmpty && changes.modifications.isEmpty)
    }

    @Test func commitsMergeInOrder() {
        let first = events([(1, .insertion, 0), (2, .modification, 1), (3, .modification, 1)]).net[1]!
        let second = events([(1, .modification, 5), (2, .deletion, 0), (3, .modification, 2), (4, .deletion, 0), (4, .insertion, 0)]).net[1]!
        let merged = first.followed(by: second)
        #expect(merged.insertions == [1, 4])
        #expect(merged.deletions == [2, 4])
        #expect(merged.modifications.map(\.key) == [3])
        #expect(merged.modifications.first?.properties == [1, 2])
        let third = events([(1, .deletion, 0)]).net[1]!
        // Created and deleted again within the span: nothing to report.
        #expect(merged.followed(by: third).insertions == [4])
        let emptied = ChangeSet()
        emptied.cleared(classID: 1)
        #expect(merged.followed(by: emptied.net[1]!).cleared)
    }

    @Test func recordsRoundTripInRanges() throws {
        let set = ChangeSet()
        for key in 1...1_000 { set.inserted(ObjectKey(UInt64(key)), classID: 3) }
        for key in 2_000...2_500 { set.modified(ObjectKey(UInt64(key)), propertyID: 7, classID: 3) }
        set.modified(ObjectKey(3_000), propertyID: 8, classID: 3)
        set.deleted(ObjectKey(UInt64.max - 1), classID: 4)
        let reduced = set.reduced()
        let bytes = ChangeLogRecord.encode(reduced)
        // A thousand inserted keys and 501 modified ones are a few ranges.
        #expect(bytes.count < 40)
        let decoded = try bytes.withUnsafeBytes { try ChangeLogRecord.decode($0) }
        #expect(decoded == reduced.mapValues(ObjectChanges.init))
    }

    @Test func changesOfConsecutiveObjectsAreRecordedAsRuns() throws {
        let set = ChangeSet()
        for key in 1...1_000_000 { set.modified(ObjectKey(UInt64(key)), propertyID: 4, classID: 1) }
        // The same change again, with nothing in between, adds nothing.
        set.modified(ObjectKey(500), propertyID: 4, classID: 1)
        for key in 10...20 { set.inserted(ObjectKey(UInt64(key)), classID: 2) }
        for key in 30...40 { set.deleted(ObjectKey(UInt64(key)), classID: 2) }
        #expect(set.classes.map(\.events.count) == [1, 2])
        let reduced = set.reduced()
        #expect(reduced[1]?.modifications == [ChangeRuns.Modified(keys: 1...1_000_000, properties: [4])])
        #expect(reduced[2]?.insertions == [10...20])
        #expect(reduced[2]?.deletions == [30...40])
        let bytes = ChangeLogRecord.encode(reduced)
        #expect(bytes.count < 30)
        let decoded = try bytes.withUnsafeBytes { try ChangeLogRecord.decode($0) }
        #expect(decoded[1]?.modifications.count == 1_000_000)
        #expect(decoded == reduced.mapValues(ObjectChanges.init))
    }

    /// Random writes over a few keys (runs, repeats, clears, deletions and insertions of the
    /// same objects) reduce as they would recorded one event per object, and read back the same.
    @Test func runsReduceAsEventsOneByOne() throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let set = ChangeSet()
            var reference: [ChangeSet.Event] = []
            var clearedAfter: Int?
            for _ in 0..<Int.random(in: 0...12, using: &generator) {
                if Int.random(in: 0..<20, using: &generator) == 0 {
                    set.cleared(classID: 1)
                    clearedAfter = reference.count
                    continue
                }
                let kind = [ChangeSet.Event.Kind.insertion, .deletion, .modification].randomElement(using: &generator)!
                let property = kind == .modification ? UInt32.random(in: 1...2, using: &generator) : 0
                let first = UInt64.random(in: 0...12, using: &generator)
                // Up against the greatest key too.
                let base = Bool.random(using: &generator) ? 0 : UInt64.max - 12
                for key in first...min(12, first + UInt64.random(in: 0...4, using: &generator)) {
                    switch kind {
                    case .insertion: set.inserted(ObjectKey(base + key), classID: 1)
                    case .deletion: set.deleted(ObjectKey(base + key), classID: 1)
                    case .modification: set.modified(ObjectKey(base + key), propertyID: property, classID: 1)
                    }
                    reference.append(ChangeSet.Event(key: base + key, propertyID: property, kind: kind))
                }
            }
            let expected = ObjectChanges(events: ChangeSet.sortedByKey(reference[(clearedAfter ?? 0)...]), cleared: clearedAfter != nil)
            let reduced = set.reduced()
            #expect((reduced[1].map(ObjectChanges.init) ?? ObjectChanges()) == expected)
            let decoded = try ChangeLogRecord.encode(reduced).withUnsafeBytes { try ChangeLogRecord.decode($0) }
            #expect((decoded[1] ?? ObjectChanges()) == expected)
        }
    }

    @Test func theGreatestPrimaryKeysAreLogged() throws {
        let realm = try Realm(configuration: directory.configuration(objectTypes: [Person.self]))
        let people = realm.objects(Person.self).sorted(byKeyPath: "id")
        var updates: [[[Int]]] = []
        let token = people.observe { change in
            if case .update(_, let deleted, let inserted, let modified) = change { updates.append([deleted, inserted, modified]) }
        }
        defer { token.invalidate() }
        try realm.write {
            realm.add(Person(value: ["id": Int.max - 1]))
            realm.add(Person(value: ["id": Int.max]))
            realm.add(Person(value: ["id": Int.min]))
        }
        try realm.write { for person in people { person.name = "changed" } }
        try realm.write { realm.delete(people.filter("id == %@", Int.max)) }
        #expect(updates == [[[], [0, 1, 2], []], [[], [], [0, 1, 2]], [[2], [], []]])
        #expect(Array(people.map(\.id)) == [Int.min, Int.max - 1])
    }

    @Test func aDamagedRecordIsAnErrorNeverACrash() throws {
        let set = ChangeSet()
        for key in [1, 2, 3, 10, 11, 40] { set.inserted(ObjectKey(UInt64(key)), classID: 2) }
        set.modified(ObjectKey(50), propertyID: 3, classID: 2)
        set.cleared(classID: 5)
        let bytes = ChangeLogRecord.encode(set.reduced())
        var generator = SystemRandomNumberGenerator()
        var refused = 0
        for length in 0..<bytes.count {
            if (try? Array(bytes[..<length]).withUnsafeBytes({ try ChangeLogRecord.decode($0) })) == nil { refused += 1 }
        }
        #expect(refused == bytes.count, "every truncation is refused")
        for _ in 0..<2_000 {
            var damaged = bytes
            damaged[Int.random(in: 0..<damaged.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            _ = try? damaged.withUnsafeBytes { try ChangeLogRecord.decode($0) }
        }
        // Lengths that would name billions of keys are refused before anything is allocated.
        var huge: [UInt8] = [ChangeLogRecord.version, 1, 2, 0, 1, 0]
        Varint.append(1 << 40, to: &huge)
        huge += [0, 0]
        #expect(throws: StorageError.self) { try huge.withUnsafeBytes { try ChangeLogRecord.decode($0) } }
    }

    @Test func commitsStoreWhatTheyDidToObjects() throws {
        let realm = try Realm(configuration: directory.configuration(objectTypes: [Dog.self, Person.self]))
        // Writes log their changes while someone observes the file.
        let token = realm.observe { _, _ in }
        defer { token.invalidate() }
        let before = realm.internals.readTransaction.id
        try realm.write {
            realm.add(Dog(value: ["name": "Rex", "age": 1]))
            realm.add(Dog(value: ["name": "Ida", "age": 2]))
        }
        let rex = realm.objects(Dog.self).filter("name == 'Rex'").first!
        let afterInsert = realm.internals.readTransaction.id
        try realm.write { rex.age = 5 }
        try realm.write { realm.delete(realm.objects(Dog.self).filter("name == 'Ida'")) }
        let coordinator = realm.internals.coordinator
        let dogs = realm.internals.bound(Dog.self)!.layout
        let ageID = dogs.storedClass.properties.first { $0.name == "age" }!.id
        let txn = try coordinator.environment.beginReadTransaction()
        defer { txn.abort() }
        let all = try #require(try coordinator.metadata.changes(after: before, in: txn))
        #expect(all.keys.sorted() == [dogs.classID])
        // Ida came and went; Rex is new since `before`.
        #expect(all[dogs.classID]?.insertions.count == 1)
        #expect(all[dogs.classID]?.deletions.isEmpty == true)
        let later = try #require(try coordinator.metadata.changes(after: afterInsert, in: txn))
        #expect(later[dogs.classID]?.modifications.first?.properties == [ageID])
        #expect(later[dogs.classID]?.deletions.count == 1)
        #expect(try coordinator.metadata.changes(after: txn.id, in: txn)?.isEmpty == true)
    }

    @Test func theLogIsTrimmedToWhatReadersHold() throws {
        let realm = try Realm(configuration: directory.configuration(objectTypes: [Dog.self]))
        let token = realm.observe { _, _ in }
        defer { token.invalidate() }
        let coordinator = realm.internals.coordinator
        // A reader pinned at this version keeps every record after it.
        let pinned = try coordinator.environment.beginReadTransaction()
        let pinnedID = pinned.id
        for age in 0..<100 { try realm.write { realm.add(Dog(value: ["age": age])) } }
        let now = try coordinator.environment.beginReadTransaction()
        let held = try #require(try coordinator.metadata.changes(after: pinnedID, in: now))
        #expect(held.values.first?.insertions.count == 100)
        now.abort()
        pinned.abort()
        realm.invalidate()
        for age in 0..<100 { try realm.write { realm.add(Dog(value: ["age": age])) } }
        let latest = try coordinator.environment.beginReadTransaction()
        defer { latest.abort() }
        #expect(try coordinator.metadata.changeLogCount(in: latest) <= 2 * TableWriter.commitsPerTrim)
        // A reader that asks about a span whose records were deleted learns so.
        #expect(try coordinator.metadata.changes(after: pinnedID, in: latest) == nil)
    }

    @Test func writesNobodyObservesSkipTheLogAndSaySo() throws {
        let realm = try Realm(configuration: directory.configuration(objectTypes: [Dog.self]))
        let coordinator = realm.internals.coordinator
        let before = realm.internals.readTransaction.id
        try realm.write { realm.add(Dog()) }
        let txn = try coordinator.environment.beginReadTransaction()
        #expect(try coordinator.metadata.changeLogCount(in: txn) == 0)
        // A reader of that span learns the log cannot tell.
        #expect(try coordinator.metadata.changes(after: before, in: txn) == nil)
        txn.abort()
        // Another process's observation is seen through the notify file: two presences of one
        // file stand for two processes (flock locks belong to the open file).
        let other = ObserverPresence(dataPath: directory.file().path)
        #expect(!coordinator.observerPresence.isObserved)
        other.acquire(mode: 0o600)
        #expect(coordinator.observerPresence.isObserved)
        let mode = try FileManager.default.attributesOfItem(atPath: directory.file().path + ".notify")[.posixPermissions] as? Int
        #expect(mode == 0o600)
        try realm.write { realm.add(Dog()) }
        let after = try coordinator.environment.beginReadTransaction()
        #expect(try coordinator.metadata.changeLogCount(in: after) == 1)
        after.abort()
        other.release()
        #expect(!coordinator.observerPresence.isObserved)
    }
}

extension ChangeSet {
    /// The net change of each class, key by key.
    fileprivate var net: [UInt32: ObjectChanges] { reduced().mapValues(ObjectChanges.init) }
}
