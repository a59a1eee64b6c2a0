import Burrow
import Foundation
import Testing

/// `#Predicate` through links, into lists, sets, linking objects and embedded objects.
@Suite struct FoundationPredicateRelationshipTests {
    let directory = TestDirectory()

    /// Owners Ann (0) and Bob (1, Ann's partner); puppies Rex (Ann, 3), Fido (Ann, 12),
    /// Spot (Bob, 7), Stray (none, 1); kennels North [Rex, Fido] tagged "a", "big" and
    /// South [Spot] tagged "b", and Empty with nothing.
    private func seeded() throws -> Realm {
        let realm = try directory.realm()
        try realm.write {
            let ann = Owner(value: ["id": 0, "name": "Ann"])
            let bob = Owner(value: ["id": 1, "name": "Bob", "partner": ann])
            let puppies = [("Rex", 3, ann), ("Fido", 12, ann), ("Spot", 7, bob), ("Stray", 1, nil)].map { name, age, owner in
                Puppy(value: ["name": name, "age": age, "owner": owner as Any])
            }
            realm.add(puppies)
            realm.add(Kennel(value: ["id": 0, "name": "North", "dogs": [puppies[0], puppies[1]], "tags": ["a", "big"]]))
            realm.add(Kennel(value: ["id": 1, "name": "South", "dogs": [puppies[2]], "tags": ["b"]]))
            realm.add(Kennel(value: ["id": 2, "name": "Empty"]))
        }
        return realm
    }

    private func names(_ results: Results<Puppy>) -> [String] { results.map(\.name).sorted() }
    private func names(_ results: Results<Kennel>) -> [String] { results.map(\.name).sorted() }

    @Test func linksFollowOptionalChainingAndForcedUnwraps() throws {
        let puppies = try seeded().objects(Puppy.self)
        #expect(try names(puppies.filter(#Predicate { $0.owner?.name == "Ann" })) == ["Fido", "Rex"])
        #expect(try names(puppies.filter(#Predicate { $0.owner!.name != "Ann" })) == ["Spot", "Stray"])
        #expect(try names(puppies.filter(#Predicate { $0.owner?.partner?.name == "Ann" })) == ["Spot"])
        #expect(try names(puppies.filter(#Predicate { $0.owner == nil })) == ["Stray"])
        #expect(try names(puppies.filter(#Predicate { $0.owner?.name == nil })) == ["Stray"])
        let acrossLink = #Predicate<Puppy> { $0.age > $0.owner!.id }
        let error = try #require(throws: Realm.Error.self) { try puppies.filter(acrossLink) }
        #expect(error.localizedDescription.contains("not across a link"))
        let bob = try #require(puppies.realm?.object(ofType: Owner.self, forPrimaryKey: 1))
        #expect(try names(puppies.filter(#Predicate { $0.owner == bob })) == ["Spot"])
    }

    @Test func conditionsBehindOptionalChainingAreNilForAMissingLink() throws {
        let puppies = try seeded().objects(Puppy.self)
        #expect(try names(puppies.filter(#Predicate { $0.owner.flatMap { $0.name == "Ann" } == true })) == ["Fido", "Rex"])
        // `nil` is neither true nor false: Stray, with no owner, is in neither.
        #expect(try names(puppies.filter(#Predicate { $0.owner.flatMap { $0.name == "Ann" } == false })) == ["Spot"])
        #expect(try names(puppies.filter(#Predicate { $0.owner.flatMap { $0.name == "Ann" } != true })) == ["Spot", "Stray"])
        #expect(try names(puppies.filter(#Predicate { $0.owner.flatMap { $0.partner == nil } == true })) == ["Fido", "Rex"])
    }

    @Test func listsCountSearchAndQuantify() throws {
        let kennels = try seeded().objects(Kennel.self)
        #expect(try names(kennels.filter(#Predicate { $0.dogs.count > 1 })) == ["North"])
        #expect(try names(kennels.filter(#Predicate { $0.dogs.isEmpty })) == ["Empty"])
        #expect(try names(kennels.filter(#Predicate { !$0.tags.isEmpty })) == ["North", "South"])
        #expect(try names(kennels.filter(#Predicate { $0.tags.contains("big") })) == ["North"])
        #expect(try names(kennels.filter(#Predicate { $0.dogs.contains { $0.age > 10 } })) == ["North"])
        #expect(try names(kennels.filter(#Predicate { $0.dogs.contains { $0.age > 2 && $0.name.starts(with: "S") } })) == ["South"])
        // Every dog of an empty list passes.
        #expect(try names(kennels.filter(#Predicate { $0.dogs.allSatisfy { $0.age > 5 } })) == ["Empty", "South"])
        #expect(try names(kennels.filter(#Predicate { $0.dogs.contains { $0.owner?.name == "Bob" } })) == ["South"])
    }

