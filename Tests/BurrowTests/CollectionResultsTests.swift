@testable import Burrow
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

    @Test func listsOfValuesAggregate() {
        let kennel = Kennel()
        kennel.scores.append(contentsOf: [3, nil, 5])
        let numbers = List<Int>()
        numbers.append(contentsOf: [4, 1, 7])
        #expect(numbers.sum() == 12)
        #expect(numbers.average() == 4)
        #expect(numbers.min() == 1 && numbers.max() == 7)
        #expect(List<Double>().average() == nil)
    }

    @Test func queryingAnUnmanagedListTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Kennel().dogs.filter("age > 1")
        }
        expectMessage(result, "Queries need a managed list")
    }
}
