import Burrow
import Foundation
import Testing

/// `where { }` under the generic constraints RealmSwift's own code and tests write
/// (`T.PersistedType: _QueryNumeric`, `T: RealmCollection`, `T: RealmKeyedCollection`), and
/// the forms those signatures open: aggregates over a collection's objects, ranges of optional
/// values, nested `AnyRealmValue` subscripts, linking objects, stored forms.
@Suite struct TypeSafeQuerySignatureTests {
    let directory = TestDirectory()

    private func realm() throws -> Realm {
        try Realm(configuration: directory.configuration(objectTypes: [
            AllTypes.self, Kennel.self, Puppy.self, Owner.self, Ledger.self, Setting.self,
        ]))
    }

    // Generic helpers written as RealmSwift's tests write them.
    private func count<Root: Object>(_ realm: Realm, _ query: (Query<Root>) -> Query<Bool>) -> Int {
        realm.objects(Root.self).where(query).count
    }

    private func greater<Root: Object, T: _Persistable>(_ realm: Realm, _ lhs: (Query<Root>) -> Query<T>, _ value: T) -> Int
    where T.PersistedType: _QueryNumeric {
        count(realm) { lhs($0) > value }
    }

    private func startsWith<Root: Object, T: _Persistable>(_ realm: Realm, _ lhs: (Query<Root>) -> Query<T>, _ value: T) -> Int
    where T.PersistedType: _QueryBinary {
        count(realm) { lhs($0).starts(with: value) }
    }

    private func holds<Root: Object, T: RealmCollection>(_ realm: Realm, _ lhs: (Query<Root>) -> Query<T>, _ value: T.Element) -> Int {
        count(realm) { lhs($0).contains(value) }
    }

    private func smallest<Root: Object, T: RealmCollection>(_ realm: Realm, _ lhs: (Query<Root>) -> Query<T>, atLeast value: T.Element) -> Int
    where T.Element.PersistedType: _QueryNumeric {
        count(realm) { lhs($0).min >= value }
    }

    private func entry<Root: Object, T: RealmKeyedCollection>(_ realm: Realm, _ lhs: (Query<Root>) -> Query<T>, _ key: T.Key, _ value: T.Value) -> Int {
        count(realm) { lhs($0)[key] == value }
    }

    private func hasKey<Root: Object, T: RealmKeyedCollection>(_ realm: Realm, _ lhs: (Query<Root>) -> Query<T>, _ key: String) -> Int
    where T.Key == String {
        count(realm) { lhs($0).keys == key }
    }

    @Test func genericHelpersWithRealmSwiftsConstraintsQueryEveryKind() throws {
        let realm = try realm()
        try realm.write {
            realm.add(AllTypes(value: ["int": 5, "date": Date(timeIntervalSince1970: 100), "optDouble": 2.5,
                                       "string": "Rex", "data": Data([1, 2, 3]), "decimal": Decimal(7)]))
            realm.add(AllTypes(value: ["int": 1, "date": Date(timeIntervalSince1970: 10), "string": "Ann", "data": Data([9])]))
            realm.add(Kennel(value: ["id": 1, "tags": ["small", "quiet"], "scores": [3, nil, 8]]))
            realm.add(Kennel(value: ["id": 2, "tags": ["big"], "scores": [5, 6]]))
            realm.add(Ledger(value: ["id": 1, "scores": ["chess": 1200, "go": 900]]))
        }
        #expect(greater(realm, \Query<AllTypes>.int, 2) == 1)
        #expect(greater(realm, \Query<AllTypes>.date, Date(timeIntervalSince1970: 50)) == 1)
        #expect(greater(realm, \Query<AllTypes>.optDouble, 1.0) == 1)
        #expect(greater(realm, \Query<AllTypes>.decimal, Decimal(6)) == 1)
        #expect(startsWith(realm, \Query<AllTypes>.string, "Re") == 1)
        #expect(startsWith(realm, \Query<AllTypes>.data, Data([1, 2])) == 1)
        #expect(holds(realm, \Query<Kennel>.tags, "quiet") == 1)
        #expect(holds(realm, \Query<Kennel>.scores, nil) == 1)
        #expect(smallest(realm, \Query<Kennel>.scores, atLeast: 5) == 1)
        #expect(entry(realm, \Query<Ledger>.scores, "chess", 1200) == 1)
        #expect(entry(realm, \Query<Ledger>.scores, "chess", 900) == 0)
        #expect(hasKey(realm, \Query<Ledger>.scores, "go") == 1)
        #expect(hasKey(realm, \Query<Ledger>.scores, "tennis") == 0)
        // Bytes and text compare by their bytes.
        #expect(count(realm) { (q: Query<AllTypes>) in q.data > Data([5]) } == 1)
        #expect(count(realm) { (q: Query<AllTypes>) in q.string < "B" } == 1)
    }