    @Test func listsOfValuesQuantifyOneComparisonAtATime() throws {
        let kennels = try seeded().objects(Kennel.self)
        #expect(try names(kennels.filter(#Predicate { $0.tags.contains { $0.starts(with: "b") } })) == ["North", "South"])
        #expect(try names(kennels.filter(#Predicate { $0.tags.contains { $0 == "a" || $0 == "b" } })) == ["North", "South"])
        #expect(try names(kennels.filter(#Predicate { $0.tags.allSatisfy { $0 != "a" } })) == ["Empty", "South"])
        let both = #Predicate<Kennel> { $0.tags.contains { $0 != "a" && $0 != "b" } }
        let error = try #require(throws: Realm.Error.self) { try kennels.filter(both) }
        #expect(error.localizedDescription.contains("&& inside contains(where:)"))
        let negated = #Predicate<Kennel> { $0.tags.contains { !$0.starts(with: "a") } }
        #expect(throws: Realm.Error.self) { try kennels.filter(negated) }
    }

    @Test func subqueriesReadOnlyTheirElement() throws {
        let kennels = try seeded().objects(Kennel.self)
        let outer = #Predicate<Kennel> { kennel in kennel.dogs.contains { $0.name == kennel.name } }
        let error = try #require(throws: Realm.Error.self) { try kennels.filter(outer) }
        #expect(error.localizedDescription.contains("can only read the element"))
    }

    @Test func linkingObjectsAndSetsAreCollectionsToo() throws {
        let realm = try seeded()
        let owners = realm.objects(Owner.self)
        #expect(try owners.filter(#Predicate { $0.puppies.count == 2 }).map(\.name) == ["Ann"])
        #expect(try owners.filter(#Predicate { $0.puppies.contains { $0.age == 7 } }).map(\.name) == ["Bob"])
        #expect(owners.filter("SUBQUERY(puppies, $p, $p.age > 2).@count == 2").map(\.name) == ["Ann"])
        #expect(try owners.filter(#Predicate { $0.puppies.allSatisfy { $0.age > 5 } }).map(\.name) == ["Bob"])
        let puppies = realm.objects(Puppy.self)
        #expect(try names(puppies.filter(#Predicate { $0.kennels.contains { $0.name == "North" } })) == ["Fido", "Rex"])
        try realm.write {
            realm.add(Club(value: ["id": 1, "members": [owners[0]], "languages": ["en", "fr"]]))
            realm.add(Club(value: ["id": 2, "languages": ["de"]]))
        }
        let clubs = realm.objects(Club.self)
        #expect(try clubs.filter(#Predicate { $0.languages.contains("fr") }).map(\.id) == [1])
        #expect(try clubs.filter(#Predicate { $0.members.contains { $0.name == "Ann" } }).map(\.id) == [1])
        #expect(try clubs.filter(#Predicate { $0.members.isEmpty }).map(\.id) == [2])
    }

    @Test func embeddedObjectsAreLinks() throws {
        let realm = try directory.realm()
        try realm.write {
            realm.add(Contact(value: ["id": 1, "address": ["street": "Main", "city": "Oslo", "geo": ["latitude": 59.9]]]))
            realm.add(Contact(value: ["id": 2, "address": ["street": "High", "city": "Bergen"]]))
            realm.add(Contact(value: ["id": 3]))
        }
        let contacts = realm.objects(Contact.self)
        #expect(try contacts.filter(#Predicate { $0.address?.city == "Oslo" }).map(\.id) == [1])
        #expect(try contacts.filter(#Predicate { ($0.address?.geo?.latitude ?? 0) > 50 }).map(\.id) == [1])
        #expect(try contacts.filter(#Predicate { $0.address == nil }).map(\.id) == [3])
    }

    @Test func listsFilterWithPredicatesToo() throws {
        let realm = try seeded()
        let north = try #require(realm.object(ofType: Kennel.self, forPrimaryKey: 0))
        #expect(try north.dogs.filter(#Predicate { $0.age < 10 }).map(\.name) == ["Rex"])
        #expect(try AnyRealmCollection(north.dogs).filter(#Predicate { $0.age >= 10 }).map(\.name) == ["Fido"])
    }
}
