import Burrow
import Foundation
import Testing

/// Random queries (comparisons on the primary key, on indexes and on plain properties, nested
/// in AND, OR and NOT), sorted and paged at random, answer exactly what a model in Swift does:
/// whatever path the planner takes (key points and ranges, index points and ranges, an index
/// walk for the sort, a scan).
@Suite struct QueryModelTests {
    let directory = TestDirectory()

    private struct Row {
        let id: Int
        let name: String
        let nickname: String?
        let age: Int?
    }

    private typealias Condition = ModelCondition<Row>

    private static func atom(_ generator: inout SplitMix64) -> Condition {
        let number = Int.random(in: -25...65, using: &generator)
        let other = Int.random(in: -25...65, using: &generator)
        let small = Int.random(in: -1...10, using: &generator)
        let name = "n\(Int.random(in: 0..<9, using: &generator))"
        let otherName = "n\(Int.random(in: 0..<9, using: &generator))"
        let atoms: [Condition] = [
            Condition(query: "id == \(number)") { $0.id == number },
            Condition(query: "id != \(number)") { $0.id != number },
            Condition(query: "id > \(number)") { $0.id > number },
            Condition(query: "id <= \(number)") { $0.id <= number },
            Condition(query: "id BETWEEN {\(min(number, other)), \(max(number, other))}") { (min(number, other)...max(number, other)).contains($0.id) },
            Condition(query: "id IN {\(number), \(other), \(number + 1)}") { [number, other, number + 1].contains($0.id) },
            Condition(query: "name == '\(name)'") { $0.name == name },
            Condition(query: "name != '\(name)'") { $0.name != name },
            Condition(query: "name < '\(name)'") { $0.name < name },
            Condition(query: "name >= '\(name)'") { $0.name >= name },
            Condition(query: "name BEGINSWITH 'n1'") { $0.name.hasPrefix("n1") },
            Condition(query: "name IN {'\(name)', '\(otherName)'}") { [name, otherName].contains($0.name) },
            Condition(query: "age == \(small)") { $0.age == small },
            Condition(query: "age > \(small)") { $0.age.map { $0 > small } ?? false },
            Condition(query: "age <= \(small)") { $0.age.map { $0 <= small } ?? false },
            Condition(query: "age == nil") { $0.age == nil },
            Condition(query: "age != nil") { $0.age != nil },
            Condition(query: "nickname == nil") { $0.nickname == nil },
            Condition(query: "nickname CONTAINS 'a'") { $0.nickname?.contains("a") ?? false },
            Condition(query: "nickname == 'ba'") { $0.nickname == "ba" },
        ]
        return atoms.randomElement(using: &generator)!
    }

    /// The model's order: by each key path in turn, nil first ascending (last descending), ties
    /// kept in object order (ascending primary key).
    private static func sorted(_ rows: [Row], by descriptors: [(keyPath: String, ascending: Bool)]) -> [Row] {
        func order(_ lhs: Row, _ rhs: Row, _ keyPath: String) -> Int {
            func compare<T: Comparable>(_ a: T?, _ b: T?) -> Int {
                switch (a, b) {
                case (nil, nil): return 0
                case (nil, _): return -1
                case (_, nil): return 1
                case let (a?, b?): return a < b ? -1 : (a == b ? 0 : 1)
                }
            }
            switch keyPath {
            case "id": return compare(lhs.id, rhs.id)
            case "name": return compare(lhs.name, rhs.name)
            case "age": return compare(lhs.age, rhs.age)
            default: return compare(lhs.nickname, rhs.nickname)
            }
        }
        return rows.enumerated().sorted { a, b in
            for descriptor in descriptors {
                let result = order(a.element, b.element, descriptor.keyPath)
                if result != 0 { return descriptor.ascending ? result < 0 : result > 0 }
            }
            return a.offset < b.offset
        }.map(\.element)
    }

