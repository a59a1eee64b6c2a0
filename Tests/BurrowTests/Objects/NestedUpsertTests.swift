import Burrow
import Foundation
import Testing

/// An upsert applies its policy to the objects it reaches, as RealmSwift does.
@Suite struct NestedUpsertTests {
    let directory = TestDirectory()

    @Test func upsertAddsEmbeddedAndPrimaryKeylessObjectsAsNew() throws {
        let realm = try directory.realm()
        try realm.write { realm.add(Contact(value: ["id": 1, "address": ["street": "x"]]), update: .modified) }
        try realm.write { realm.add(Contact(value: ["id": 1, "address": ["street": "y"]]), update: .modified) }
        #expect(realm.objects(Contact.self).count == 1)
        #expect(realm.objects(Contact.self).first?.address?.street == "y")
        try realm.write { realm.add(Kennel(value: ["id": 1, "dogs": [["name": "Rex"]]]), update: .all) }
        try realm.write { realm.add(Kennel(value: ["id": 1, "dogs": [["name": "Rex"]]]), update: .all) }
        #expect(realm.objects(Puppy.self).count == 2)
    }

    @Test func upsertUpdatesAnExistingSetMember() throws {
        let realm = try directory.realm()
        try realm.write { realm.add(Owner(value: ["id": 1, "name": "Ann"])) }
        try realm.write { realm.add(Club(value: ["id": 1, "members": [["id": 1, "name": "Ann2"]]]), update: .modified) }
        #expect(realm.objects(Owner.self).map(\.name) == ["Ann2"])
        #expect(realm.object(ofType: Club.self, forPrimaryKey: 1)?.members.map(\.id) == [1])
    }

    @Test func nestedCreateUpdatesWhetherOrNotTheParentExists() throws {
        let realm = try directory.realm()
        try realm.write { realm.add(Owner(value: ["id": 2, "name": "Bob"])) }
        try realm.write {
            realm.create(Owner.self, value: ["id": 1, "name": "Ann", "partner": ["id": 2, "name": "Bob2"]], update: .modified)
        }
        #expect(realm.object(ofType: Owner.self, forPrimaryKey: 2)?.name == "Bob2")
        try realm.write { realm.create(Owner.self, value: ["id": 1, "partner": ["id": 2, "name": "Bob3"]], update: .modified) }
        #expect(realm.object(ofType: Owner.self, forPrimaryKey: 2)?.name == "Bob3")
        #expect(realm.object(ofType: Owner.self, forPrimaryKey: 1)?.name == "Ann")
        #expect(realm.objects(Owner.self).count == 2)
    }

    @Test func withoutAPolicyANestedDuplicateKeyStillFails() async {
        await #expect(processExitsWith: .failure) {
            let directory = TestDirectory()
            let realm = try! directory.realm()
            try! realm.write { realm.add(Owner(value: ["id": 2, "name": "Bob"])) }
            try! realm.write { realm.add(Owner(value: ["id": 1, "partner": ["id": 2, "name": "Bob2"]])) }
        }
    }

    @Test func aMapOfObjectsHoldsExplicitNil() throws {
        let realm = try directory.realm()
        let ledger = Ledger(value: ["id": 1])
        try realm.write { realm.add(ledger) }
        try realm.write { ledger.pets["c"] = nil as Puppy? }
        #expect(ledger.pets.count == 1)
        #expect(ledger.pets.keys.contains("c"))
        try realm.write { realm.add(Ledger(value: ["id": 2, "pets": ["d": NSNull()]])) }
        #expect(realm.object(ofType: Ledger.self, forPrimaryKey: 2)?.pets.count == 1)
    }
}
