import Burrow
import Foundation
import Testing

/// Queries that go through a to-one link into the linked object's lists, sets, maps and
/// linking objects (`parent.tags.@count`, `ANY parent.tags`, `parent.attrs['k']`), checked
/// against a model in Swift. A `nil` link has no collections: `ANY` matches nothing, `ALL` and
/// `NONE` match, an aggregate (`@count`) has no value and matches nothing, and a map value
/// reads as `nil`.
@Suite struct LinkedCollectionQueryTests {
    let directory = TestDirectory()

    private struct Holder {
        let id: Int
        var tags: [String]
        var labels: Set<String>
        var attrs: [String: Int]
    }

    private struct Row {
        let id: Int
        var parent: Int?
    }

    private struct World {
        var holders: [Int: Holder] = [:]
        var rows: [Row] = []

        func holder(of row: Row) -> Holder? { row.parent.flatMap { holders[$0] } }
        func taggedCount(of holder: Holder) -> Int { rows.filter { $0.parent == holder.id }.count }
    }

    private typealias Condition = ModelCondition<(World, Row)>

    private static let words = ["a", "b", "é", "🐶", ""]

    private static func atom(_ generator: inout SplitMix64) -> Condition {
        let n = Int.random(in: 0...3, using: &generator)
        let word = words.randomElement(using: &generator)!
        let key = ["k", "l", "m"].randomElement(using: &generator)!
        let atoms: [Condition] = [
            Condition(query: "parent.tags.@count == \(n)") { world, row in world.holder(of: row).map { $0.tags.count == n } ?? false },
            Condition(query: "parent.tags.@count > \(n)") { world, row in world.holder(of: row).map { $0.tags.count > n } ?? false },
            Condition(query: "parent.tags.@size != \(n)") { world, row in world.holder(of: row).map { $0.tags.count != n } ?? false },
            Condition(query: "ANY parent.tags == '\(word)'") { world, row in world.holder(of: row)?.tags.contains(word) ?? false },
            Condition(query: "parent.tags == '\(word)'") { world, row in world.holder(of: row)?.tags.contains(word) ?? false },
            Condition(query: "'\(word)' IN parent.tags") { world, row in world.holder(of: row)?.tags.contains(word) ?? false },
            Condition(query: "ALL parent.tags == '\(word)'") { world, row in world.holder(of: row)?.tags.allSatisfy { $0 == word } ?? true },
            Condition(query: "NONE parent.tags == '\(word)'") { world, row in !(world.holder(of: row)?.tags.contains(word) ?? false) },
            Condition(query: "ANY parent.tags BEGINSWITH 'a'") { world, row in world.holder(of: row)?.tags.contains { $0.hasPrefix("a") } ?? false },
            Condition(query: "parent.labels.@count == \(n)") { world, row in world.holder(of: row).map { $0.labels.count == n } ?? false },
            Condition(query: "ANY parent.labels == '\(word)'") { world, row in world.holder(of: row)?.labels.contains(word) ?? false },
            Condition(query: "parent.attrs['\(key)'] == \(n)") { world, row in world.holder(of: row)?.attrs[key] == n },
            Condition(query: "parent.attrs['\(key)'] > \(n)") { world, row in (world.holder(of: row)?.attrs[key]).map { $0 > n } ?? false },
            Condition(query: "parent.attrs['\(key)'] == nil") { world, row in world.holder(of: row)?.attrs[key] == nil },
            Condition(query: "parent.attrs.@count == \(n)") { world, row in world.holder(of: row).map { $0.attrs.count == n } ?? false },
            Condition(query: "ANY parent.attrs.@allKeys == '\(key)'") { world, row in world.holder(of: row)?.attrs.keys.contains(key) ?? false },
            Condition(query: "parent.attrs.@sum >= \(n * 2)") { world, row in world.holder(of: row).map { $0.attrs.values.reduce(0, +) >= n * 2 } ?? false },
            Condition(query: "parent.tagged.@count == \(n)") { world, row in world.holder(of: row).map { world.taggedCount(of: $0) == n } ?? false },
            Condition(query: "ANY parent.tagged.id == \(n * 3)") { world, row in
                world.holder(of: row).map { holder in world.rows.contains { $0.parent == holder.id && $0.id == n * 3 } } ?? false
            },
            Condition(query: "parent.id == \(n)") { _, row in row.parent == n },
            Condition(query: "parent == nil") { _, row in row.parent == nil },
        ]
        return atoms.randomElement(using: &generator)!
    }

    private static func randomHolder(id: Int, _ generator: inout SplitMix64) -> Holder {
        let tags = (0..<Int.random(in: 0...4, using: &generator)).map { _ in words.randomElement(using: &generator)! }
        let labels = Set((0..<Int.random(in: 0...3, using: &generator)).map { _ in words.randomElement(using: &generator)! })
        var attrs: [String: Int] = [:]
        for key in ["k", "l", "m"] where Bool.random(using: &generator) { attrs[key] = Int.random(in: 0...4, using: &generator) }
        return Holder(id: id, tags: tags, labels: labels, attrs: attrs)
    }

    private static func store(_ holder: Holder, in realm: Realm) {
        let object = realm.object(ofType: TagHolder.self, forPrimaryKey: holder.id) ?? realm.create(TagHolder.self, value: ["id": holder.id])
        object.tags.removeAll()
        object.tags.append(objectsIn: holder.tags)
        object.labels.removeAll()
        object.labels.insert(objectsIn: holder.labels)
        object.attrs.removeAll()
        for (key, value) in holder.attrs { object.attrs[key] = value }
    }