    @Test func randomQueriesSortsAndPagesMatchAModel() throws {
        var generator = SplitMix64(seed: 20261202)
        let realm = try directory.realm()
        var rows: [Row] = []
        var ids = Set<Int>()
        while ids.count < 45 { ids.insert(Int.random(in: -20...60, using: &generator)) }
        try realm.write {
            for id in ids.sorted() {
                let row = Row(id: id, name: "n\(Int.random(in: 0..<8, using: &generator))",
                              nickname: Int.random(in: 0..<3, using: &generator) == 0 ? nil : ["a", "ba", "c", ""].randomElement(using: &generator)!,
                              age: Int.random(in: 0..<4, using: &generator) == 0 ? nil : Int.random(in: 0..<10, using: &generator))
                rows.append(row)
                realm.add(Person(value: ["id": row.id, "name": row.name, "nickname": row.nickname as Any, "age": row.age as Any]))
            }
        }
        let people = realm.objects(Person.self)
        for round in 0..<600 {
            // Every hundred queries, some objects change, go and come, so indexes are kept up.
            if round % 100 == 99 {
                try realm.write {
                    for _ in 0..<10 {
                        let position = Int.random(in: 0..<rows.count, using: &generator)
                        let old = rows[position]
                        let person = realm.object(ofType: Person.self, forPrimaryKey: old.id)!
                        if Bool.random(using: &generator) {
                            let row = Row(id: old.id, name: "n\(Int.random(in: 0..<8, using: &generator))", nickname: old.nickname,
                                          age: Bool.random(using: &generator) ? nil : Int.random(in: 0..<10, using: &generator))
                            person.name = row.name
                            person.age = row.age
                            rows[position] = row
                        } else {
                            realm.delete(person)
                            rows.remove(at: position)
                            let id = (rows.map(\.id).max() ?? 0) + 1
                            let row = Row(id: id, name: old.name, nickname: old.nickname, age: old.age)
                            realm.add(Person(value: ["id": id, "name": row.name, "nickname": row.nickname as Any, "age": row.age as Any]))
                            rows.append(row)
                        }
                    }
                }
            }
            let condition = Condition.random(&generator, atom: Self.atom)
            var expected = rows.filter(condition.test)
            var results = people.filter(condition.query)
            let keyPaths = ["id", "name", "age", "nickname"].shuffled(using: &generator)
            let descriptors = (0..<Int.random(in: 0...2, using: &generator)).map { (keyPath: keyPaths[$0], ascending: Bool.random(using: &generator)) }
            if !descriptors.isEmpty {
                expected = Self.sorted(expected, by: descriptors)
                results = results.sorted(by: descriptors.map { SortDescriptor(keyPath: $0.keyPath, ascending: $0.ascending) })
            }
            let described = "\(condition.query) sorted by \(descriptors)"
            #expect(results.map(\.id) == expected.map(\.id), "\(described)")
            #expect(results.count == expected.count, "\(described)")
            let page = Int.random(in: 1...5, using: &generator)
            #expect(Array(results.limit(page).map(\.id)) == Array(expected.prefix(page).map(\.id)), "\(described), first \(page)")
        }
        expectIntact(directory.file())
    }

    /// The same over the members of a set: the members are tested one by one, whatever the
    /// planner would do for the whole table.
    @Test func queriesOverASetMatchAModel() throws {
        var generator = SplitMix64(seed: 20261203)
        let realm = try directory.realm()
        let club = Club()
        var members: [Row] = []
        try realm.write {
            realm.add(club)
            for id in -20...60 {
                let row = Row(id: id, name: "n\(Int.random(in: 0..<8, using: &generator))", nickname: nil, age: nil)
                let owner = Owner(value: ["id": id, "name": row.name])
                realm.add(owner)
                if Bool.random(using: &generator) {
                    club.members.insert(owner)
                    members.append(row)
                }
            }
        }
        for _ in 0..<300 {
            var condition = Condition.random(&generator, atom: Self.atom)
            // Owners have no age or nickname: those atoms read as nil.
            while condition.query.contains("age") || condition.query.contains("nickname") { condition = Condition.random(&generator, atom: Self.atom) }
            let expected = members.filter(condition.test).map(\.id)
            #expect(club.members.filter(condition.query).sorted(byKeyPath: "id").map(\.id) == expected, "\(condition.query)")
            #expect(club.members.filter(condition.query).count == expected.count, "\(condition.query)")
        }
        expectIntact(directory.file())
    }
}
