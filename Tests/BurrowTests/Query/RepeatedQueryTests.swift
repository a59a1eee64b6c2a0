import Burrow
import Foundation
import Synchronization
import Testing

/// One query string run again and again with new arguments, as a service runs its queries:
/// every run must answer for its own arguments, on every thread, and results narrowed from
/// results nothing else holds must leave held ones alone.
@Suite struct RepeatedQueryTests {
    /// People named `name-0` … `name-(count-1)`, `copies` of each, ages 0, 1, 2…
    private func realmOfPeople(_ directory: TestDirectory, names count: Int, copies: Int) throws -> Realm {
        let realm = try directory.realm()
        try realm.write {
            for index in 0..<count * copies {
                realm.add(Person(value: ["id": index, "name": "name-\(index % count)", "age": index]))
            }
        }
        return realm
    }

    @Test func oneStringWithManyArgumentsAnswersForEach() throws {
        let directory = TestDirectory()
        let realm = try realmOfPeople(directory, names: 50, copies: 3)
        for round in 0..<3 {
            for index in 0..<60 {
                let name = "name-\(index)"
                let expected = index < 50 ? 3 : 0
                // Two strings in turn, and a lone equality beside one the index does not answer alone.
                #expect(realm.objects(Person.self).filter("name == %@", name).count == expected)
                #expect(realm.objects(Person.self).filter("name == %@ AND age >= %@", name, 50).count == (index < 50 ? 2 : 0))
                #expect(realm.objects(Person.self).filter("%K == %@", "name", name).first?.name == (expected > 0 ? name : nil))
                #expect(realm.objects(Person.self).filter("id == %@", index + round).first?.id == index + round)
            }
        }
        // An argument of another type for the same string is bound anew, not taken for the last.
        #expect(realm.objects(Person.self).filter("%K == %@", "age", 7).count == 1)
        #expect(realm.objects(Person.self).filter("%K == %@", "name", "7").count == 0)
    }

    @Test func threadsRunningTheSameStringsAtOnceGetTheirOwnAnswers() throws {
        let directory = TestDirectory()
        _ = try realmOfPeople(directory, names: 40, copies: 2)
        let wrong = Atomic(0)
        let configuration = directory.configuration()
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            let realm = try! Realm(configuration: configuration)
            for round in 0..<200 {
                let index = (round * 7 + thread) % 45
                let people = realm.objects(Person.self)
                let count = people.filter("name == %@", "name-\(index)").count
                let older = people.filter("name == %@ AND age >= %@", "name-\(index)", 40).count
                if count != (index < 40 ? 2 : 0) || older != (index < 40 ? 1 : 0) { wrong.add(1, ordering: .relaxed) }
            }
        }
        #expect(wrong.load(ordering: .relaxed) == 0)
    }

    @Test func narrowingResultsLeavesTheResultsHeldAlone() throws {
        let directory = TestDirectory()
        let realm = try realmOfPeople(directory, names: 10, copies: 2)
        let everyone = realm.objects(Person.self)
        let named = everyone.filter("name == %@", "name-3")
        let sorted = named.sorted(byKeyPath: "age", ascending: false)
        let page = sorted.limit(1)
        #expect(everyone.count == 20)
        #expect(named.map(\.id) == [3, 13])
        #expect(sorted.map(\.id) == [13, 3])
        #expect(page.map(\.id) == [13])
        // The same chain on results nothing else holds gives the same answers.
        let chained = realm.objects(Person.self).filter("name == %@", "name-3").sorted(byKeyPath: "age", ascending: false).limit(1)
        #expect(chained.map(\.id) == [13])
        #expect(realm.objects(Person.self).distinct(by: ["name"]).count == 10)
    }

    @Test func resultsNarrowedFromATemporaryFollowWrites() throws {
        let directory = TestDirectory()
        let realm = try realmOfPeople(directory, names: 5, copies: 1)
        let named = realm.objects(Person.self).filter("name == %@", "name-2")
        let older = realm.objects(Person.self).filter("age > %@", 3)
        #expect(named.count == 1)
        #expect(older.count == 1)
        try realm.write {
            realm.add(Person(value: ["id": 100, "name": "name-2", "age": 100]))
        }
        #expect(named.count == 2)
        #expect(named.last?.id == 100)
        #expect(older.count == 2)
        #expect(!named.isInvalidated)
    }
}
