import Burrow
import CLMDB
import Foundation
import LMDB
import Testing

/// Each kind of write, failing at each LMDB call it makes, with each error a disk gives: the
/// error surfaces with its code, nothing committed is lost, the write transaction is aborted
/// exactly once, the writer lock is free for the next writer, and the file verifies.
@Suite struct WriteFaultMatrixTests {
    /// A write a user makes.
    enum Operation: String, CustomTestStringConvertible {
        case insert, update, delete, addClass
        var testDescription: String { rawValue }

        /// Makes the write's changes, inside it.
        func perform(in realm: Realm) {
            switch self {
            case .insert: realm.add(Person(value: ["id": 2, "name": "Joe"]))
            case .update: realm.object(ofType: Person.self, forPrimaryKey: 1)!.age = 5
            case .delete: realm.delete(realm.object(ofType: Person.self, forPrimaryKey: 1)!)
            case .addClass: realm.add(Dog(value: ["name": "Rex"]))  // the file has no table for Dog yet
            }
        }
    }

    /// Every operation with each LMDB call it reaches.
    static let cases: [(Operation, FaultInjector.Point)] = [
        (.insert, .put), (.insert, .commit),
        (.update, .cursorPut), (.update, .commit),
        (.delete, .delete), (.delete, .commit),
        (.addClass, .openDatabase), (.addClass, .put), (.addClass, .commit),
    ]

    /// What each error a disk gives becomes.
    static let errors: [(code: Int32, expected: Realm.Error.Code)] = [
        (ENOSPC, .outOfDiskSpace), (EIO, .fileAccess), (MDB_MAP_FULL, .outOfDiskSpace),
    ]

    @Test(arguments: cases, errors)
    func aFailedCallCancelsTheWriteAndLosesNothing(_ failing: (operation: Operation, point: FaultInjector.Point),
                                                   _ error: (code: Int32, expected: Realm.Error.Code)) throws {
        let directory = TestDirectory()
        let configuration = directory.configuration()
        let realm = try Realm(configuration: configuration)
        try realm.write { realm.add(Person(value: ["id": 1, "name": "Jane"])) }
        let faults = realm.internals.faults
        faults.inject(error.code, at: failing.point)
        faults.startTracing()
        expectError(error.expected) {
            try realm.write { failing.operation.perform(in: realm) }
        }
        #expect(faults.pendingCount == 0, "\(failing.operation) did not reach \(failing.point)")
        #expect(faults.trace.count { $0 == .abort } == 1, "the write was aborted \(faults.trace.count { $0 == .abort }) times")
        faults.clear()
        #expect(!realm.isInWriteTransaction)

        // Nothing committed is lost, nothing of the failed write is there.
        let people = realm.objects(Person.self)
        #expect(people.map(\.id) == [1])
        #expect(people.first?.name == "Jane")
        #expect(people.first?.age == nil)
        #expect(realm.objects(Dog.self).isEmpty)

        // The writer lock is free: another thread writes, and this realm sees it.
        onAnotherThread {
            let other = try! Realm(configuration: configuration)
            try! other.write { other.add(Person(value: ["id": 3, "name": "Ann"])) }
        }
        realm.refresh()
        #expect(realm.objects(Person.self).map(\.id) == [1, 3])
        try realm.write { failing.operation.perform(in: realm) }

        expectIntact(directory.file())
    }
}
