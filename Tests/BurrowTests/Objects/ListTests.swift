import Burrow
import Foundation
import Testing

@Suite struct ListTests {
    let directory = TestDirectory()

    private func names(_ list: List<Puppy>) -> [String] { list.map(\.name) }

    @Test func unmanagedListsAreArrays() {
        let kennel = Kennel()
        kennel.tags.append("a")
        kennel.tags.append(contentsOf: ["b", "c"])
        kennel.tags.insert("z", at: 0)
        #expect(Array(kennel.tags) == ["z", "a", "b", "c"])
        kennel.tags.move(from: 0, to: 3)
        kennel.tags.swapAt(0, 1)
        kennel.tags[0] = "B"
        #expect(Array(kennel.tags) == ["B", "a", "c", "z"])
        kennel.tags.remove(at: 1)
        kennel.tags.removeLast()
        #expect(Array(kennel.tags) == ["B", "c"])
        #expect(kennel.tags.index(of: "c") == 1)
        kennel.tags.removeAll()
        #expect(kennel.tags.isEmpty)
        #expect(kennel.tags.realm == nil)
    }

    @Test func addingTheOwnerStoresItsListsAndTheirObjects() throws {
        let realm = try directory.realm()
        let kennel = Kennel(value: ["id": 1, "name": "K", "tags": ["x", "y"], "scores": [1, nil, 3],
                                    "dogs": [["name": "a"], Puppy(value: ["name": "b"])]])
        #expect(kennel.dogs.count == 2)
        try realm.write { realm.add(kennel) }
        #expect(realm.objects(Puppy.self).count == 2)
        #expect(names(kennel.dogs) == ["a", "b"])
        #expect(Array(kennel.tags) == ["x", "y"])
        #expect(Array(kennel.scores) == [1, nil, 3])
        #expect(kennel.dogs.realm == realm)
        let stored = try #require(realm.object(ofType: Kennel.self, forPrimaryKey: 1))
        #expect(names(stored.dogs) == ["a", "b"])
        #expect(stored.dogs[1].isSameObject(as: kennel.dogs[1]))
    }

    @Test func managedListsSupportTheFullMutationAPI() throws {
        let realm = try directory.realm()
        let kennel = Kennel(value: ["id": 1])
        try realm.write { realm.add(kennel) }
        let dogs = kennel.dogs
        try realm.write {
            for name in ["a", "b", "c", "d"] { dogs.append(Puppy(value: ["name": name])) }
            dogs.insert(Puppy(value: ["name": "first"]), at: 0)
            dogs.insert(Puppy(value: ["name": "middle"]), at: 3)
        }
        #expect(names(dogs) == ["first", "a", "b", "middle", "c", "d"])
        try realm.write {
            dogs.move(from: 0, to: 5)
            dogs.swapAt(0, 1)
            dogs.remove(at: 2)
            dogs.replace(index: 0, object: Puppy(value: ["name": "new"]))
        }
        #expect(names(dogs) == ["new", "a", "c", "d", "first"])
        try realm.write { dogs[1] = realm.objects(Puppy.self).filter("name == 'middle'").first! }
        #expect(names(dogs) == ["new", "middle", "c", "d", "first"])
        #expect(dogs.index(of: realm.objects(Puppy.self).filter("name == 'd'").first!) == 3)
        try realm.write { dogs.removeFirst(); dogs.removeLast() }
        #expect(names(dogs) == ["middle", "c", "d"])
        #expect(realm.objects(Puppy.self).count == 7)  // removing from a list keeps the objects
        try realm.write { dogs.removeAll() }
        #expect(dogs.isEmpty)
        try realm.write { kennel.tags.append("t"); kennel.scores.append(nil) }
        #expect(Array(kennel.tags) == ["t"] && Array(kennel.scores) == [nil])
    }

    @Test func manyInsertionsAtTheSamePlaceRenumberTheList() throws {
        let realm = try directory.realm()
        let kennel = Kennel(value: ["id": 1])
        try realm.write { realm.add(kennel) }
        var expected: [String] = []
        try realm.write {
            kennel.tags.append("last")
            for index in 0..<80 {
                kennel.tags.insert("i\(index)", at: 1.clamped(to: 0...kennel.tags.count - 1))
            }
        }
        expected = ["last"]
        for index in 0..<80 { expected.insert("i\(index)", at: 1.clamped(to: 0...expected.count - 1)) }
        #expect(Array(kennel.tags) == expected)
    }

    @Test func deletingAnObjectRemovesItFromEveryList() throws {
        let realm = try directory.realm()
        let shared = Puppy(value: ["name": "shared"])
        let first = Kennel(value: ["id": 1, "dogs": [shared, ["name": "own"], shared]])
        let second = Kennel(value: ["id": 2, "dogs": [shared]])
        try realm.write { realm.add([first, second]) }
        #expect(names(first.dogs) == ["shared", "own", "shared"])
        try realm.write { realm.delete(realm.objects(Puppy.self).filter("name == 'shared'")) }
        #expect(names(first.dogs) == ["own"])
        #expect(second.dogs.isEmpty)
        try realm.write { realm.delete(first) }
        #expect(realm.objects(Puppy.self).count == 1)  // the owner's lists go, their objects stay
        #expect(realm.objects(Kennel.self).count == 1)
    }

