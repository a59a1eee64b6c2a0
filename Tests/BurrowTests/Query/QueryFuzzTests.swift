import Burrow
import Foundation
import Testing

/// Feeds the parser thousands of generated and mutated queries: each either parses (and then
/// runs) or throws `invalidQuery`; none may crash or hang. A quarter run on a thread with a
/// 512 KiB stack. `BURROW_QUERY_FUZZ_SCALE` multiplies the rounds (50 makes 200,000 queries of
/// Person and 500,000 through links).
@Suite struct QueryFuzzTests {
    let directory = TestDirectory()
    private static let scale = Int(ProcessInfo.processInfo.environment["BURROW_QUERY_FUZZ_SCALE"] ?? "") ?? 1

    private static let fragments = [
        "age", "name", "id", "nickname", "birthdate", "picture", "mood", "agee", "owner.name", "%K", "%@", "%2@",
        "==", "=", "!=", "<>", "<", "<=", ">", ">=", "=<", "=>", "BEGINSWITH", "ENDSWITH", "CONTAINS", "LIKE", "IN",
        "BETWEEN", "[c]", "[d]", "[cd]", "[x]", "AND", "OR", "NOT", "&&", "||", "!", "(", ")", "{", "}", ",",
        "TRUEPREDICATE", "FALSEPREDICATE", "true", "false", "nil", "NULL", "ANY", "ALL", "NONE", "SOME",
        "1", "-2", "3.5", "1e309", "-0", "99999999999999999999", "'x'", "\"y\"", "'it\\'s'", "'\\u00e9'", "'",
        "2026-01-31@10:00:00", "T0:0", "uuid(3B241101-E2BB-4255-8CAF-4136C566A962)", "oid(6401f0b0c1d2e3f405060708)",
        "B64\"AQI=\"", "SORT(", "DISTINCT(", "LIMIT(", "ASC", "DESC", "@count", "$x", "SUBQUERY", "%", "#", "\\",
        "é", "🐶", "\u{0}",
    ]

    private static let wellFormed = [
        "age < 2", "name BEGINSWITH[c] 'r' AND age >= 1", "NOT (id IN {1, 2, 3}) OR nickname == nil",
        "birthdate > 2026-01-31@10:00:00 SORT(name DESC) LIMIT(5)", "name LIKE '*e?' DISTINCT(name)",
        "age BETWEEN {1, 10}", "%K == %@", "mood == 'calm' && id != 3 || !(age < 1)",
    ]

    /// Shapes through a to-one link into lists, sets, maps and linking objects.
    private static let linkFragments = [
        "parent", "parent.tags", "parent.labels", "parent.attrs", "parent.tagged", "parent.tagged.id", "tags", "id",
        "parent.tags.@count", "parent.tags.@size", "parent.attrs['k']", "parent.attrs[%@]", "parent.attrs.@allKeys",
        "parent.attrs.@allValues", ".@count", ".@sum", "['k']", "ANY", "ALL", "NONE", "SUBQUERY(parent.tagged, $t, $t.id > 1)",
        "==", "!=", "<", ">=", "IN", "BEGINSWITH", "[c]", "AND", "OR", "NOT", "(", ")", "{", "}", ",", "nil", "1", "'x'",
        "%@", "$t", ".", "[", "]",
    ]

    private static let linkWellFormed = [
        "parent.tags.@count == 1", "ANY parent.tags == 'x' OR parent.attrs['k'] > 2", "NOT (parent.labels.@count == 0)",
        "'x' IN parent.tags AND ALL parent.tags BEGINSWITH 'x'", "parent.tagged.@count >= 1 AND NONE parent.labels == 'y'",
        "parent.attrs.@allKeys == 'k' OR parent == nil",
    ]

    @Test func randomAndMutatedQueriesParseOrThrow() throws {
        let realm = try directory.realm()
        try realm.write {
            for id in 0..<20 { realm.add(Person(value: ["id": id, "name": "n\(id)", "age": (id % 4 == 0 ? nil : id) as Any])) }
        }
        try run(on: realm.objects(Person.self), seed: 20261130, Self.fragments, Self.wellFormed)
    }