    @Test func aggregatesOverACollectionsObjectsReadEachObjectsProperty() throws {
        let realm = try realm()
        try realm.write {
            realm.add(Kennel(value: ["id": 1, "dogs": [["name": "a", "age": 2], ["name": "b", "age": 6]]]))
            realm.add(Kennel(value: ["id": 2, "dogs": [["name": "c", "age": 1]]]))
            realm.add(Kennel(value: ["id": 3]))
        }
        let kennels = realm.objects(Kennel.self)
        #expect(kennels.where { $0.dogs.age.avg == 4 }.map(\.id) == [1])
        #expect(kennels.where { $0.dogs.age.sum >= 1 }.map(\.id) == [1, 2])
        #expect(kennels.where { $0.dogs.age.min == 1 }.map(\.id) == [2])
        #expect(kennels.where { $0.dogs.age.max > 5 }.map(\.id) == [1])
        // The same query as the string language's.
        #expect(kennels.where { $0.dogs.age.avg == 4 }.map(\.id) == kennels.filter("dogs.@avg.age == 4").map(\.id))
    }

    @Test func anAggregateOfAPropertyReachedThroughNoCollectionTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let directory = TestDirectory()
            let realm = try! Realm(configuration: directory.configuration(objectTypes: [AllTypes.self]))
            _ = realm.objects(AllTypes.self).where { $0.int.avg == 1 }.count
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("int.@avg"), "\(message)")
    }

    @Test func rangesOfOptionalValuesAndOfCollectionsOfOptionals() throws {
        let realm = try realm()
        try realm.write {
            realm.add(AllTypes(value: ["optInt": 5, "optDate": Date(timeIntervalSince1970: 5)]))
            realm.add(AllTypes(value: ["optInt": 50]))
            realm.add(AllTypes())
            realm.add(Kennel(value: ["id": 1, "scores": [3, 4]]))
            realm.add(Kennel(value: ["id": 2, "scores": [3, nil, 9]]))
        }
        let all = realm.objects(AllTypes.self)
        #expect(all.where { $0.optInt.contains(1...10) }.count == 1)
        #expect(all.where { $0.optInt.contains(5..<50) }.count == 1)
        #expect(all.where { $0.optInt.contains(5...50) }.count == 2)
        #expect(all.where { $0.optDate.contains(Date(timeIntervalSince1970: 0)...Date(timeIntervalSince1970: 9)) }.count == 1)
        let kennels = realm.objects(Kennel.self)
        #expect(kennels.where { $0.scores.contains(3...4) }.map(\.id) == [1])
        #expect(kennels.where { $0.scores.contains(3..<9) }.map(\.id) == [1])
        #expect(kennels.where { $0.scores.contains(1...9) }.map(\.id) == [1, 2])
    }

    @Test func nestedAnyRealmValueSubscriptsReachListsAndDictionaries() throws {
        let realm = try realm()
        try realm.write {
            realm.add(Setting(value: ["name": "list", "value": AnyRealmValue.fromArray([
                .fromArray([.string("john"), .bool(false)]), .int(99),
            ])]))
            realm.add(Setting(value: ["name": "dict", "value": AnyRealmValue.fromDictionary([
                "key0": .fromDictionary(["key3": .int(99), "🐶": .string("é")]), "key1": .float(20.5),
            ])]))
            realm.add(Setting(value: ["name": "plain", "value": AnyRealmValue.int(99)]))
        }
        let settings = realm.objects(Setting.self)
        #expect(settings.where { $0.value[1] == .int(99) }.map(\.name) == ["list"])
        #expect(settings.where { $0.value[0][0] == .string("john") }.map(\.name) == ["list"])
        #expect(settings.where { $0.value[0][1] != .bool(false) }.map(\.name) == ["dict", "plain"])
        #expect(settings.where { $0.value["key1"] == .float(20.5) }.map(\.name) == ["dict"])
        #expect(settings.where { $0.value["key0"]["key3"] >= .int(99) }.map(\.name) == ["dict"])
        #expect(settings.where { $0.value["key0"]["🐶"] == .string("é") }.map(\.name) == ["dict"])
        #expect(settings.where { $0.value[5] == .int(99) }.isEmpty)
        #expect(settings.where { $0.value > .int(98) }.map(\.name) == ["plain"])
        // [*]: any element or entry, at any depth.
        #expect(settings.where { $0.value.any == .int(99) }.map(\.name) == ["list"])
        #expect(settings.where { $0.value[0].any == .string("john") }.map(\.name) == ["list"])
        #expect(settings.where { $0.value["key0"].any >= .int(99) }.map(\.name) == ["dict"])
        #expect(settings.where { $0.value.any.any == .bool(false) }.map(\.name) == ["list"])
        #expect(settings.where { $0.value.any != .int(99) }.map(\.name) == ["list", "dict"])
        #expect(settings.filter("value[*] == 99").map(\.name) == ["list"])
        #expect(settings.filter("value['key0'][*] == 99").map(\.name) == ["dict"])
        #expect(settings.filter("value[*][*] == 'é'").map(\.name) == ["dict"])
        // The same query as the string language's.
        #expect(settings.where { $0.value["key0"]["key3"] == .int(99) }.map(\.name)
                == settings.filter("value['key0']['key3'] == 99").map(\.name))
    }

    @Test func linkingObjectsAreACollectionToo() throws {
        let realm = try realm()
        try realm.write {
            let ann = realm.create(Owner.self, value: ["id": 1, "name": "Ann"])
            realm.create(Owner.self, value: ["id": 2, "name": "Bob"])
            realm.create(Puppy.self, value: ["name": "Rex", "age": 3, "owner": ann])
            realm.create(Puppy.self, value: ["name": "Fido", "age": 9, "owner": ann])
        }
        let rex = realm.objects(Puppy.self).where { $0.name == "Rex" }.first!
        let owners = realm.objects(Owner.self)
        #expect(owners.where { $0.puppies.contains(rex) }.map(\.id) == [1])
        #expect(owners.where { !$0.puppies.contains(rex) }.map(\.id) == [2])
        #expect(owners.where { $0.puppies.containsAny(in: [rex]) }.map(\.id) == [1])
        #expect(owners.where { $0.puppies.count == 0 }.map(\.id) == [2])
        #expect(owners.where { $0.puppies.age.max > 5 }.map(\.id) == [1])
        #expect(owners.where { $0.puppies.name == "Fido" }.map(\.id) == [1])
        // The same in the query language.
        #expect(owners.filter("%@ IN puppies", rex).map(\.id) == [1])
        #expect(owners.filter("NONE puppies == %@", rex).map(\.id) == [2])
        #expect(owners.filter("ANY puppies IN %@", [rex]).map(\.id) == [1])
        #expect(owners.filter("puppies.@max.age > 5").map(\.id) == [1])
        #expect(owners.filter("puppies.@sum.age == 12").map(\.id) == [1])
    }

    @Test func storedFormsAndPropertyOperandsOfTextOperators() throws {
        let realm = try realm()
        try realm.write {
            realm.add(AllTypes(value: ["string": "Rexford", "optString": "rex", "mood": Mood.excited]))
            realm.add(AllTypes(value: ["string": "Ann", "optString": "bob"]))
        }
        let all = realm.objects(AllTypes.self)
        #expect(all.where { $0.string.contains($0.optString, options: .caseInsensitive) }.count == 1)
        #expect(all.where { $0.string.starts(with: $0.optString) }.count == 0)
        #expect(all.where { $0.string.starts(with: $0.optString, options: .caseInsensitive) }.count == 1)
        #expect(all.where { $0.string.notEquals($0.optString, options: .caseInsensitive) }.count == 2)
        #expect(all.where { $0.optString.equals($0.optString, options: .caseInsensitive) }.count == 2)
        #expect(all.filter("string CONTAINS[c] optString").count == 1 && all.filter("string CONTAINS optString").count == 0)
        #expect(all.filter("string ENDSWITH[c] optString").count == 0)
        #expect(all.filter("string LIKE[c] optString").count == 0)
        #expect(all.where { $0.mood.persistableValue == Mood.excited.rawValue }.count == 1)
        #expect(all.where { $0.int.persistableValue == 0 }.count == 2)
    }
}

