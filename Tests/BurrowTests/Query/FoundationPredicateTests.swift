import Burrow
import Foundation
import Synchronization
import Testing

/// Foundation's `#Predicate` translated into queries: each form must select what the string
/// language selects, use the same indexes, and refuse what has no query form with a message
/// naming the expression.
@Suite struct FoundationPredicateTests {
    let directory = TestDirectory()

    private func people() throws -> Results<Person> {
        let realm = try directory.realm()
        try realm.write {
            for (index, name) in ["Rex", "rover", "Fido", "Äpfel", "Bella"].enumerated() {
                realm.add(Person(value: ["id": index, "name": name, "age": index < 3 ? index * 10 : nil,
                                         "nickname": index == 1 ? "Ro" : nil,
                                         "birthdate": Date(timeIntervalSince1970: Double(index) * 1000),
                                         "mood": index % 2 == 0 ? "calm" : "excited"]))
            }
        }
        return realm.objects(Person.self)
    }

    /// The ids `predicate` selects, checked against the string form's.
    private func ids(_ people: Results<Person>, _ predicate: Predicate<Person>, sameAs format: String,
                     _ args: Any..., sourceLocation: SourceLocation = #_sourceLocation) throws -> [Int] {
        let translated = try people.filter(predicate).map(\.id)
        let expected = people.filter(try QueryPredicate(format: format, argumentArray: args)).map(\.id)
        #expect(translated == expected, "\(format)", sourceLocation: sourceLocation)
        return translated
    }

    @Test func comparisonsSelectWhatTheStringFormSelects() throws {
        let people = try people()
        #expect(try ids(people, #Predicate { $0.id < 2 }, sameAs: "id < 2") == [0, 1])
        #expect(try ids(people, #Predicate { 2 >= $0.id }, sameAs: "id <= 2") == [0, 1, 2])
        #expect(try ids(people, #Predicate { $0.id != 2 }, sameAs: "id != 2") == [0, 1, 3, 4])
        #expect(try ids(people, #Predicate { $0.age == nil }, sameAs: "age == nil") == [3, 4])
        #expect(try ids(people, #Predicate { $0.age != nil }, sameAs: "age != nil") == [0, 1, 2])
        #expect(try ids(people, #Predicate { $0.age! > 5 }, sameAs: "age > 5") == [1, 2])
        #expect(try ids(people, #Predicate { $0.name == "Äpfel" }, sameAs: "name == 'Äpfel'") == [3])
        let excited = Mood.excited
        #expect(try ids(people, #Predicate { $0.mood == excited }, sameAs: "mood == 'excited'") == [1, 3])
    }

    @Test func capturedValuesAreConstants() throws {
        let people = try people()
        let cutoff = Date(timeIntervalSince1970: 2500)
        let name = "Fido"
        #expect(try ids(people, #Predicate { $0.birthdate > cutoff }, sameAs: "birthdate > %@", cutoff) == [3, 4])
        #expect(try ids(people, #Predicate { $0.name == name }, sameAs: "name == %@", name) == [2])
        let none: String? = nil
        #expect(try ids(people, #Predicate { $0.nickname == none }, sameAs: "nickname == nil") == [0, 2, 3, 4])
    }

    @Test func stringsStartAndContain() throws {
        let people = try people()
        #expect(try ids(people, #Predicate { $0.name.starts(with: "R") }, sameAs: "name BEGINSWITH 'R'") == [0])
        #expect(try ids(people, #Predicate { $0.name.contains("el") }, sameAs: "name CONTAINS 'el'") == [3, 4])
        #expect(try ids(people, #Predicate { !$0.name.contains("o") }, sameAs: "NOT name CONTAINS 'o'") == [0, 3, 4])
    }

    @Test func connectivesNest() throws {
        let people = try people()
        #expect(try ids(people, #Predicate { $0.id > 0 && $0.age != nil }, sameAs: "id > 0 AND age != nil") == [1, 2])
        #expect(try ids(people, #Predicate { $0.id == 0 || $0.name == "Bella" }, sameAs: "id == 0 OR name == 'Bella'") == [0, 4])
        #expect(try ids(people, #Predicate { !($0.id == 0 || $0.id == 4) && true }, sameAs: "NOT (id == 0 OR id == 4)") == [1, 2, 3])
        #expect(try people.filter(#Predicate { _ in false }).isEmpty)
        #expect(try people.filter(#Predicate { _ in true }).count == 5)
    }