    @Test func queriesThroughLinksIntoCollectionsParseOrThrow() throws {
        let realm = try directory.realm()
        try realm.write {
            let holder = realm.create(TagHolder.self, value: ["id": 1, "tags": ["x", "y"], "labels": ["y"], "attrs": ["k": 3]])
            for id in 0..<10 { realm.create(Tagged.self, value: ["id": id, "parent": (id % 3 == 0 ? nil : holder) as Any]) }
        }
        try run(on: realm.objects(Tagged.self), seed: 20261206, rounds: 10_000, Self.linkFragments, Self.linkWellFormed)
    }

    /// Parses, checks and runs `rounds` queries made from `fragments` or mutated from
    /// `wellFormed`, every fourth on a thread with a 512 KiB stack (through a realm of its own).
    private func run<T: Object>(on objects: Results<T>, seed: UInt64, rounds: Int = 4000, _ fragments: [String], _ wellFormed: [String]) throws {
        var generator = SplitMix64(seed: seed)
        var tally = Tally()
        let configuration = directory.configuration()
        for round in 0..<rounds * Self.scale {
            let query = round % 2 == 0 ? Self.generated(&generator, fragments) : Self.mutated(&generator, wellFormed, fragments)
            let argument = Int.random(in: 0..<Self.arguments.count, using: &generator)
            if round % 4 == 3 {
                let outcome = TallyBox()
                onAnotherThread(stackSize: 512 * 1024) { [query] in
                    let realm = try! Realm(configuration: configuration)
                    outcome.tally.check(query, [Self.arguments[argument], "age", 3], on: realm.objects(T.self))
                }
                tally.add(outcome.tally)
            } else {
                tally.check(query, [Self.arguments[argument], "age", 3], on: objects)
            }
        }
        #expect(tally.mistakes.isEmpty, "\(tally.mistakes.prefix(20))")
        #expect(tally.parsed > 200 && tally.rejected > 200 && tally.ran > 100, "parsed \(tally.parsed), rejected \(tally.rejected), ran \(tally.ran)")
    }

    /// The values `%@` takes.
    private static var arguments: [Any] { ["name", 5, "x", Date(), 2.5, Optional<Int>.none as Any] }

    /// A tally filled on another thread, read once that thread is joined.
    private final class TallyBox: @unchecked Sendable {
        var tally = Tally()
    }

    /// What the queries did: parsed, rejected, ran, and the errors that were not `invalidQuery` with a position.
    private struct Tally: Sendable {
        var parsed = 0, rejected = 0, ran = 0
        var mistakes: [String] = []

        mutating func check<T: Object>(_ query: String, _ arguments: [Any], on objects: Results<T>) {
            do {
                let predicate = try QueryPredicate(format: query, argumentArray: arguments)
                parsed += 1
                do {
                    try objects.validate(predicate)
                    ran += 1
                    _ = objects.filter(predicate).count
                } catch {
                    note(error, query)
                }
            } catch {
                rejected += 1
                note(error, query)
            }
        }

        private mutating func note(_ error: any Error, _ query: String) {
            guard let error = error as? Realm.Error, error.code == .invalidQuery, error.message.contains("position") else {
                mistakes.append("\(query): \(error)")
                return
            }
        }

        mutating func add(_ other: Tally) {
            parsed += other.parsed
            rejected += other.rejected
            ran += other.ran
            mistakes += other.mistakes
        }
    }

    private static func generated(_ generator: inout SplitMix64, _ fragments: [String]) -> String {
        (0..<Int.random(in: 1...9, using: &generator)).map { _ in fragments.randomElement(using: &generator)! }
            .joined(separator: Bool.random(using: &generator) ? " " : "")
    }

    private static func mutated(_ generator: inout SplitMix64, _ wellFormed: [String], _ fragments: [String]) -> String {
        var characters = Array(wellFormed.randomElement(using: &generator)!)
        for _ in 0..<Int.random(in: 1...4, using: &generator) {
            let position = Int.random(in: 0...characters.count, using: &generator)
            switch Int.random(in: 0..<3, using: &generator) {
            case 0 where position < characters.count: characters.remove(at: position)
            case 1: characters.insert(contentsOf: Array(fragments.randomElement(using: &generator)!), at: position)
            default:
                if position < characters.count {
                    characters[position] = Array("()'\"{},%@[]=<>!&|.-0123456789 ").randomElement(using: &generator)!
                }
            }
        }
        return String(characters)
    }
}

/// A small seeded generator, so that a failing run can be repeated.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
