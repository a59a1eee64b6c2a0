import Burrow
import Foundation
import Testing

/// A write whose data breaks a constraint (a primary key already taken, a value of the wrong
/// type for `create`) fails as a whole and throws, instead of ending the process: a server
/// cannot let a request's data stop it.
@Suite struct ConstraintFailureTests {
    let directory = TestDirectory()

    private func seeded() throws -> Realm {
        let realm = try directory.realm()
        try realm.write { realm.add(Person(value: ["id": 1, "name": "Ann"])) }
        return realm
    }

    @Test func aDuplicatePrimaryKeyFailsTheWholeWrite() throws {
        let realm = try seeded()
        let newcomer = Person(value: ["id": 2, "name": "Bob"])
        let duplicate = Person(value: ["id": 1, "name": "Imposter"])
        let error = try #require(throws: Realm.Error.self) {
            try realm.write {
                realm.add(newcomer)
                realm.add(duplicate)
                realm.objects(Person.self).first!.name = "Changed"
            }
        }
        #expect(error.code == .primaryKeyExists)
        #expect(error.message == "Attempting to create an object of type 'Person' with an existing primary key value '1'.")
        #expect(!realm.isInWriteTransaction)
        // Nothing of the write was kept: not the object added before, not the change after.
        #expect(realm.objects(Person.self).map(\.name) == ["Ann"])
        // The object added before the failure is invalidated with the write; the duplicate was
        // never added.
        #expect(newcomer.isInvalidated && duplicate.realm == nil)
        // The realm goes on.
        try realm.write { realm.add(Person(value: ["id": 3, "name": "Cy"])) }
        #expect(realm.objects(Person.self).map(\.id) == [1, 3])
    }

    @Test func errorsCanBeMatchedByCode() throws {
        let realm = try seeded()
        do {
            try realm.write { _ = realm.create(Person.self, value: ["id": 1]) }
            Issue.record("the write should have thrown")
        } catch Realm.Error.primaryKeyExists {
            #expect(realm.objects(Person.self).count == 1)
        }
    }

    @Test func duplicatesInsideOneWriteAndOfOtherKeyTypesFailToo() throws {
        let realm = try directory.realm()
        let error = try #require(throws: Realm.Error.self) {
            try realm.write {
                realm.add(StringKeyed(value: ["key": "naïve 🦫"]))
                realm.add(StringKeyed(value: ["key": "naïve 🦫"]))
            }
        }
        #expect(error.message.contains("existing primary key value 'naïve 🦫'"))
        #expect(realm.isEmpty)
        let id = UUID()
        expectFailure(.primaryKeyExists) {
            try realm.write {
                realm.add(UUIDKeyed(value: ["key": id]))
                realm.create(UUIDKeyed.self, value: ["key": id])
            }
        }
        #expect(realm.isEmpty)
    }

    @Test func updatePoliciesStillUpsert() throws {
        let realm = try seeded()
        try realm.write {
            realm.add(Person(value: ["id": 1, "name": "Ann B"]), update: .modified)
            realm.create(Person.self, value: ["id": 1, "age": 30], update: .modified)
        }
        let ann = try #require(realm.object(ofType: Person.self, forPrimaryKey: 1))
        #expect(ann.name == "Ann B" && ann.age == 30)
    }

    @Test func aValueOfTheWrongTypeInCreateFailsTheWrite() throws {
        let realm = try seeded()
        let error = try #require(throws: Realm.Error.self) {
            try realm.write {
                realm.create(Person.self, value: ["id": 2, "name": "Bob"])
                realm.create(Person.self, value: ["id": 3, "name": 42])
            }
        }
        #expect(error.code == .invalidValue)
        #expect(error.message == "Invalid value '42' of type 'Int' for 'String' property 'Person.name'.")
        #expect(realm.objects(Person.self).map(\.id) == [1])
        // An upsert of an existing object with a bad value changes nothing either.
        expectFailure(.invalidValue) {
            try realm.write { _ = realm.create(Person.self, value: ["id": 1, "name": "Ann C", "age": "old"], update: .modified) }
        }
        #expect(realm.object(ofType: Person.self, forPrimaryKey: 1)?.name == "Ann")
        #expect(realm.object(ofType: Person.self, forPrimaryKey: 1)?.age == nil)
    }

    @Test func badValuesNestedInLinksAndListsFailTheWrite() throws {
        let realm = try directory.realm()
        expectFailure(.invalidValue) {
            try realm.write { _ = realm.create(Puppy.self, value: ["name": "Rex", "owner": ["id": "seven"]]) }
        }
        expectFailure(.invalidValue) {
            try realm.write { _ = realm.create(Kennel.self, value: ["id": 1, "dogs": [["name": "A"], 5]]) }
        }
        expectFailure(.invalidValue) {
            try realm.write { _ = realm.create(Kennel.self, value: ["id": 1, "tags": 5]) }
        }
        expectFailure(.invalidValue) {
            try realm.write { _ = realm.create(Person.self, value: 17) }
        }
        #expect(realm.isEmpty)
    }

    @Test func commitWriteThrowsForAnExplicitTransaction() throws {
        let realm = try seeded()
        realm.beginWrite()
        realm.add(Person(value: ["id": 1]))
        expectFailure(.primaryKeyExists) { try realm.commitWrite() }
        #expect(!realm.isInWriteTransaction)
        #expect(realm.objects(Person.self).count == 1)
    }

    @MainActor @Test func asyncWritesReportTheFailure() async throws {
        let realm = try await Realm.open(configuration: directory.configuration())
        try await realm.asyncWrite { realm.add(Person(value: ["id": 1])) }
        let error = await #expect(throws: Realm.Error.self) {
            try await realm.asyncWrite { realm.add(Person(value: ["id": 1])) }
        }
        #expect(error?.code == .primaryKeyExists)
        #expect(realm.objects(Person.self).count == 1)
        #expect(!realm.isInWriteTransaction)
    }
}

/// Expects `body` to throw a ``Realm/Error`` of `code`.
private func expectFailure(_ code: Realm.Error.Code, sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Void) {
    let error = #expect(throws: Realm.Error.self, sourceLocation: sourceLocation) { try body() }
    #expect(error?.code == code, sourceLocation: sourceLocation)
}
