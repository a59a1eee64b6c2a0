import Burrow
import Foundation
import Testing

@Suite struct LinkTests {
    let directory = TestDirectory()

    @Test func linksAreReadAndWrittenOnManagedAndUnmanagedObjects() throws {
        let realm = try directory.realm()
        let ann = Owner(value: ["id": 1, "name": "Ann"])
        let rex = Puppy(value: ["name": "Rex"])
        rex.owner = ann
        #expect(rex.owner === ann)
        try realm.write { realm.add(rex) }
        #expect(ann.realm == realm)  // the unmanaged owner was added with the dog
        #expect(rex.owner?.name == "Ann")
        #expect(rex.owner?.isSameObject(as: ann) == true)
        #expect(realm.objects(Owner.self).count == 1)
        let bob = Owner(value: ["id": 2, "name": "Bob"])
        try realm.write { rex.owner = bob }
        #expect(rex.owner?.name == "Bob")
        #expect(realm.objects(Owner.self).count == 2)
        try realm.write { rex.owner = nil }
        #expect(rex.owner == nil)
        try realm.write { rex.owner = realm.object(ofType: Owner.self, forPrimaryKey: 1) }
        #expect(rex.owner?.name == "Ann")
    }

    @Test func cyclesAreAddedOnce() throws {
        let realm = try directory.realm()
        let ann = Owner(value: ["id": 1, "name": "Ann"])
        let bob = Owner(value: ["id": 2, "name": "Bob"])
        ann.partner = bob
        bob.partner = ann
        try realm.write { realm.add(ann) }
        #expect(realm.objects(Owner.self).count == 2)
        #expect(ann.partner?.name == "Bob")
        #expect(ann.partner?.partner?.name == "Ann")
        #expect(bob.partner?.isSameObject(as: ann) == true)
        let selfish = Owner(value: ["id": 3])
        selfish.partner = selfish
        try realm.write { realm.add(selfish) }
        #expect(selfish.partner?.isSameObject(as: selfish) == true)
    }

    @Test func deletingATargetNullifiesLinksToIt() throws {
        let realm = try directory.realm()
        let ann = Owner(value: ["id": 1, "name": "Ann"])
        try realm.write {
            for index in 0..<5 { realm.add(Puppy(value: ["name": "p\(index)", "owner": ann])) }
            realm.add(Puppy(value: ["name": "stray"]))
        }
        let puppies = realm.objects(Puppy.self)
        #expect(puppies.filter("owner == %@", ann).count == 5)
        try realm.write { realm.delete(ann) }
        #expect(puppies.count == 6)
        #expect(puppies.allSatisfy { $0.owner == nil })
        #expect(puppies.filter("owner != nil").isEmpty)
        // Deleting a dog removes its backlink: a later owner deletion finds nothing stale.
        let bob = Owner(value: ["id": 2])
        try realm.write { puppies[0].owner = bob; puppies[1].owner = bob }
        try realm.write { realm.delete(puppies[0]) }
        try realm.write { realm.delete(bob) }
        #expect(puppies.filter("owner != nil").isEmpty)
        #expect(puppies.count == 5)
    }

    @Test func deletingAWholeClassKeepsLinksConsistent() throws {
        let realm = try directory.realm()
        try realm.write {
            let ann = Owner(value: ["id": 1])
            for index in 0..<3 { realm.add(Puppy(value: ["name": "p\(index)", "owner": ann])) }
        }
        try realm.write { realm.delete(realm.objects(Owner.self)) }
        #expect(realm.objects(Puppy.self).filter("owner == nil").count == 3)
        try realm.write { realm.delete(realm.objects(Puppy.self)) }
        #expect(realm.objects(Puppy.self).isEmpty)
        try realm.write { realm.deleteAll() }
        try realm.write { realm.add(Puppy(value: ["owner": Owner(value: ["id": 9])])) }
        try realm.write { realm.delete(realm.objects(Owner.self).first!) }
        #expect(realm.objects(Puppy.self).first?.owner == nil)
    }

    @Test func nestedValuesCreateLinkedObjects() throws {
        let realm = try directory.realm()
        let rex = Puppy(value: ["name": "Rex", "owner": ["id": 7, "name": "Gil", "partner": ["id": 8, "name": "Hal"]]])
        #expect(rex.owner?.name == "Gil")
        #expect(rex.owner?.partner?.id == 8)
        try realm.write { realm.add(rex) }
        #expect(realm.objects(Owner.self).count == 2)
        let fido = try realm.write { realm.create(Puppy.self, value: ["Fido", 2, [9, "Ida"]]) }
        #expect(fido.owner?.name == "Ida")
        #expect(fido["owner"] as? Owner != nil)
        try realm.write { fido["owner"] = nil }
        #expect(fido.owner == nil)
    }

