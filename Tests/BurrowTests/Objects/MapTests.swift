import Burrow
import Foundation
import Testing

@Suite struct MapTests {
    let directory = TestDirectory()

    @Test func unmanagedMapsAreDictionaries() {
        let ledger = Ledger()
        ledger.scores["chess"] = 1800
        ledger.scores["go"] = 5
        ledger.scores["go"] = nil
        #expect(ledger.scores.keys == ["chess"])
        #expect(ledger.scores["chess"] == 1800 && ledger.scores.count == 1)
        #expect(ledger.scores.contains(key: "chess") && !ledger.scores.contains(key: "go"))
    }

    @Test func aMapReadsAsKeyValuePairs() throws {
        // RealmSwift's testEnumeratingMap reads `asKeyValueSequence()`.
        let realm = try directory.realm()
        let ledger = Ledger(value: ["id": 1, "scores": ["b": 2, "a": 1]])
        var pairs: [String] = []
        for (key, value) in ledger.scores.asKeyValueSequence() { pairs.append("\(key)=\(value)") }
        #expect(pairs.sorted() == ["a=1", "b=2"])
        try realm.write { realm.add(ledger) }
        #expect(ledger.scores.asKeyValueSequence().map { "\($0.key)=\($0.value)" } == ["a=1", "b=2"])
        #expect(Array(Ledger().scores.asKeyValueSequence()).isEmpty)
    }

    @Test func managedMapsReadAndWriteByKey() throws {
        let realm = try directory.realm()
        let ledger = Ledger(value: ["id": 1, "scores": ["b": 2, "a": 1], "pets": ["home": ["name": "Rex"]]])
        try realm.write { realm.add(ledger) }
        #expect(ledger.scores.keys == ["a", "b"])
        #expect(ledger.scores.values == [1, 2])
        #expect(ledger.pets["home"]??.name == "Rex")
        #expect(realm.objects(Puppy.self).count == 1)
        let long = String(repeating: "k", count: 500)
        try realm.write {
            ledger.scores["c"] = 3
            ledger.scores["a"] = 10
            ledger.scores.removeObject(for: "b")
            ledger.scores[long] = 7
            ledger.pets["away"] = Puppy(value: ["name": "Fido"])
        }
        #expect(ledger.scores["a"] == 10 && ledger.scores["b"] == nil && ledger.scores["c"] == 3)
        #expect(ledger.scores[long] == 7 && ledger.scores[String(repeating: "k", count: 499) + "j"] == nil)
        #expect(Array(ledger.scores).map(\.key).prefix(2) == ["a", "c"])
        #expect(ledger.pets.count == 2)
        try realm.write { ledger.scores.removeAll() }
        #expect(ledger.scores.isEmpty)
    }

    @Test func deletingAnObjectClearsTheEntriesPointingAtIt() throws {
        let realm = try directory.realm()
        let rex = Puppy(value: ["name": "Rex"])
        let ledger = Ledger(value: ["id": 1, "pets": ["home": rex, "office": rex, "park": ["name": "Fido"]]])
        try realm.write { realm.add(ledger) }
        try realm.write { realm.delete(rex) }
        #expect(ledger.pets.keys == ["home", "office", "park"])
        #expect(ledger.pets["home"]! == nil && ledger.pets["office"]! == nil)
        #expect(ledger.pets["park"]??.name == "Fido")
        try realm.write { realm.delete(ledger) }
        #expect(realm.objects(Puppy.self).count == 1)
        #expect(realm.fileSchema["Ledger"]?["pets"]?.isMap == true)
    }

    /// Three ledgers: two with scores and a pet at "home", one empty.
    private func seededLedgers() throws -> Results<Ledger> {
        let realm = try directory.realm()
        try realm.write {
            realm.add(Ledger(value: ["id": 1, "scores": ["chess": 1800, "go": 5], "pets": ["home": ["name": "Rex", "age": 3]]]))
            realm.add(Ledger(value: ["id": 2, "scores": ["chess": 900], "pets": ["home": ["name": "Fido", "age": 9]]]))
            realm.add(Ledger(value: ["id": 3]))
        }
        return realm.objects(Ledger.self)
    }

    @Test func mapsCanBeQueried() throws {
        let ledgers = try seededLedgers()
        func ids(_ results: Results<Ledger>) -> [Int] { results.map(\.id) }
        #expect(ids(ledgers.filter("scores['chess'] > 1000")) == [1])
        #expect(ids(ledgers.filter("scores['go'] == nil")) == [2, 3])
        #expect(ids(ledgers.filter("pets['home'].name == 'Fido'")) == [2])
        #expect(ids(ledgers.filter("pets['home'].age > %@", 2)) == [1, 2])
        #expect(ids(ledgers.filter("scores.@allKeys == 'go'")) == [1])
        #expect(ids(ledgers.filter("ANY scores.@allValues < 10")) == [1])
        #expect(ids(ledgers.filter("scores > 1000")) == [1])
        #expect(ids(ledgers.filter("scores.@count == 0")) == [3])
        #expect(ids(ledgers.filter("scores.@max >= 900")) == [1, 2])
        #expect(ids(ledgers.filter("ANY pets.name BEGINSWITH 'R'")) == [1])
        expectError(.invalidQuery) { try ledgers.validate(QueryPredicate("id['x'] == 1")) }
        expectError(.invalidQuery) { try ledgers.validate(QueryPredicate("scores['x'].name == 1")) }
    }

    @Test func mapsCanBeQueriedTypeSafely() throws {
        let ledgers = try seededLedgers()
        func ids(_ results: Results<Ledger>) -> [Int] { results.map(\.id) }
        #expect(ids(ledgers.where { $0.scores["chess"] > 1000 }) == ids(ledgers.filter("scores['chess'] > 1000")))
        #expect(ids(ledgers.where { $0.scores["go"] == 5 }) == [1])
        #expect(ids(ledgers.where { $0.pets["home"].name == "Fido" }) == [2])
        #expect(ids(ledgers.where { $0.scores.keys == "go" }) == [1])
        #expect(ids(ledgers.where { $0.scores.values < 10 }) == [1])
        #expect(ids(ledgers.where { $0.scores > 1000 }) == [1])
        #expect(ids(ledgers.where { $0.scores.count == 0 }) == [3])
        #expect(ids(ledgers.where { $0.scores.max >= 900 }) == [1, 2])
        #expect(ids(ledgers.where { $0.pets.name.starts(with: "R") }) == [1])
        #expect(ids(ledgers.where { $0.scores.containsAny(in: [5, 900]) }) == [1, 2])
    }

    @Test(.plainFilesOnly("it reads map records, whose keys encryption hashes")) func anEntryUnderALongKeysStoredFormIsFoundOnlyByItsOwnKey() throws {
        let realm = try directory.realm()
        let ledger = Ledger(value: ["id": 1])
        try realm.write { realm.add(ledger) }
        let first = String(repeating: "k", count: 250) + "1", second = String(repeating: "k", count: 250) + "2"
        try realm.write { ledger.scores[first] = 1 }
        // Move `first`'s entry under the stored form of `second`, as two long keys with the same
        // hash would share it: lookups must read the key each entry holds.
        let internals = realm.internals
        try realm.write { try internals.moveMapEntry(of: ledger, property: "scores", from: first, to: second) }
        #expect(ledger.scores[second] == nil)
        try realm.write { ledger.scores[second] = 2 }
        #expect(ledger.scores[second] == 2)
        #expect(Set(ledger.scores.keys) == [first, second])
    }
}
