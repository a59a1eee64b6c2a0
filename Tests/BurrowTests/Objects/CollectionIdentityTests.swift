import Burrow
import Foundation
import Testing

/// A managed object hands out one collection per property, which stays live.
@Suite struct CollectionIdentityTests {
    @Test func eachPropertyHandsOutOneLiveCollection() throws {
        let directory = TestDirectory()
        let realm = try directory.realm()
        let kennel = Kennel(value: ["id": 1])
        let club = Club(value: ["id": 1])
        let ledger = Ledger(value: ["id": 1])
        try realm.write { realm.add([kennel, club, ledger] as [Object]) }
        #expect(kennel.dogs === kennel.dogs)
        #expect(kennel.tags === kennel.tags && kennel.tags !== kennel.scores as AnyObject)
        #expect(club.languages === club.languages)
        #expect(ledger.pets === ledger.pets)
        let dogs = kennel.dogs
        try realm.write { kennel.dogs.append(Puppy(value: ["name": "Rex"])) }
        #expect(dogs.count == 1 && dogs[0].name == "Rex")
        // Another instance of the object has its own collection, reading the same rows.
        let again = realm.object(ofType: Kennel.self, forPrimaryKey: 1)!
        #expect(again.dogs !== kennel.dogs && again.dogs.map(\.name) == ["Rex"])
    }

    @Test func aCollectionSeesWritesOfOtherThreadsAfterRefresh() throws {
        let directory = TestDirectory()
        let realm = try directory.realm()
        let kennel = Kennel(value: ["id": 1])
        try realm.write { realm.add(kennel) }
        let tags = kennel.tags
        let configuration = directory.configuration()
        onAnotherThread {
            let other = try! Realm(configuration: configuration)
            try! other.write { other.object(ofType: Kennel.self, forPrimaryKey: 1)!.tags.append("new") }
        }
        #expect(tags.isEmpty)
        realm.refresh()
        #expect(Array(tags) == ["new"] && Array(kennel.tags) == ["new"])
    }

    @Test func aCollectionHeldAloneKeepsWorkingAndInvalidatesWithItsOwner() throws {
        let directory = TestDirectory()
        let realm = try directory.realm()
        var tags: List<String>?
        try realm.write {
            let kennel = Kennel(value: ["id": 1, "tags": ["a", "b"]])
            realm.add(kennel)
            tags = kennel.tags
        }
        #expect(Array(tags!) == ["a", "b"] && !tags!.isInvalidated)
        try realm.write { realm.delete(realm.object(ofType: Kennel.self, forPrimaryKey: 1)!) }
        #expect(tags!.isInvalidated)
    }

    @Test func indexingThroughTheOwnerIsLinear() throws {
        let directory = TestDirectory()
        let realm = try directory.realm()
        let kennel = Kennel(value: ["id": 1])
        try realm.write {
            realm.add(kennel)
            kennel.tags.append(objectsIn: (0..<16_000).map { "t\($0)" })
        }
        // Each access reads the cached positions: 16,000 accesses, not 16,000 reloads of 16,000.
        var total = 0
        for index in 0..<kennel.tags.count { total += kennel.tags[index].utf8.count }
        #expect(total == (0..<16_000).reduce(0) { $0 + "t\($1)".utf8.count })
    }
}