    @Test func deletingAListDeletesItsObjects() throws {
        let realm = try directory.realm()
        let kennel = Kennel(value: ["id": 1, "dogs": [["name": "a"], ["name": "b"]]])
        try realm.write { realm.add(kennel); realm.add(Puppy(value: ["name": "outside"])) }
        try realm.write { realm.delete(kennel.dogs) }
        #expect(kennel.dogs.isEmpty)
        #expect(realm.objects(Puppy.self).map(\.name) == ["outside"])
    }

    @Test func updatingTheOwnerReplacesItsLists() throws {
        let realm = try directory.realm()
        try realm.write { realm.add(Kennel(value: ["id": 1, "tags": ["old"]])) }
        try realm.write { realm.add(Kennel(value: ["id": 1, "tags": ["new", "newer"]]), update: .all) }
        #expect(Array(realm.object(ofType: Kennel.self, forPrimaryKey: 1)!.tags) == ["new", "newer"])
        let kennel = realm.object(ofType: Kennel.self, forPrimaryKey: 1)!
        try realm.write { kennel["tags"] = ["set", "by", "name"] }
        #expect(Array(kennel.tags) == ["set", "by", "name"])
    }

    @Test func appendingToALongListIsOneInsert() throws {
        let realm = try directory.realm()
        let kennel = Kennel(value: ["id": 1])
        try realm.write {
            realm.add(kennel)
            for index in 0..<20_000 { kennel.scores.append(index) }
        }
        #expect(kennel.scores.count == 20_000)
        #expect(kennel.scores[19_999] == 19_999)
        #expect(kennel.scores.last == 19_999)
    }

    @Test func appendsThroughTwoAccessorsOfOneOwnerInterleave() throws {
        let realm = try directory.realm()
        try realm.write { realm.add(Kennel(value: ["id": 1])) }
        let first = try #require(realm.object(ofType: Kennel.self, forPrimaryKey: 1))
        let second = try #require(realm.object(ofType: Kennel.self, forPrimaryKey: 1))
        try realm.write {
            first.tags.append("a")
            first.tags.append("b")
            second.tags.append("c")
            first.tags.append("d")
            second.tags.remove(at: 3)
            first.tags.append("e")
            // Appending an object adds it to the realm between the owner's check and the insert.
            first.dogs.append(Puppy(value: ["name": "p"]))
            first.dogs.append(Puppy(value: ["name": "q"]))
            second.dogs.append(Puppy(value: ["name": "r"]))
        }
        #expect(Array(first.tags) == ["a", "b", "c", "e"])
        #expect(Array(second.tags) == ["a", "b", "c", "e"])
        #expect(names(first.dogs) == ["p", "q", "r"])
    }

    @Test func listsSurviveReopeningAndAppearInTheSchema() throws {
        let configuration = directory.configuration()
        do {
            let realm = try Realm(configuration: configuration)
            try realm.write { realm.add(Kennel(value: ["id": 1, "tags": ["a"], "dogs": [["name": "d"]]])) }
        }
        let realm = try Realm(configuration: configuration)
        let kennel = try #require(realm.objects(Kennel.self).first)
        #expect(Array(kennel.tags) == ["a"])
        #expect(kennel.dogs.first?.name == "d")
        let property = try #require(realm.fileSchema["Kennel"]?["dogs"])
        #expect(property.isArray && property.type == .object && property.objectClassName == "Puppy")
        #expect(realm.fileSchema["Kennel"]?["scores"]?.isOptional == true)
    }

    @Test func anIndexOutOfRangeInAListTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let realm = MisuseTests.freshRealm()
            let kennel = Kennel(value: ["id": 1, "tags": ["a"]])
            try! realm.write { realm.add(kennel) }
            _ = kennel.tags[1]
        }
        expectMessage(result, "Index 1 is out of bounds (must be less than 1).")
    }

    @Test func aNegativeIndexTrapsNamingTheArgument() async {
        let managed = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let realm = MisuseTests.freshRealm()
            let kennel = Kennel(value: ["id": 1, "tags": ["a", "b"]])
            try! realm.write {
                realm.add(kennel)
                kennel.tags.move(from: 0, to: -1)
            }
        }
        expectMessage(managed, "Cannot pass a negative value for 'to'.")
        let unmanaged = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = List<Int>()[-1]
        }
        expectMessage(unmanaged, "Cannot pass a negative value for 'index'.")
    }

    @Test func changingAManagedListOutsideAWriteTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let realm = MisuseTests.freshRealm()
            let kennel = Kennel(value: ["id": 1])
            try! realm.write { realm.add(kennel) }
            kennel.tags.append("x")
        }
        expectMessage(result, "Attempting to modify object outside of a write transaction")
    }
}

extension Comparable {
    func clamped(to range: ClosedRange<Self>) -> Self { Swift.min(Swift.max(self, range.lowerBound), range.upperBound) }
}
