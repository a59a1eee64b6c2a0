import LMDB
import Burrow
import Foundation
import Testing

/// Backlinks, embedded objects and database handles stay consistent across bulk deletes,
/// threads and processes.
@Suite struct LinkConsistencyTests {
    let directory = TestDirectory()

    @Test func deletingAWholeClassWithListsClearsTheirBacklinks() throws {
        let realm = try directory.realm()
        let rex = Puppy(value: ["name": "Rex"])
        try realm.write { realm.add(Kennel(value: ["id": 1, "dogs": [rex]])) }
        try realm.write { realm.delete(realm.objects(Kennel.self)) }
        #expect(rex.kennels.count == 0)
        let fido = Puppy(value: ["name": "Fido"])
        try realm.write { realm.add(Kennel(value: ["id": 1, "dogs": [fido]])) }
        #expect(rex.kennels.count == 0)
        try realm.write { realm.delete(rex) }
        #expect(realm.object(ofType: Kennel.self, forPrimaryKey: 1)?.dogs.map(\.name) == ["Fido"])
        #expect(fido.kennels.map(\.id) == [1])
    }

    @Test func deletingAWholeClassWithEmbeddedListsDeletesTheEmbeddedObjects() throws {
        let realm = try directory.realm()
        try realm.write { realm.add(Trail(value: ["name": "t", "stops": [["latitude": 1.0], ["latitude": 2.0]]])) }
        let geo = try #require(realm.internals.publishedTable("Geo"))
        #expect(try geo.count() == 2)
        try realm.write { realm.delete(realm.objects(Trail.self)) }
        #expect(try geo.count() == 0)
    }

    @Test func backlinksAreInvisibleToAThreadUntilTheFirstLinkCommits() throws {
        let url = directory.file()
        let realm = try Realm(fileURL: url)
        try realm.write { realm.add(Owner(value: ["id": 1, "name": "Ann"])) }
        realm.beginWrite()
        realm.add(Puppy(value: ["name": "a", "owner": realm.object(ofType: Owner.self, forPrimaryKey: 1)!]))
        let counts = Locked<[Int]>([])
        onAnotherThread {
            let other = try! Realm(fileURL: url)
            counts.withLock { $0.append(other.object(ofType: Owner.self, forPrimaryKey: 1)!.puppies.count) }
        }
        try realm.commitWrite()
        onAnotherThread {
            let other = try! Realm(fileURL: url)
            counts.withLock { $0.append(other.object(ofType: Owner.self, forPrimaryKey: 1)!.puppies.count) }
        }
        #expect(counts.withLock { $0 } == [0, 1])
    }

    @Test func anOlderSnapshotDoesNotSeeTheNewBacklinkIndex() throws {
        let url = directory.file()
        let realm = try Realm(fileURL: url)
        try realm.write { realm.add(Owner(value: ["id": 1, "name": "Ann"])) }
        let ready = DispatchSemaphore(value: 0), go = DispatchSemaphore(value: 0), done = DispatchSemaphore(value: 0)
        let counts = Locked<[Int]>([])
        let thread = Thread {
            do {
                let other = try! Realm(fileURL: url)
                let owner = other.object(ofType: Owner.self, forPrimaryKey: 1)!
                ready.signal()
                go.wait()
                counts.withLock { $0.append(owner.puppies.count) }
                other.refresh()
                counts.withLock { $0.append(owner.puppies.count) }
            }
            done.signal()
        }
        thread.start()
        ready.wait()
        try realm.write { realm.add(Puppy(value: ["name": "a", "owner": realm.object(ofType: Owner.self, forPrimaryKey: 1)!])) }
        go.signal()
        done.wait()
        #expect(counts.withLock { $0 } == [0, 1])
    }

    @Test func aBacklinkIndexCreatedByAnotherProcessIsUsed() async throws {
        let path = directory.file().path
        // The realm lives on one thread across the wait for the child.
        let owner = ConfinedThread()
        defer { owner.stop() }
        var realm: Realm?
        try owner.run {
            realm = try Realm(fileURL: URL(fileURLWithPath: path))
            try realm!.write {
                realm!.add(Owner(value: ["id": 1, "name": "Ann"]))
                realm!.add(Puppy(value: ["name": "Rex"]))
            }
        }
        await #expect(processExitsWith: .success) { [path = path as String] in
            let child = try! Realm(fileURL: URL(fileURLWithPath: path))
            try! child.write { child.objects(Puppy.self).first!.owner = child.object(ofType: Owner.self, forPrimaryKey: 1)! }
        }
        try owner.run {
            defer { realm = nil }
            let realm = realm!
            realm.refresh()
            let ann = try #require(realm.object(ofType: Owner.self, forPrimaryKey: 1))
            let rex = try #require(realm.objects(Puppy.self).first)
            #expect(rex.owner?.name == "Ann")
            #expect(ann.puppies.count == 1)
            try realm.write { realm.delete(ann) }
            try realm.write { realm.add(Owner(value: ["id": 1, "name": "Someone else"])) }
            #expect(rex.owner == nil)
        }
    }

    @Test func aClassAddedByAnotherProcessIsReadableAfterRefresh() async throws {
        let path = directory.file().path
        let owner = ConfinedThread()
        defer { owner.stop() }
        var realm: Realm?
        try owner.run {
            realm = try Realm(fileURL: URL(fileURLWithPath: path))
            try realm!.write { realm!.add(Owner(value: ["id": 1, "name": "Ann"])) }
        }
        let olderSnapshotCount = Locked<Int?>(nil)
        let ready = DispatchSemaphore(value: 0), go = DispatchSemaphore(value: 0), done = DispatchSemaphore(value: 0)
        let thread = Thread {
            // The realm is gone before `done`, so the file is closed when the test ends.
            do {
                let other = try! Realm(fileURL: URL(fileURLWithPath: path))
                _ = other.objects(Owner.self).count
                ready.signal()
                go.wait()
                olderSnapshotCount.withLock { $0 = other.objects(Dog.self).count }
            }
            done.signal()
        }
        thread.start()
        ready.wait()
        await #expect(processExitsWith: .success) { [path = path as String] in
            let child = try! Realm(fileURL: URL(fileURLWithPath: path))
            try! child.write { child.add(Dog(value: ["name": "from the child"])) }
        }
        try owner.run {
            defer { realm = nil }
            realm!.refresh()
            #expect(realm!.objects(Dog.self).map(\.name) == ["from the child"])
        }
        go.signal()
        done.wait()
        #expect(olderSnapshotCount.withLock { $0 } == 0)
    }
}