    @Test func rangesAndListsOfConstants() throws {
        let people = try people()
        #expect(try ids(people, #Predicate { (1...3).contains($0.id) }, sameAs: "id BETWEEN {1, 3}") == [1, 2, 3])
        #expect(try ids(people, #Predicate { (1..<3).contains($0.id) }, sameAs: "id >= 1 AND id < 3") == [1, 2])
        let range = 3...9
        #expect(try ids(people, #Predicate { range.contains($0.id) }, sameAs: "id >= 3 AND id <= 9") == [3, 4])
        let wanted = [4, 0, 99]
        #expect(try ids(people, #Predicate { wanted.contains($0.id) }, sameAs: "id IN %@", wanted) == [0, 4])
        let names: Set = ["Rex", "Bella"]
        #expect(try ids(people, #Predicate { names.contains($0.name) }, sameAs: "name IN {'Rex', 'Bella'}") == [0, 4])
        let empty: [Int] = []
        #expect(try people.filter(#Predicate { empty.contains($0.id) }).isEmpty)
    }

    @Test func nilCoalescingUsesTheFallbackWhereThePropertyIsNil() throws {
        let people = try people()
        #expect(try ids(people, #Predicate { ($0.nickname ?? "none") == "none" }, sameAs: "nickname == nil") == [0, 2, 3, 4])
        #expect(try ids(people, #Predicate { ($0.nickname ?? "none") != "none" }, sameAs: "nickname != nil") == [1])
        #expect(try ids(people, #Predicate { ($0.age ?? 100) > 15 }, sameAs: "age > 15 OR age == nil") == [2, 3, 4])
        #expect(try ids(people, #Predicate { ($0.age ?? 0) > 15 }, sameAs: "age > 15") == [2])
    }

    @Test func indexedEqualityUsesTheIndex() throws {
        let people = try people()
        let byName = try people.filter(#Predicate { $0.name == "Fido" })
        #expect(try !byName.internals.isPlannedAsAScan())
        #expect(try !people.filter(#Predicate { $0.id == 3 }).internals.isPlannedAsAScan())
        #expect(try people.filter(#Predicate { $0.age == 3 }).internals.isPlannedAsAScan())
        #expect(byName.map(\.id) == [2])
    }

    @Test func resultsStayLiveAndChainWithTheOtherForms() throws {
        let people = try people()
        let young = try people.filter(#Predicate { $0.age != nil && $0.age! < 15 })
        #expect(young.map(\.id) == [0, 1])
        try people.realm!.write { people.realm!.add(Person(value: ["id": 9, "name": "Zed", "age": 3])) }
        #expect(young.map(\.id) == [0, 1, 9])
        #expect(try young.filter("name BEGINSWITH 'r'").where { $0.id > 0 }.filter(#Predicate { $0.id < 5 }).map(\.id) == [1])
        let kept = try QueryPredicate(#Predicate<Person> { $0.id >= 4 })
        try people.validate(kept)
        #expect(people.filter(kept).map(\.id) == [4, 9])
    }

    @Test func untranslatableExpressionsThrowNamingThem() throws {
        let people = try people()
        let arithmetic = #Predicate<Person> { $0.id * 2 == 4 }
        let error = try #require(throws: Realm.Error.self) { try people.filter(arithmetic) }
        #expect(error.code == .invalidQuery)
        #expect(error.localizedDescription.contains("Arithmetic"))
        #expect(error.localizedDescription.contains("no query form"))
        let computed = #Predicate<Person> { $0.fullName == "Rex!" }
        let computedError = try #require(throws: Realm.Error.self) { try people.filter(computed) }
        #expect(computedError.localizedDescription.contains("reads a property of 'Person' that is not @Persisted"))
        let plain = #Predicate<Person> { $0.scratch == 0 }
        #expect(throws: Realm.Error.self) { try people.filter(plain) }
        let length = #Predicate<Person> { $0.name.count > 3 }
        let lengthError = try #require(throws: Realm.Error.self) { try people.filter(length) }
        #expect(lengthError.localizedDescription.contains("not of their values"))
        let twoProperties = #Predicate<Person> { $0.name.starts(with: $0.nickname ?? "") }
        #expect(throws: Realm.Error.self) { try people.filter(twoProperties) }
    }

    @Test func translationIsSafeFromManyThreadsAtOnce() throws {
        let failures = Mutex(0)
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            for round in 0..<200 {
                let bound = worker * 1000 + round
                do {
                    _ = try QueryPredicate(#Predicate<Person> { $0.id > bound && $0.name.starts(with: "R") })
                } catch {
                    failures.withLock { $0 += 1 }
                }
            }
        }
        #expect(failures.withLock { $0 } == 0)
    }
}
