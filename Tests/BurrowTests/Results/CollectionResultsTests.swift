import Burrow
import Foundation
import Testing

@Suite struct CollectionResultsTests {
    let directory = TestDirectory()

    @Test func listsOfObjectsShareTheResultsAPI() throws {
        let realm = try directory.realm()
        let kennel = Kennel(value: ["id": 1, "dogs": [["name": "c", "age": 3], ["name": "a", "age": 1], ["name": "b", "age": 7]]])
        try realm.write {
            realm.add(kennel)
            realm.add(Puppy(value: ["name": "outside", "age": 2]))
        }
        let dogs = kennel.dogs
        #expect(dogs.filter("age < 5").map(\.name) == ["c", "a"])
        #expect(dogs.where { $0.age > 2 }.map(\.name) == ["c", "b"])
        #expect(dogs.sorted(byKeyPath: "name").map(\.name) == ["a", "b", "c"])
        #expect(dogs.sorted(by: \.age, ascending: false).map(\.name) == ["b", "c", "a"])
        #expect(dogs.sum(of: \.age) == 11)
        #expect(dogs.max(ofProperty: "age") as Int? == 7)
        #expect(dogs.average(ofProperty: "age") as Double? == 11.0 / 3)
        #expect(dogs.index(matching: "name == 'a'") == 1)
        #expect(dogs.filter("age > 100").isEmpty)
        let young = dogs.filter("age < 5")
        try realm.write { dogs.append(Puppy(value: ["name": "d", "age": 0])) }
        #expect(young.map(\.name) == ["c", "a", "d"])  // live, in list order
        try realm.write { realm.delete(young) }
        #expect(dogs.map(\.name) == ["b"])
        #expect(realm.objects(Puppy.self).count == 2)
    }

    @Test func linkingObjectsShareTheResultsAPI() throws {
        let realm = try directory.realm()
        let ann = Owner(value: ["id": 1])
        try realm.write {
            for (name, age) in [("x", 4), ("y", 9), ("z", 1)] { realm.add(Puppy(value: ["name": name, "age": age, "owner": ann])) }
        }
        #expect(ann.puppies.filter("age > 2").map(\.name) == ["x", "y"])
        #expect(ann.puppies.sorted(byKeyPath: "age").map(\.name) == ["z", "x", "y"])
        #expect(ann.puppies.min(of: \.age) == 1)
    }

    @Test func mapsOfObjectsShareTheResultsAPI() throws {
        let realm = try directory.realm()
        let ledger = Ledger(value: ["id": 1, "pets": ["k1": ["name": "c", "age": 3], "k2": ["name": "a", "age": 1],
                                                      "k3": ["name": "b", "age": 7], "k4": NSNull()]])
        try realm.write {
            realm.add(ledger)
            realm.add(Puppy(value: ["name": "outside", "age": 2]))
        }
        let pets = ledger.pets
        let young: Results<Puppy?> = pets.filter("age < 5")
        #expect(young.map { $0?.name } == ["c", "a"])  // key order, nil entries left out
        #expect(pets.where { $0.age > 2 }.map { $0!.name } == ["c", "b"])
        #expect(pets.sorted(byKeyPath: "name").map { $0!.name } == ["a", "b", "c"])
        #expect(pets.sorted(by: \.age, ascending: false).compactMap { $0?.name } == ["b", "c", "a"])
        #expect(pets.filter("age > 0").where { $0.name != "c" }.count == 2)
        #expect(pets.max(ofProperty: "age") as Int? == 7)
        #expect(pets.sum(ofProperty: "age") as Int == 11)
        #expect(pets.index(matching: "name == 'a'") == 1)
        try realm.write { pets["k5"] = Puppy(value: ["name": "d", "age": 0]) }
        #expect(young.map { $0?.name } == ["c", "a", "d"])  // live
        try realm.write { realm.delete(young.compactMap { $0 }) }
        #expect(pets.filter("TRUEPREDICATE").map { $0?.name } == ["b"])
        #expect(pets.count == 5)  // deleted objects leave their keys, with nil
    }

    @Test func subqueriesCountTheObjectsOfAMap() throws {
        let realm = try directory.realm()
        try realm.write {
            realm.add(Ledger(value: ["id": 1, "pets": ["a": ["name": "x", "age": 6], "b": ["name": "y", "age": 7], "c": NSNull()]]))
            realm.add(Ledger(value: ["id": 2, "pets": ["a": ["name": "z", "age": 1]]]))
        }
        let ledgers = realm.objects(Ledger.self)
        #expect(ledgers.filter("SUBQUERY(pets, $p, $p.age > 5).@count == 2").map(\.id) == [1])
        #expect(ledgers.where { ($0.pets.age > 5).count == 0 }.map(\.id) == [2])
    }

    @Test func collectionsOfObjectsCompareWithAnObject() throws {
        let realm = try directory.realm()
        try realm.write {
            realm.add(Kennel(value: ["id": 1, "dogs": [["name": "a"], ["name": "b"]]]))
            realm.add(Kennel(value: ["id": 2, "dogs": [["name": "c"]]]))
            realm.add(Ledger(value: ["id": 1, "pets": ["home": ["name": "Rex", "age": 3], "away": NSNull()]]))
            realm.add(Ledger(value: ["id": 2]))
        }
        let kennels = realm.objects(Kennel.self), ledgers = realm.objects(Ledger.self)
        let b = try #require(realm.objects(Puppy.self).filter("name == 'b'").first)
        let rex = try #require(realm.objects(Puppy.self).filter("name == 'Rex'").first)
        #expect(kennels.where { $0.dogs.contains(b) }.map(\.id) == [1])
        #expect(kennels.where { $0.dogs == b }.map(\.id) == [1])
        #expect(kennels.filter("ANY dogs == %@", b).map(\.id) == [1])
        #expect(kennels.filter("NONE dogs == %@", b).map(\.id) == [2])
        #expect(ledgers.where { $0.pets.containsAny(in: [rex]) }.map(\.id) == [1])
        #expect(ledgers.filter("pets.@allValues.name == 'Rex'").map(\.id) == [1])
        #expect(ledgers.where { $0.pets.values.name == "Rex" }.map(\.id) == [1])
        expectError(.invalidQuery) { try kennels.validate(QueryPredicate("ANY dogs == name")) }
    }

    @Test func queryingAnUnmanagedMapTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Ledger().pets.filter("age > 1")
        }
        expectMessage(result, "Queries need a managed map")
    }

    @Test func listsOfValuesAggregate() {
        let kennel = Kennel()
        kennel.scores.append(contentsOf: [3, nil, 5])
        let numbers = List<Int>()
        numbers.append(contentsOf: [4, 1, 7])
        #expect(numbers.sum() == 12)
        #expect(numbers.average() == 4.0)
        #expect(numbers.min() == 1 && numbers.max() == 7)
        #expect(List<Double>().average() as Double? == nil)
    }

    @Test func queryingAnUnmanagedListTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Kennel().dogs.filter("age > 1")
        }
        expectMessage(result, "Queries need a managed list")
    }
}