/// `_constructPredicate()` writes a query as RealmSwift's query builder does, which its test
/// suite compares text for text.
@Suite struct QuerySpellingTests {
    private func spell<Root: Object>(_ query: (Query<Root>) -> Query<Bool>) -> (String, Int) {
        let (text, values) = query(Query<Root>._constructForTesting())._constructPredicate()
        return (text, values.count)
    }

    @Test func comparisonsAndConditions() {
        #expect(spell { (q: Query<Puppy>) in q.age > 3 } == ("(age > %@)", 1))
        #expect(spell { (q: Query<Puppy>) in q.name.contains("x", options: [.caseInsensitive, .diacriticInsensitive]) } == ("(name CONTAINS[cd] %@)", 1))
        #expect(spell { (q: Query<Puppy>) in !q.name.starts(with: "R") } == ("(NOT name BEGINSWITH %@)", 1))
        #expect(spell { (q: Query<Puppy>) in q.age.contains(1...3) } == ("(age BETWEEN {%@, %@})", 2))
        #expect(spell { (q: Query<Puppy>) in q.age.contains(1..<3) } == ("((age >= %@) && (age < %@))", 2))
        #expect(spell { (q: Query<Puppy>) in q.age.in([1, 2, 3]) } == ("(age IN %@)", 1))
        #expect(spell { (q: Query<Puppy>) in q.owner.name == "Ann" } == ("(owner.name == %@)", 1))
        #expect(spell { (q: Query<AllTypes>) in q.bool } == ("bool == true", 0))
        #expect(spell { (q: Query<AllTypes>) in !q.bool } == ("bool == false", 0))
        #expect(spell { (q: Query<AllTypes>) in q.bool && q.int > 1 } == ("(bool == true && (int > %@))", 1))
        #expect(spell { (q: Query<AllTypes>) in !(q.int > 1 || q.int < 0) } == ("NOT ((int > %@) || (int < %@))", 2))
        #expect(spell { (q: Query<AllTypes>) in q.string == q.string } == ("(string == string)", 0))
        #expect(spell { (q: Query<AllTypes>) in q.optInt == nil } == ("(optInt == %@)", 1))
    }

