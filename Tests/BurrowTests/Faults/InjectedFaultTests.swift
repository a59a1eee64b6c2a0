import Burrow
import Foundation
import LMDB
import CLMDB
import Testing

/// LMDB failures made to happen through the wrapper's fault injector: each error path above it
/// either retries or reports, and loses nothing that was committed.
@Suite struct InjectedFaultTests {
    private func faults(of realm: Realm) -> FaultInjector { realm.internals.faults }

    @Test func readersFullAtOpenThrowsLimitExceededAndOpensLater() throws {
        let directory = TestDirectory()
        let realm = try directory.realm()
        try realm.write { realm.add(Dog(value: ["name": "Rex"])) }
        // Every begin fails; clearing dead readers frees nothing, so the open gives up.
        faults(of: realm).inject(MDB_READERS_FULL, at: .begin, times: 3)
        let configuration = directory.configuration()
        onAnotherThread {
            expectError(.limitExceeded) { try Realm(configuration: configuration) }
        }
        faults(of: realm).clear()
        onAnotherThread {
            #expect(try! Realm(configuration: configuration).objects(Dog.self).count == 1)
        }
    }

    @Test func aMapResizedByAnotherProcessIsAdoptedAndTheWriteGoesOn() throws {
        let directory = TestDirectory()
        let realm = try directory.realm()
        faults(of: realm).inject(MDB_MAP_RESIZED, at: .begin)
        try realm.write { realm.add(Dog(value: ["name": "Rex"])) }
        #expect(faults(of: realm).pendingCount == 0)
        #expect(realm.objects(Dog.self).count == 1)
    }

    @Test func aFullMapCancelsTheWriteAndKeepsEarlierCommits() throws {
        let directory = TestDirectory()
        let realm = try directory.realm()
        try realm.write { realm.add(Dog(value: ["name": "Rex"])) }
        faults(of: realm).inject(MDB_MAP_FULL, at: .put)
        let lost = Dog(value: ["name": "Lost"])
        expectError(.outOfDiskSpace) { try realm.write { realm.add(lost) } }
        #expect(!realm.isInWriteTransaction)
        #expect(realm.objects(Dog.self).map(\.name) == ["Rex"])
        try realm.write { realm.add(Dog(value: ["name": "Max"])) }
        #expect(realm.objects(Dog.self).map(\.name) == ["Rex", "Max"])
    }

    @Test(arguments: [(ENOSPC, Realm.Error.Code.outOfDiskSpace), (EIO, .fileAccess), (MDB_MAP_FULL, .outOfDiskSpace)])
    func aFailedCommitThrowsAndLosesNothingCommitted(_ fault: (code: Int32, expected: Realm.Error.Code)) throws {
        let directory = TestDirectory()
        let realm = try directory.realm()
        try realm.write { realm.add(Person(value: ["id": 1, "name": "Jane"])) }
        faults(of: realm).inject(fault.code, at: .commit)
        let added = Person(value: ["id": 2, "name": "Joe"])
        expectError(fault.expected) {
            try realm.write {
                realm.add(added)
                realm.object(ofType: Person.self, forPrimaryKey: 1)!.name = "Changed"
            }
        }
        #expect(added.isInvalidated)
        #expect(realm.objects(Person.self).map(\.name) == ["Jane"])
        // The writer lock was released: the next write commits, and a reopen sees it.
        try realm.write { realm.add(Person(value: ["id": 3, "name": "Ann"])) }
        let configuration = directory.configuration()
        onAnotherThread {
            let other = try! Realm(configuration: configuration)
            #expect(other.objects(Person.self).map(\.id) == [1, 3])
        }
        expectIntact(directory.file())
    }

    @Test(.plainFilesOnly("it reads link records directly")) func aFailedReadInsideAPredicateIsThrownByTheEvaluation() throws {
        let directory = TestDirectory()
        let realm = try directory.realm()
        try realm.write { realm.add(Puppy(value: ["name": "Rex", "owner": Owner(value: ["id": 1, "name": "Ann"])])) }
        let links = realm.internals.linkReads()
        faults(of: realm).inject(EIO, at: .get)
        #expect(links.row(primaryKey: 1, in: "Owner") == nil)
        #expect(throws: LMDBError(code: EIO)) { try links.throwFailure() }
        // Reads after the failure are not attempted; the next evaluation starts clean.
        links.startEvaluation()
        #expect(links.row(primaryKey: 1, in: "Owner") != nil)
    }

    @Test func aFailedReadThroughALinkTrapsInsteadOfMatchingFewer() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let directory = TestDirectory()
            let realm = try! directory.realm()
            try! realm.write { realm.add(Puppy(value: ["name": "Rex", "owner": Owner(value: ["id": 1, "name": "Ann"])])) }
            let puppies = realm.objects(Puppy.self).filter("owner.name == 'Ann'")
            // The scan's first read passes; the read of the owner's row fails.
            realm.internals.faults.inject(EIO, at: .get, skipping: 1)
            print(puppies.count)
        }
        expectMessage(result, "Input/output error")
    }

    @Test func aFailedReadIsNotReportedAsADeletedObject() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let directory = TestDirectory()
            let realm = try! directory.realm()
            let dog = Dog(value: ["name": "Rex"])
            try! realm.write { realm.add(dog) }
            realm.internals.faults.inject(EIO, at: .get)
            print(dog.isInvalidated)
        }
        expectMessage(result, "Cannot read object of type 'Dog'")
    }
}
