import Burrow
import Foundation
import Testing

@Suite struct LinkingObjectsTests {
    let directory = TestDirectory()

    @Test func backlinksFollowToOneLinksLive() throws {
        let realm = try directory.realm()
        let ann = Owner(value: ["id": 1, "name": "Ann"])
        #expect(ann.puppies.isEmpty)
        try realm.write {
            realm.add(Puppy(value: ["name": "a", "owner": ann]))
            realm.add(Puppy(value: ["name": "b", "owner": ann]))
            realm.add(Puppy(value: ["name": "c"]))
        }
        let puppies = ann.puppies
        #expect(puppies.map(\.name) == ["a", "b"])
        #expect(puppies.realm == realm)
        let c = realm.objects(Puppy.self).filter("name == 'c'").first!
        try realm.write { c.owner = ann }
        #expect(puppies.count == 3)
        #expect(puppies.index(of: c) == 2)
        try realm.write { realm.delete(puppies[0]) }
        #expect(puppies.map(\.name) == ["b", "c"])
        try realm.write { puppies[0].owner = nil }
        #expect(puppies.map(\.name) == ["c"])
    }

    @Test func backlinksFollowListsOncePerObject() throws {
        let realm = try directory.realm()
        let rex = Puppy(value: ["name": "Rex"])
        try realm.write {
            realm.add(Kennel(value: ["id": 1, "dogs": [rex, rex]]))
            realm.add(Kennel(value: ["id": 2, "dogs": [rex]]))
            realm.add(Kennel(value: ["id": 3]))
        }
        #expect(rex.kennels.map(\.id) == [1, 2])
        try realm.write { realm.object(ofType: Kennel.self, forPrimaryKey: 2)!.dogs.removeAll() }
        #expect(rex.kennels.map(\.id) == [1])
    }

    @Test func queriesFollowBacklinks() throws {
        let realm = try directory.realm()
        try realm.write {
            let ann = Owner(value: ["id": 1, "name": "Ann"]), bob = Owner(value: ["id": 2, "name": "Bob"])
            realm.add(Puppy(value: ["name": "a", "age": 1, "owner": ann]))
            realm.add(Puppy(value: ["name": "b", "age": 8, "owner": ann]))
            realm.add(Puppy(value: ["name": "c", "age": 3, "owner": bob]))
            realm.add(Owner(value: ["id": 3, "name": "Cy"]))
        }
        let owners = realm.objects(Owner.self)
        func names(_ results: Results<Owner>) -> [String] { results.map(\.name) }
        #expect(names(owners.filter("puppies.age > 5")) == ["Ann"])
        #expect(names(owners.filter("ALL puppies.age < 5")) == ["Bob", "Cy"])
        #expect(names(owners.filter("puppies.@count == 0")) == ["Cy"])
        #expect(names(owners.filter("NONE puppies.name == 'c'")) == ["Ann", "Cy"])
        #expect(names(owners.where { $0.puppies.name == "c" }) == ["Bob"])
    }

    @Test func linkingObjectsAreComputedNotStored() throws {
        let schema = Owner().objectSchema
        #expect(schema["puppies"]?.type == .linkingObjects)
        #expect(schema["puppies"]?.objectClassName == "Puppy")
        #expect(schema["puppies"]?.linkOriginPropertyName == "owner")
        #expect(schema.properties.map(\.name) == ["id", "name", "partner"])
        #expect(schema.computedProperties.map(\.name) == ["puppies"])
        let realm = try directory.realm()
        try realm.write { realm.add(Owner(value: ["id": 1])) }
        // The file stores no column for them; the schema names them, as RealmSwift's does.
        #expect(realm.fileSchema["Owner"]?.properties.map(\.name) == ["id", "name", "partner"])
        #expect(realm.fileSchema["Owner"]?.computedProperties.map(\.name) == ["puppies"])
        #expect(realm.fileSchema["Owner"]?["puppies"]?.type == .linkingObjects)
    }

    @Test func linkingObjectsCannotBeAssigned() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let realm = MisuseTests.freshRealm()
            let ann = Owner(value: ["id": 1])
            try! realm.write { realm.add(ann) }
            try! realm.write { ann["puppies"] = [Puppy()] }
        }
        expectMessage(result, "LinkingObjects are read-only")
    }
}