    @Test func collectionsMapsAndNestedValues() {
        #expect(spell { (q: Query<Kennel>) in q.dogs.age > 5 } == ("(ANY dogs.age > %@)", 1))
        #expect(spell { (q: Query<Kennel>) in q.tags == "a" } == ("(ANY tags == %@)", 1))
        #expect(spell { (q: Query<Kennel>) in q.tags.contains("a") } == ("(%@ IN tags)", 1))
        #expect(spell { (q: Query<Kennel>) in !q.tags.contains("a") } == ("(NOT %@ IN tags)", 1))
        #expect(spell { (q: Query<Kennel>) in q.tags.containsAny(in: ["a", "b"]) } == ("(ANY tags IN %@)", 1))
        #expect(spell { (q: Query<Kennel>) in q.tags.count == 2 } == ("(tags.@count == %@)", 1))
        #expect(spell { (q: Query<Kennel>) in q.dogs.age.avg == 2 } == ("(dogs.@avg.age == %@)", 1))
        #expect(spell { (q: Query<Kennel>) in q.scores.contains(1...3) } == ("((scores.@min >= %@) && (scores.@max <= %@))", 2))
        #expect(spell { (q: Query<Kennel>) in (q.dogs.age != 2).count > 1 } == ("(SUBQUERY(dogs, $col1, ($col1.age != %@)).@count > %@)", 2))
        #expect(spell { (q: Query<Ledger>) in q.scores["chess"] == 1 } == ("(scores[%@] == %@)", 2))
        #expect(spell { (q: Query<Ledger>) in q.scores.keys == "chess" } == ("(ANY scores.@allKeys == %@)", 1))
        #expect(spell { (q: Query<Ledger>) in q.scores.values > 1 } == ("(ANY scores.@allValues > %@)", 1))
        #expect(spell { (q: Query<Setting>) in q.value[0]["k"] == .int(1) } == ("(value[%@][%@] == %@)", 3))
        #expect(spell { (q: Query<Setting>) in q.value[0].any == .int(1) } == ("(value[%@][%K] == %@)", 3))
    }

    @Test func aQueryOfARealmGivesItsQueryTextWithItsValues() throws {
        let directory = TestDirectory()
        let realm = try Realm(configuration: directory.configuration(objectTypes: [Puppy.self, Owner.self, Kennel.self]))
        var spelled: (String, [Any]) = ("", [0])
        _ = realm.objects(Puppy.self).where { query in
            let condition = query.age > 3 && query.name == "Rex"
            spelled = condition._constructPredicate()
            return condition
        }
        #expect(spelled.0 == "(age > 3 AND name == \"Rex\")" && spelled.1.isEmpty)
    }
}
