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

    @Test func anUnmanagedOrDeletedObjectEqualsNoStoredObject() throws {
        let directory = TestDirectory()
        let (realm, owner, _) = try realmWithTwinKeys(directory)
        let gone = Owner(value: ["id": 2, "name": "Gone"])
        try realm.write {
            realm.add(Puppy(value: ["name": "Bo"]))  // no owner
            realm.add(Kennel(value: ["id": 2]))  // no dogs
            realm.add(gone)
            realm.add(Puppy(value: ["name": "Ace", "owner": gone]))
            realm.delete(gone)
        }
        let puppies = realm.objects(Puppy.self), kennels = realm.objects(Kennel.self)
        // An Owner with the same primary key as the stored one has the same object key once added.
        for absent in [Owner(value: ["id": 1]), gone] {
            #expect(puppies.filter("owner == %@", absent).count == 0)
            #expect(puppies.filter("owner != %@", absent).count == 3)  // a nil link too, as realm-core says
            #expect(puppies.filter("owner IN %@", [absent, owner]).count == 1)
            #expect(puppies.where { $0.owner == absent }.count == 0)
            #expect(puppies.where { $0.owner != absent }.count == 3)
            #expect(puppies.where { $0.owner.in([absent]) }.count == 0)
            #expect(owner.puppies.filter("owner == %@", absent).count == 0)
        }
        expectError(.invalidQuery) { try puppies.validate(QueryPredicate("age == %@", Owner())) }
        let absentPuppy = Puppy(value: ["name": "Rex"])
        #expect(kennels.filter("ANY dogs == %@", absentPuppy).count == 0)
        #expect(kennels.filter("ANY dogs != %@", absentPuppy).count == 1)  // the kennel with a dog
        #expect(kennels.where { $0.dogs.contains(absentPuppy) }.count == 0)
        #expect(kennels.where { $0.dogs == absentPuppy }.count == 0)
        #expect(realm.objects(Bag.self).filter("ANY items == %@", absentPuppy).count == 0)
        try realm.write { realm.add(absentPuppy) }
        #expect(kennels.filter("ANY dogs == %@", absentPuppy).count == 0)  // added, but in no kennel
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