    @Test func queriesFollowToOneLinks() throws {
        let realm = try directory.realm()
        try realm.write {
            let ann = Owner(value: ["id": 1, "name": "Ann", "partner": ["id": 2, "name": "Bob"]])
            realm.add(Puppy(value: ["name": "a", "age": 1, "owner": ann]))
            realm.add(Puppy(value: ["name": "b", "age": 2, "owner": realm.create(Owner.self, value: ["id": 3, "name": "Cy"])]))
            realm.add(Puppy(value: ["name": "c", "age": 3]))
        }
        let puppies = realm.objects(Puppy.self)
        func names(_ results: Results<Puppy>) -> [String] { results.map(\.name) }
        #expect(names(puppies.filter("owner.name == 'Ann'")) == ["a"])
        #expect(names(puppies.filter("owner.name BEGINSWITH[c] 'c'")) == ["b"])
        #expect(names(puppies.filter("owner.name == nil")) == ["c"])
        #expect(names(puppies.filter("owner.partner.name == 'Bob'")) == ["a"])
        #expect(names(puppies.filter("owner.id > 1 OR age == 3")) == ["b", "c"])
        #expect(names(puppies.filter("owner == nil")) == ["c"])
        #expect(names(puppies.filter("owner == %@", realm.object(ofType: Owner.self, forPrimaryKey: 3)!)) == ["b"])
        expectError(.invalidQuery) { try puppies.validate(QueryPredicate("owner.nmae == 'x'")) }
        expectError(.invalidQuery) { try puppies.validate(QueryPredicate("name.first == 'x'")) }
        expectError(.invalidQuery) { try puppies.validate(QueryPredicate("owner < %@", Owner())) }
    }

    @Test func resultsSortAndDistinctThroughLinks() throws {
        let realm = try directory.realm()
        try realm.write {
            let zed = Owner(value: ["id": 1, "name": "Zed"]), amy = Owner(value: ["id": 2, "name": "Amy"])
            realm.add(Puppy(value: ["name": "a", "owner": zed]))
            realm.add(Puppy(value: ["name": "b", "owner": amy]))
            realm.add(Puppy(value: ["name": "c"]))
            realm.add(Puppy(value: ["name": "d", "owner": amy]))
        }
        let puppies = realm.objects(Puppy.self)
        // A puppy with no owner sorts after the others ascending, before them descending, as
        // realm-core sorts an empty link on the way.
        #expect(puppies.sorted(byKeyPath: "owner.name").map(\.name) == ["b", "d", "a", "c"])
        #expect(puppies.sorted(byKeyPath: "owner.name", ascending: false).map(\.name) == ["c", "a", "b", "d"])
        // Distinct leaves out an object with an empty link on the way, as realm-core does.
        #expect(puppies.distinct(by: ["owner.name"]).map(\.name) == ["a", "b"])
        #expect(puppies.filter("TRUEPREDICATE SORT(owner.id DESC)").map(\.name) == ["c", "b", "d", "a"])
        expectError(.invalidQuery) { try puppies.validate(QueryPredicate("TRUEPREDICATE SORT(owner.nmae ASC)")) }
        expectError(.invalidQuery) { try puppies.validate(QueryPredicate("TRUEPREDICATE SORT(name.first ASC)")) }
    }

    @Test func linksAppearInTheSchema() throws {
        let schema = Puppy().objectSchema
        #expect(schema["owner"]?.type == .object)
        #expect(schema["owner"]?.objectClassName == "Owner")
        #expect(schema["owner"]?.isOptional == true)
        let realm = try directory.realm()
        try realm.write { realm.add(Puppy()) }
        #expect(realm.fileSchema["Puppy"]?["owner"]?.objectClassName == "Owner")
    }

    @Test func linkedObjectsSurviveReopening() throws {
        let configuration = directory.configuration()
        do {
            let realm = try Realm(configuration: configuration)
            try realm.write { realm.add(Puppy(value: ["name": "Rex", "owner": ["id": 1, "name": "Ann"]])) }
        }
        let realm = try Realm(configuration: configuration)
        #expect(realm.objects(Puppy.self).first?.owner?.name == "Ann")
        try realm.write { realm.delete(realm.objects(Owner.self).first!) }
        #expect(realm.objects(Puppy.self).first?.owner == nil)
    }

    @Test func linkingAnObjectOfAnotherRealmTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let first = MisuseTests.freshRealm(), second = MisuseTests.freshRealm()
            let ann = Owner(value: ["id": 1])
            try! first.write { first.add(ann) }
            try! second.write { second.add(Puppy(value: ["owner": ann])) }
        }
        expectMessage(result, "Object is already managed by another Realm.")
    }

    @Test func aRequiredLinkTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            final class Leash: Object { @Persisted var owner: Owner }
            _ = Leash()
        }
        expectMessage(result, "A to-one link property must be Optional")
    }
}
