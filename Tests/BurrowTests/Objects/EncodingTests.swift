import Burrow
import Foundation
import Testing

@Suite struct EncodingTests {
    let directory = TestDirectory()

    private func json(_ value: some Encodable) throws -> Any {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        return try JSONSerialization.jsonObject(with: encoder.encode(value))
    }

    @Test func objectsEncodeTheirPropertiesAndRelationships() throws {
        let realm = try directory.realm()
        let kennel = Kennel(value: ["id": 1, "name": "K", "tags": ["a", "b"], "scores": [1, nil],
                                    "dogs": [["name": "Rex", "age": 2, "owner": ["id": 7, "name": "Ann"]]]])
        let unmanaged = try json(kennel) as? [String: Any]
        #expect(unmanaged?["name"] as? String == "K")
        try realm.write { realm.add(kennel) }
        let encoded = try #require(try json(kennel) as? [String: Any])
        #expect(encoded["id"] as? Int == 1)
        #expect(encoded["tags"] as? [String] == ["a", "b"])
        #expect((encoded["scores"] as? [Any])?.count == 2)
        let dogs = try #require(encoded["dogs"] as? [[String: Any]])
        #expect(dogs.first?["name"] as? String == "Rex")
        #expect((dogs.first?["owner"] as? [String: Any])?["name"] as? String == "Ann")
        #expect(dogs.first?["kennels"] == nil)  // LinkingObjects are computed, not encoded
    }

    @Test func resultsEncodeAsAnArrayAndCyclesEndInNull() throws {
        let realm = try directory.realm()
        let ann = Owner(value: ["id": 1, "name": "Ann"]), bob = Owner(value: ["id": 2, "name": "Bob"])
        ann.partner = bob
        bob.partner = ann
        try realm.write {
            realm.add(ann)
            realm.add(Ledger(value: ["id": 1, "scores": ["chess": 3]]))
            realm.add(Setting(value: ["name": "s", "value": AnyRealmValue.string("x")]))
        }
        let owners = try #require(try json(realm.objects(Owner.self)) as? [[String: Any]])
        #expect(owners.map { $0["name"] as? String } == ["Ann", "Bob"])
        let partner = try #require(owners[0]["partner"] as? [String: Any])
        #expect(partner["name"] as? String == "Bob")
        #expect(partner["partner"] is NSNull)
        let ledger = try #require(try json(realm.objects(Ledger.self)) as? [[String: Any]])
        #expect(ledger[0]["scores"] as? [String: Int] == ["chess": 3])
        let setting = try #require(try json(realm.objects(Setting.self)) as? [[String: Any]])
        #expect(setting[0]["value"] as? String == "x")
    }
}
