import Burrow
import Foundation
import Testing

/// `%@` arguments that once matched wrongly or crashed the process.
@Suite struct QueryArgumentTests {
    /// An owner and a kennel with the same integer primary key have the same object key.
    private func realmWithTwinKeys(_ directory: TestDirectory) throws -> (Realm, Owner, Kennel) {
        let realm = try directory.realm()
        let owner = Owner(value: ["id": 1, "name": "Ann"])
        let kennel = Kennel(value: ["id": 1, "name": "North"])
        try realm.write {
            realm.add(Puppy(value: ["name": "Rex", "owner": owner]))
            kennel.dogs.append(realm.objects(Puppy.self).first!)
            realm.add(kennel)
        }
        return (realm, owner, kennel)
    }

    @Test func anObjectOfAnotherClassWithTheSameKeyIsRefused() throws {
        let directory = TestDirectory()
        let (realm, owner, kennel) = try realmWithTwinKeys(directory)
        #expect(owner.internals.key == kennel.internals.key)
        let puppies = realm.objects(Puppy.self)
        #expect(puppies.filter("owner == %@", owner).count == 1)
        expectError(.invalidQuery) { try puppies.validate(QueryPredicate("owner == %@", kennel)) }
        expectError(.invalidQuery) { try puppies.validate(QueryPredicate("owner IN %@", [kennel])) }
        let kennels = realm.objects(Kennel.self)
        #expect(kennels.filter("ANY dogs == %@", puppies.first!).count == 1)
        expectError(.invalidQuery) { try kennels.validate(QueryPredicate("ANY dogs == %@", owner)) }
    }

    @Test func anObjectArgumentMatchesAnAnyRealmValueOnlyForItsOwnClass() throws {
        let directory = TestDirectory()
        let (realm, owner, kennel) = try realmWithTwinKeys(directory)
        try realm.write { realm.add(Bag(value: ["items": [AnyRealmValue.object(owner)]])) }
        let bags = realm.objects(Bag.self)
        #expect(bags.filter("ANY items == %@", owner).count == 1)
        #expect(bags.filter("ANY items == %@", kennel).count == 0)
    }

    @Test func decimalsCompareWithInfiniteAndHugeDoubles() throws {
        let directory = TestDirectory()
        let realm = try directory.realm()
        try realm.write {
            realm.add(AllTypes(value: ["decimal": Decimal(string: "12.5")!]))
            realm.add(AllTypes(value: ["decimal": Decimal(string: "-3")!]))
        }
        let all = realm.objects(AllTypes.self)
        #expect(all.filter("decimal > 1e309").count == 0)
        #expect(all.filter("decimal < 1e309").count == 2)
        #expect(all.filter("decimal == %@", Double.infinity).count == 0)
        #expect(all.filter("decimal > %@", -Double.infinity).count == 2)
        #expect(all.filter("decimal < 1e200").count == 2)
        #expect(all.filter("decimal > 1e-300").count == 1)
        #expect(all.filter("decimal IN %@", [Double.infinity, 12.5, 1e200]).count == 1)
        #expect(all.filter("decimal == %@", Double.nan).count == 0)
    }

    @Test func aNotANumberDateIsReportedNotCrashedOn() throws {
        let directory = TestDirectory()
        let realm = try directory.realm()
        let nan = Date(timeIntervalSinceReferenceDate: .nan)
        expectError(.invalidQuery) { try realm.objects(Dog.self).validate(QueryPredicate("age == %@", nan)) }
        expectError(.invalidQuery) { try realm.objects(Dog.self).validate(QueryPredicate("name BEGINSWITH %@", nan)) }
        #expect(realm.objects(Person.self).filter("birthdate == %@", nan).count == 0)
    }
}
