import Burrow
import Foundation
import Testing

@Suite struct MutableSetTests {
    let directory = TestDirectory()

    @Test func unmanagedSetsKeepDistinctElements() {
        let club = Club()
        club.languages.insert("Swift")
        club.languages.insert(objectsIn: ["C", "Swift", "Rust"])
        #expect(club.languages.count == 3)
        #expect(club.languages.contains("C"))
        club.languages.remove("C")
        club.languages.formIntersection(["Swift", "Go"])
        #expect(Array(club.languages) == ["Swift"])
        #expect(club.languages.isSubset(of: ["Swift", "Go"]))
        #expect(club.languages.intersects(["Swift"]))
        club.languages.subtract(["Swift"])
        #expect(club.languages.isEmpty)
    }

    @Test func managedSetsAreKeyedByValue() throws {
        let realm = try directory.realm()
        let club = Club(value: ["id": 1, "languages": ["Swift", "C", "Swift"], "members": [["id": 1, "name": "Ann"]]])
        try realm.write { realm.add(club) }
        #expect(Array(club.languages) == ["C", "Swift"])  // value order
        #expect(club.members.count == 1)
        let bob = Owner(value: ["id": 2, "name": "Bob"])
        try realm.write {
            club.languages.formUnion(["Rust", "C"])
            club.members.insert(bob)
            club.members.insert(bob)
        }
        #expect(Array(club.languages) == ["C", "Rust", "Swift"])
        #expect(club.members.count == 2)
        #expect(club.members.contains(bob))
        #expect(club.languages.contains("Rust") && !club.languages.contains("Go"))
        try realm.write { club.languages.formIntersection(["Rust", "Swift"]); club.members.remove(bob) }
        #expect(Array(club.languages) == ["Rust", "Swift"])
        #expect(club.members.map(\.name) == ["Ann"])
        #expect(realm.objects(Owner.self).count == 2)  // removing from a set keeps the object
        #expect(club.members.where { $0.name == "Ann" }.count == 1)
    }

    @Test func deletingAMemberRemovesItFromSets() throws {
        let realm = try directory.realm()
        let ann = Owner(value: ["id": 1])
        try realm.write {
            realm.add(Club(value: ["id": 1, "members": [ann]]))
            realm.add(Club(value: ["id": 2, "members": [ann, ["id": 2]]]))
        }
        try realm.write { realm.delete(ann) }
        #expect(realm.objects(Club.self).map(\.members.count) == [0, 1])
        try realm.write { realm.delete(realm.objects(Club.self)) }
        #expect(realm.objects(Owner.self).count == 1)
    }

    @Test func setsCanBeQueried() throws {
        let realm = try directory.realm()
        try realm.write {
            realm.add(Club(value: ["id": 1, "languages": ["Swift", "C"], "members": [["id": 1, "name": "Ann"]]]))
            realm.add(Club(value: ["id": 2, "languages": ["Go"]]))
        }
        let clubs = realm.objects(Club.self)
        #expect(clubs.filter("languages == 'C'").map(\.id) == [1])
        #expect(clubs.filter("members.name == 'Ann'").map(\.id) == [1])
        #expect(clubs.filter("languages.@count == 1").map(\.id) == [2])
        #expect(clubs.filter("NONE languages == 'Go'").map(\.id) == [1])
        #expect(realm.fileSchema["Club"]?["languages"]?.isSet == true)
    }
}
