import Burrow
import Foundation
import Testing

@Suite struct ListQueryTests {
    let directory = TestDirectory()

    private func seeded() throws -> Realm {
        let realm = try directory.realm()
        try realm.write {
            realm.add(Kennel(value: ["id": 1, "tags": ["big", "red"], "scores": [1, 5, nil],
                                     "dogs": [["name": "a", "age": 1], ["name": "b", "age": 7]]]))
            realm.add(Kennel(value: ["id": 2, "tags": ["small"], "scores": [10],
                                     "dogs": [["name": "c", "age": 3]]]))
            realm.add(Kennel(value: ["id": 3]))
        }
        return realm
    }

    private func ids(_ results: Results<Kennel>) -> [Int] { results.map(\.id) }

    @Test func listsOfValuesMatchAnyElement() throws {
        let kennels = try seeded().objects(Kennel.self)
        #expect(ids(kennels.filter("tags == 'red'")) == [1])
        #expect(ids(kennels.filter("ANY tags BEGINSWITH 's'")) == [2])
        #expect(ids(kennels.filter("ALL tags != 'red'")) == [2, 3])
        #expect(ids(kennels.filter("NONE tags == 'big'")) == [2, 3])
        #expect(ids(kennels.filter("scores > 4")) == [1, 2])
        #expect(ids(kennels.filter("scores == nil")) == [1])
        #expect(ids(kennels.filter("tags IN {'small', 'tiny'}")) == [2])
    }

    @Test func aValueOnTheLeftOfAListMatchesAnyElement() throws {
        let kennels = try seeded().objects(Kennel.self)
        #expect(ids(kennels.filter("'red' IN tags")) == [1])
        #expect(ids(kennels.filter("%@ IN scores", 10)) == [2])
        #expect(ids(kennels.filter("'small' == tags")) == [2])
        #expect(ids(kennels.filter("4 < scores")) == [1, 2])
        #expect(ids(kennels.filter("NOT ('red' IN tags)")) == [2, 3])
        expectError(.invalidQuery) { _ = try kennels.validate(QueryPredicate("'r' BEGINSWITH tags")) }
    }

    @Test func listsOfObjectsReachIntoTheirElements() throws {
        let kennels = try seeded().objects(Kennel.self)
        #expect(ids(kennels.filter("dogs.name == 'c'")) == [2])
        #expect(ids(kennels.filter("ANY dogs.age > 5")) == [1])
        #expect(ids(kennels.filter("ALL dogs.age < 5")) == [2, 3])
        #expect(ids(kennels.filter("NONE dogs.name == 'a'")) == [2, 3])
        #expect(ids(kennels.filter("dogs.name BEGINSWITH[c] 'B' OR id == 3")) == [1, 3])
    }

    @Test func collectionOperators() throws {
        let kennels = try seeded().objects(Kennel.self)
        #expect(ids(kennels.filter("dogs.@count == 2")) == [1])
        #expect(ids(kennels.filter("tags.@count == 0")) == [3])
        #expect(ids(kennels.filter("scores.@max >= 10")) == [2])
        #expect(ids(kennels.filter("scores.@min == 1")) == [1])
        #expect(ids(kennels.filter("scores.@sum == 6")) == [1])
        #expect(ids(kennels.filter("scores.@avg == 3")) == [1])
        #expect(ids(kennels.filter("dogs.@sum.age == 8")) == [1])
        #expect(ids(kennels.filter("dogs.@avg.age == 3")) == [2])
        #expect(ids(kennels.filter("dogs.@max.age > 2")) == [1, 2])
    }

    @Test func mistakesOnListsAreExplained() throws {
        let kennels = try seeded().objects(Kennel.self)
        expectError(.invalidQuery) { try kennels.validate(QueryPredicate("dogs == 'a'")) }
        expectError(.invalidQuery) { try kennels.validate(QueryPredicate("tags.name == 'a'")) }
        expectError(.invalidQuery) { try kennels.validate(QueryPredicate("dogs.@sum == 3")) }
        expectError(.invalidQuery) { try kennels.validate(QueryPredicate("tags.@avg == 3")) }
        expectError(.invalidQuery) { try kennels.validate(QueryPredicate("ANY dogs.@count == 3")) }
        expectError(.invalidQuery) { try kennels.validate(QueryPredicate("dogs.@median.age == 3")) }
        expectError(.invalidQuery) { try kennels.validate(QueryPredicate("ANY name == 'x'")) }
    }