    @Test func randomQueriesThroughALinkMatchAModel() throws {
        var generator = SplitMix64(seed: 20261206)
        let realm = try directory.realm()
        var world = World()
        try realm.write {
            for id in 0..<4 {
                let holder = Self.randomHolder(id: id, &generator)
                world.holders[id] = holder
                Self.store(holder, in: realm)
            }
            for id in 0..<30 {
                let parent: Int? = Int.random(in: 0..<5, using: &generator) == 0 ? nil : Int.random(in: 0..<4, using: &generator)
                world.rows.append(Row(id: id, parent: parent))
                realm.create(Tagged.self, value: ["id": id, "parent": parent.map { realm.object(ofType: TagHolder.self, forPrimaryKey: $0)! } as Any])
            }
        }
        let tagged = realm.objects(Tagged.self)
        for round in 0..<500 {
            // Now and then the collections and the links change, so no answer is remembered.
            if round % 50 == 49 {
                try realm.write {
                    let id = Int.random(in: 0..<4, using: &generator)
                    world.holders[id] = Self.randomHolder(id: id, &generator)
                    Self.store(world.holders[id]!, in: realm)
                    let row = Int.random(in: 0..<world.rows.count, using: &generator)
                    world.rows[row].parent = Bool.random(using: &generator) ? nil : Int.random(in: 0..<4, using: &generator)
                    realm.object(ofType: Tagged.self, forPrimaryKey: row)!.parent =
                        world.rows[row].parent.map { realm.object(ofType: TagHolder.self, forPrimaryKey: $0)! }
                }
            }
            let condition = Condition.random(&generator, atom: Self.atom)
            let expected = world.rows.filter { condition.test((world, $0)) }.map(\.id)
            let predicate = try QueryPredicate(condition.query)
            try tagged.validate(predicate)
            #expect(Array(tagged.filter(predicate).sorted(byKeyPath: "id").map(\.id)) == expected, "\(condition.query)")
            #expect(tagged.filter(predicate).count == expected.count, "\(condition.query)")
        }
        expectIntact(directory.file())
    }

    @Test func theTypeSafeQueryCountsThroughALink() throws {
        let realm = try directory.realm()
        try realm.write {
            let holder = realm.create(TagHolder.self, value: ["id": 1, "tags": ["x"], "labels": ["y", "z"]])
            realm.create(Tagged.self, value: ["id": 1, "parent": holder])
            realm.create(Tagged.self, value: ["id": 2])
        }
        let tagged = realm.objects(Tagged.self)
        #expect(tagged.where { $0.parent.tags.count == 1 }.map(\.id) == [1])
        #expect(tagged.where { $0.parent.labels.count == 2 || $0.id == 2 }.map(\.id) == [1, 2])
        #expect(tagged.where { $0.parent.tags.contains("x") }.map(\.id) == [1])
        #expect(tagged.where { $0.parent.tags.count == 0 }.isEmpty)
    }

    /// The shapes that used to be refused or to stop the process, through the throwing API.
    @Test func shapesThroughALinkAreValid() throws {
        let realm = try directory.realm()
        try realm.write {
            let holder = realm.create(TagHolder.self, value: ["id": 1, "tags": ["x", "y"], "attrs": ["k": 1]])
            realm.create(Tagged.self, value: ["id": 1, "parent": holder])
        }
        let tagged = realm.objects(Tagged.self)
        for query in ["parent.tags.@count == 2", "parent.attrs['k'] == 1", "ANY parent.tags == 'x'",
                      "id == 5 OR parent.tags.@count == 2", "parent.attrs.@allValues == 1", "parent.tagged.@count == 1",
                      "'y' IN parent.tags", "ALL parent.tags != 'z'"] {
            let predicate = try QueryPredicate(query)
            try tagged.validate(predicate)
            #expect(tagged.filter(predicate).count == 1, "\(query)")
        }
        // SUBQUERY over a collection of the linked object.
        try realm.write {
            let one = realm.create(Friend.self, value: ["name": "one"])
            let two = realm.create(Friend.self, value: ["name": "two", "best": one])
            one.friends.append(two)
            let three = realm.create(Friend.self, value: ["name": "three"])
            three.best = three
        }
        let friends = realm.objects(Friend.self)
        #expect(friends.filter("SUBQUERY(best.friends, $f, $f.name == 'two').@count == 1").map(\.name) == ["two"])
        #expect(friends.filter("SUBQUERY(best.friends, $f, $f.name == 'two').@count == 0").map(\.name) == ["three"])
        #expect(friends.filter("ANY best.best.friends.name == 'two'").isEmpty)
        #expect(friends.filter("NONE best.best.friends.name == 'two'").count == 3)
        #expect(friends.filter("best.friends.@count == 1 AND best.best == nil").map(\.name) == ["two"])
        // A key path that does not lead to a collection still says why.
        for (query, reason) in [("ANY parent.id == 1", "'ANY' needs a list"),
                                ("'x' BEGINSWITH parent.tags", "'BEGINSWITH' needs the property on its left")] {
            do {
                try tagged.validate(QueryPredicate(query))
                Issue.record("\(query) was accepted")
            } catch let error as Realm.Error {
                #expect(error.code == .invalidQuery && error.message.contains(reason), "\(query): \(error.message)")
            }
        }
    }
}