extension LinkConsistencyTests {
    @Test func aQueryThroughALinkWorksBeforeTheTargetClassHasATable() throws {
        let realm = try directory.realm()
        let named = realm.objects(Puppy.self).filter("owner.name == 'Ann'")
        let unnamed = realm.objects(Puppy.self).filter("owner.name == nil")
        #expect(named.count == 0)
        try realm.write { realm.add(Puppy(value: ["name": "stray"])) }
        #expect(named.count == 0)
        #expect(unnamed.map(\.name) == ["stray"])
        try realm.write { realm.add(Puppy(value: ["name": "a", "owner": ["id": 1, "name": "Ann"]])) }
        #expect(named.map(\.name) == ["a"])
        #expect(unnamed.map(\.name) == ["stray"])
    }

    @Test func aLiveBacklinkQuerySeesTheFirstLink() throws {
        let realm = try directory.realm()
        try realm.write { realm.add(Owner(value: ["id": 1, "name": "Ann"])) }
        let owners = realm.objects(Owner.self).filter("puppies.@count > 0")
        #expect(owners.count == 0)
        try realm.write { realm.add(Puppy(value: ["name": "a", "owner": realm.object(ofType: Owner.self, forPrimaryKey: 1)!])) }
        #expect(owners.count == 1)
    }
}

extension LinkConsistencyTests {
    @Test func objectsOfATableCreatedInACancelledWriteReadAsInvalidated() throws {
        let realm = try directory.realm()
        let kennel = Kennel(value: ["id": 5, "name": "K"])
        realm.beginWrite()
        realm.add(kennel)
        realm.cancelWrite()
        try realm.write { realm.add(Owner(value: ["id": 5, "name": "Ann"])) }
        #expect(kennel.isInvalidated)
        #expect(realm.objects(Kennel.self).count == 0)
        try realm.write { realm.add(Kennel(value: ["id": 6, "name": "L"])) }
        #expect(realm.objects(Kennel.self).map(\.name) == ["L"])
        #expect(realm.objects(Owner.self).map(\.name) == ["Ann"])
    }

    @Test func objectsOfExistingTablesSurviveACancelledWriteThatCreatedAnother() throws {
        let realm = try directory.realm()
        try realm.write { realm.add(Owner(value: ["id": 1, "name": "Ann"])) }
        let ann = try #require(realm.object(ofType: Owner.self, forPrimaryKey: 1))
        realm.beginWrite()
        realm.add(Kennel(value: ["id": 5, "name": "K"]))
        ann.name = "Ann2"
        realm.cancelWrite()
        #expect(!ann.isInvalidated)
        #expect(ann.name == "Ann")
    }
}

extension LinkConsistencyTests {
    @Test func backlinkQueriesBeforeTheLinkingClassHasATableSeeNoLinkingObjects() throws {
        let realm = try directory.realm()
        try realm.write { realm.add(Owner(value: ["id": 1, "name": "Ann"])) }
        let owners = realm.objects(Owner.self)
        #expect(owners.filter("puppies.@count == 0").count == 1)
        #expect(owners.filter("puppies.@count > 0").count == 0)
        #expect(owners.filter("ANY puppies.name == 'Rex'").count == 0)
        #expect(owners.filter("ALL puppies.name == 'Rex'").count == 1)
        #expect(owners.filter("NONE puppies.name == 'Rex'").count == 1)
    }

    @Test func mapBacklinksCountTheEntriesThatShareAHashedPosition() throws {
        let realm = try directory.realm()
        let ledger = Ledger(value: ["id": 1, "pets": ["a": ["name": "Rex"]]])
        try realm.write { realm.add(ledger) }
        let internals = realm.internals
        let rex = try #require(ledger.pets["a"] ?? nil)
        /// The backlink entries under Rex.
        func entryCount() throws -> Int { try internals.backlinkEntryCount(to: rex) }
        #expect(try entryCount() == 1)
        // A second entry at the same position (as a key with the same hash would make), then
        // one removal: the backlink stays for the entry that still links.
        try realm.write {
            try internals.changeMapBacklink(from: ledger, property: "pets", atPositionOf: "a", to: rex, adding: true)
            try internals.changeMapBacklink(from: ledger, property: "pets", atPositionOf: "a", to: rex, adding: false)
        }
        #expect(try entryCount() == 1)
        try realm.write { ledger.pets["a"] = nil as Puppy? }
        #expect(try entryCount() == 0)
    }
}