    @Test func typeSafeQueriesReachIntoLinksAndCollections() throws {
        let realm = try seeded()
        let kennels = realm.objects(Kennel.self)
        #expect(ids(kennels.where { $0.dogs.name == "c" }) == ids(kennels.filter("dogs.name == 'c'")))
        #expect(ids(kennels.where { $0.dogs.age > 5 }) == [1])
        #expect(ids(kennels.where { $0.dogs.count == 2 }) == [1])
        #expect(ids(kennels.where { $0.tags.contains("small") }) == [2])
        #expect(ids(kennels.where { $0.tags.count == 0 || $0.id == 2 }) == [2, 3])
        #expect(ids(kennels.where { $0.tags == "small" }) == ids(kennels.filter("tags == 'small'")))
        #expect(ids(kennels.where { $0.tags.containsAny(in: ["small", "none"]) }) == [2])
        #expect(ids(kennels.where { $0.scores.min == 1 }) == ids(kennels.filter("scores.@min == 1")))
        #expect(ids(kennels.where { $0.scores.avg == 3 }) == ids(kennels.filter("scores.@avg == 3")))
        #expect(ids(kennels.where { $0.scores.sum > 0 && $0.scores.max < 100 }) == ids(kennels.filter("scores.@sum > 0 AND scores.@max < 100")))
        #expect(ids(kennels.where { $0.scores >= 5 }) == ids(kennels.filter("ANY scores >= 5")))
        try realm.write {
            realm.add(Puppy(value: ["name": "z", "owner": ["id": 5, "name": "Ann", "partner": ["id": 6, "name": "Bob"]]]))
        }
        let puppies = realm.objects(Puppy.self)
        #expect(puppies.where { $0.owner.name == "Ann" }.map(\.name) == ["z"])
        #expect(puppies.where { $0.owner.partner.name.starts(with: "B") }.map(\.name) == ["z"])
        #expect(puppies.where { $0.owner.id > 100 }.isEmpty)
    }

    @Test func subqueriesCountMatchingElements() throws {
        let kennels = try seeded().objects(Kennel.self)
        #expect(ids(kennels.filter("SUBQUERY(dogs, $d, $d.age > 0 AND $d.name != 'b').@count == 1")) == [1, 2])
        #expect(ids(kennels.filter("SUBQUERY(dogs, $d, $d.age > 2).@count >= 1")) == [1, 2])
        #expect(ids(kennels.where { ($0.dogs.age > 0 && $0.dogs.name != "b").count == 1 })
                == ids(kennels.filter("SUBQUERY(dogs, $d, $d.age > 0 AND $d.name != 'b').@count == 1")))
        #expect(ids(kennels.where { ($0.dogs.age > 2).count >= 1 }) == [1, 2])
        #expect(ids(kennels.filter("subquery(dogs, $x, $x.age < %@).@count == 0", 2)) == [2, 3])
        expectError(.invalidQuery) { try kennels.validate(QueryPredicate("SUBQUERY(tags, $t, $t == 'x').@count > 0")) }
        expectError(.invalidQuery) { try kennels.validate(QueryPredicate("SUBQUERY(dogs, $d, age > 1).@count > 0")) }
        expectError(.invalidQuery) { try kennels.validate(QueryPredicate("SUBQUERY(dogs, $d, $d.age > 1) > 0")) }
        expectError(.invalidQuery) { try kennels.validate(QueryPredicate("SUBQUERY(dogs, d, $d.age > 1).@count > 0")) }
    }

    @Test func listQueriesAreLive() throws {
        let realm = try seeded()
        let withRed = realm.objects(Kennel.self).filter("tags == 'red'")
        #expect(withRed.count == 1)
        try realm.write { realm.object(ofType: Kennel.self, forPrimaryKey: 3)!.tags.append("red") }
        #expect(ids(withRed) == [1, 3])
        try realm.write { realm.delete(realm.objects(Puppy.self).filter("name == 'c'")) }
        #expect(ids(realm.objects(Kennel.self).filter("dogs.@count == 0")) == [2, 3])
    }

    @Test func aTypeSafeCountMixingACollectionWithAPropertyTraps() async {
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let directory = TestDirectory()
            let realm = try! directory.realm()
            _ = realm.objects(Kennel.self).where { ($0.dogs.age > 1 && $0.id > 2).count > 0 }
        }.map { expectMessage($0, "needs every key path to go through the collection; 'id' does not.") }
    }
}
