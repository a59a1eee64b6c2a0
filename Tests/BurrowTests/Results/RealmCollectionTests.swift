import Burrow
import Foundation
import Testing

/// Generic code over ``RealmCollection``, the way ported RealmSwift code writes it.
private func youngNames<C: RealmCollection>(_ puppies: C) -> [String] where C.Element == Puppy {
    puppies.filter("age < %@", 5).sorted(byKeyPath: "name").map(\.name)
}

private func ageStatistics<C: RealmCollection>(_ puppies: C) -> (total: Int, oldest: Int?, names: [String]) where C.Element == Puppy {
    (puppies.sum(of: \.age), puppies.max(of: \.age), puppies.sorted(by: \.age, ascending: false).map(\.name))
}

private func describeAll<C: RealmCollection>(_ collection: C) -> (count: Int, first: C.Element?) {
    (collection.count, collection.first)
}

/// Sample values for a type and for its optional, written once as RealmSwift's generic tests do.
private protocol SampleValues: RealmCollectionValue { static var samples: [Self] { get } }
extension Int: SampleValues { static var samples: [Int] { [3, 1, 2] } }
extension String: SampleValues { static var samples: [String] { ["b", "ü", ""] } }
extension Optional: SampleValues where Wrapped: SampleValues & _RealmCollectionValueInsideOptional {
    static var samples: [Wrapped?] { Wrapped.samples.map(Optional.some) + [nil] }
}

private func storesSamples<T: SampleValues>(in list: List<T>) -> Bool {
    list.removeAll()
    list.append(objectsIn: T.samples)
    return Array(list) == T.samples
}

@Suite struct RealmCollectionTests {
    let directory = TestDirectory()

    /// An owner with three puppies, in a kennel that lists them, a club that holds the owner.
    private func seeded() throws -> (Realm, Owner, Kennel) {
        let realm = try directory.realm()
        let owner = Owner(value: ["id": 1, "name": "Ann"])
        let kennel = Kennel(value: ["id": 1, "tags": ["b", "a", "c", "a"], "scores": [3, nil, 1, 3]])
        try realm.write {
            realm.add(owner)
            for (name, age) in [("rex", 2), ("ace", 7), ("bo", 1)] {
                let puppy = Puppy(value: ["name": name, "age": age])
                puppy.owner = owner
                kennel.dogs.append(puppy)
            }
            realm.add(kennel)
        }
        return (realm, owner, kennel)
    }

    @Test func genericCodeRunsOnEveryKindOfCollection() throws {
        let (realm, owner, kennel) = try seeded()
        #expect(youngNames(realm.objects(Puppy.self)) == ["bo", "rex"])
        #expect(youngNames(kennel.dogs) == ["bo", "rex"])
        #expect(youngNames(owner.puppies) == ["bo", "rex"])
        for statistics in [ageStatistics(realm.objects(Puppy.self)), ageStatistics(kennel.dogs), ageStatistics(owner.puppies),
                           ageStatistics(AnyRealmCollection(kennel.dogs))] {
            #expect(statistics.total == 10 && statistics.oldest == 7 && statistics.names == ["ace", "rex", "bo"])
        }
        #expect(realm.objects(Puppy.self).distinct(by: [\Puppy.owner]).count == 1)
        let club = Club(value: ["id": 1])
        try realm.write {
            realm.add(club)
            club.members.insert(owner)
        }
        #expect(describeAll(club.members).count == 1)
        #expect(describeAll(club.members).first == owner)
        #expect(describeAll(kennel.tags).first == "b")
    }

    @Test func anyRealmCollectionErasesTheKind() throws {
        let (realm, owner, kennel) = try seeded()
        let erased = [AnyRealmCollection(realm.objects(Puppy.self)), AnyRealmCollection(kennel.dogs), AnyRealmCollection(owner.puppies)]
        for collection in erased {
            #expect(collection.count == 3)
            #expect(collection.realm == realm)
            #expect(!collection.isInvalidated)
            #expect(collection.filter("age > 1").count == 2)
            #expect(collection.sorted(byKeyPath: "age", ascending: false).map(\.name) == ["ace", "rex", "bo"])
            #expect(collection.distinct(by: ["owner"]).count == 1)
            #expect(collection.max(ofProperty: "age") as Int? == 7)
            #expect(collection.sum(ofProperty: "age") as Int == 10)
            #expect(collection.average(ofProperty: "age") as Double? == 10.0 / 3)
            #expect(collection.index(matching: "name == %@", "bo") != nil)
            #expect(collection.where { $0.name == "ace" }.count == 1)
            let ace = try #require(collection.filter("name == 'ace'").first)
            #expect(collection.index(of: ace) == collection.firstIndex { $0.isSameObject(as: ace) })
        }
        #expect(erased[0] == erased[0])
        #expect(erased[0] != erased[1])
        #expect(AnyRealmCollection(kennel.dogs) == AnyRealmCollection(kennel.dogs))
        #expect(AnyRealmCollection(kennel.tags).sorted(ascending: true).map { $0 } == ["a", "a", "b", "c"])
    }

    @Test func listsOfValuesAreQueriedThroughSelf() throws {
        let (realm, _, kennel) = try seeded()
        let tags = kennel.tags
        #expect(Array(tags.filter("self != 'a'")) == ["b", "c"])
        #expect(Array(tags.filter("self BEGINSWITH %@", "c")) == ["c"])
        #expect(Array(tags.sorted(ascending: false)) == ["c", "b", "a", "a"])
        #expect(Array(tags.sorted(byKeyPath: "self")) == ["a", "a", "b", "c"])
        #expect(Array(tags.distinct()) == ["b", "a", "c"])
        #expect(Array(tags.distinct().sorted(ascending: true)) == ["a", "b", "c"])
        #expect(tags.index(matching: "self == 'c'") == 2)
        #expect(tags.filter("self == 'a'").count == 2)
        #expect(tags.filter("self == 'a'").realm == realm)
        let scores = kennel.scores
        #expect(Array(scores.filter("self == nil")) == [nil])
        #expect(Array(scores.filter("self >= 2")) == [3, 3])
        #expect(Array(scores.sorted(ascending: true)) == [nil, 1, 3, 3])
        #expect(scores.min() == 1 && scores.max() == 3)
        #expect(scores.sum() == 7)
        #expect(scores.average() as Double? == 7.0 / 3)
        #expect(scores.min(ofProperty: "self") as Int? == 1)
        #expect(scores.filter("self > 1").sum(ofProperty: "self") as Int == 6)
        #expect(scores.filter("self > 1").index(of: 3) == 0)
        #expect(scores.filter("self > 1").index(of: 1) == nil)
    }

    /// Sorts of a list of values, whole and by the page, give Swift's stable sort of the values
    /// (nils first ascending, strings by their UTF-8 bytes, ties in list order).
    @Test func pagesOfSortedValuesAreThoseOfTheWholeSort() throws {
        let (realm, _, kennel) = try seeded()
        let words = (0..<300).map { "w\((($0 * 7_919) % 97))" + ($0 % 5 == 0 ? String(repeating: "ü", count: 9) : "") }
        let numbers: [Int?] = (0..<300).map { $0 % 13 == 0 ? nil : ($0 * 31) % 41 - 20 }
        try realm.write {
            kennel.tags.removeAll()
            kennel.tags.append(objectsIn: words)
            kennel.scores.removeAll()
            kennel.scores.append(objectsIn: numbers)
        }
        let wordOrder = words.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
        let numberOrder = numbers.sorted { ($0 ?? .min) < ($1 ?? .min) }
        #expect(Array(kennel.tags.sorted(ascending: true)) == wordOrder)
        #expect(Array(kennel.tags.sorted(ascending: false)) == Array(wordOrder.reversed()))
        #expect(Array(kennel.scores.sorted(ascending: true)) == numberOrder)
        for (offset, limit) in [(0, 10), (37, 20), (150, 1), (290, 30), (300, 5)] {
            let end = min(300, offset + limit)
            #expect(Array(kennel.tags.sorted(ascending: true).limit(limit, offset: offset)) == Array(wordOrder[min(offset, 300)..<end]))
            #expect(Array(kennel.scores.sorted(ascending: true).limit(limit, offset: offset)) == Array(numberOrder[min(offset, 300)..<end]))
        }
    }

    @Test func resultsOfValuesAreLive() throws {
        let (realm, _, kennel) = try seeded()
        let big = kennel.scores.filter("self > 2").sorted(ascending: false)
        #expect(Array(big) == [3, 3])
        try realm.write {
            kennel.scores.append(10)
            kennel.scores.remove(at: 0)
        }
        #expect(Array(big) == [10, 3])
        #expect(big.first == 10 && big.last == 3)
        var iterated: [Int?] = []
        for score in big { iterated.append(score) }
        #expect(iterated == [10, 3])
        #expect(big.limit(1).map { $0 } == [10])
    }

    @Test func setsAndMapsOfValuesAreQueriedToo() throws {
        let realm = try directory.realm()
        let club = Club(value: ["id": 1, "languages": ["swift", "c", "go", "rust"]])
        let ledger = Ledger(value: ["id": 1, "scores": ["a": 5, "b": 1, "c": 9]])
        try realm.write {
            realm.add(club)
            realm.add(ledger)
        }
        #expect(Array(club.languages.filter("self CONTAINS 'o'").sorted(ascending: true)) == ["go"])
        #expect(Array(club.languages.sorted(ascending: false)) == ["swift", "rust", "go", "c"])
        #expect(club.languages.index(of: "go") != nil)
        #expect(club.languages.index(of: "java") == nil)
        #expect(Array(ledger.scores.filter("self > 2")) == [5, 9])
        #expect(Array(ledger.scores.sorted(ascending: true)) == [1, 5, 9])
        #expect(ledger.scores.max(ofProperty: "self") as Int? == 9)
        #expect(ledger.scores.sum(ofProperty: "self") as Int == 15)
    }

    @Test func aggregatesOfUnmanagedListsNeedNoRealm() {
        let numbers = List<Int>()
        numbers.append(objectsIn: [4, 1, 7])
        #expect(numbers.min() == 1 && numbers.max() == 7)
        #expect(numbers.sum() == 12)
        #expect(numbers.average() as Double? == 4)
        let dates = List<Date>()
        #expect(dates.min() == nil)
        dates.append(Date(timeIntervalSince1970: 5))
        dates.append(Date(timeIntervalSince1970: 2))
        #expect(dates.max() == Date(timeIntervalSince1970: 5))
        let mixed = List<AnyRealmValue>()
        mixed.append(objectsIn: [.int(2), .string("x"), .double(0.5), .none])
        #expect(mixed.sum() == .double(2.5))
        #expect(mixed.min() == .double(0.5))
        #expect(List<Decimal>().sum() == 0)
    }

    @Test func keyValueAccessReadsAndWritesEveryElement() throws {
        let (realm, owner, kennel) = try seeded()
        let puppies = realm.objects(Puppy.self).sorted(byKeyPath: "name")
        #expect(puppies.value(forKey: "name") as? [Any?] != nil)
        #expect((puppies.value(forKey: "name") as? [Any?])?.compactMap { $0 as? String } == ["ace", "bo", "rex"])
        #expect((puppies.value(forKeyPath: "owner.name") as? [Any?])?.compactMap { $0 as? String } == ["Ann", "Ann", "Ann"])
        #expect(puppies.value(forKeyPath: "@count") as? Int == 3)
        #expect(puppies.value(forKeyPath: "@sum.age") as? Int == 10)
        #expect(puppies.value(forKeyPath: "@max.age") as? Int == 7)
        #expect(puppies.value(forKeyPath: "@avg.age") as? Double == 10.0 / 3)
        #expect((puppies.value(forKeyPath: "@unionOfObjects.name") as! NSArray?) == ["ace", "bo", "rex"])
        #expect((puppies.value(forKeyPath: "@unionOfObjects.owner.name") as? [Any])?.compactMap { $0 as? String } == ["Ann", "Ann", "Ann"])
        #expect((puppies.value(forKeyPath: "@distinctUnionOfObjects.owner.name") as? [Any])?.compactMap { $0 as? String } == ["Ann"])
        #expect(kennel.dogs.value(forKeyPath: "@distinctUnionOfObjects.owner").count == 1)
        #expect((realm.objects(Puppy.self).filter("age > 100").value(forKeyPath: "@unionOfObjects.name") as? [Any])?.isEmpty == true)
        #expect(kennel.tags.value(forKey: "self").map { dynamicBridgeCast(fromObjectiveC: $0) as String } == ["b", "a", "c", "a"])
        #expect(kennel.scores.value(forKey: "self").map { dynamicBridgeCast(fromObjectiveC: $0) as Int? } == [3, nil, 1, 3])
        #expect(kennel.dogs.value(forKeyPath: "owner.name").map { $0 as? String } == ["Ann", "Ann", "Ann"])
        #expect(List<Int>().value(forKey: "self").isEmpty)
        let sizes = MutableSet<Cents>()
        sizes.insert(objectsIn: [Cents(2), Cents(5)])
        #expect(Set(sizes.value(forKey: "self").map { dynamicBridgeCast(fromObjectiveC: $0) as Cents }) == [Cents(2), Cents(5)])
        #expect(dynamicBridgeCast(fromSwift: Cents(5)) as? Int == 5)
        #expect(dynamicBridgeCast(fromObjectiveC: AnyRealmValue.int(3)) as Int == 3)
        #expect(dynamicBridgeCast(fromObjectiveC: AnyRealmValue.none) as String? == nil)
        try realm.write { kennel.dogs.setValue(4, forKey: "age") }
        #expect(realm.objects(Puppy.self).map(\.age) == [4, 4, 4])
        try realm.write { owner.puppies.setValue(nil, forKey: "owner") }
        #expect(owner.puppies.isEmpty)
        #expect((puppies.value(forKeyPath: "@unionOfObjects.owner") as? [Any])?.isEmpty == true)  // nil is left out
        #expect(puppies.objects(at: IndexSet([0, 2])).map(\.name) == ["ace", "rex"])
        #expect(puppies.objects(at: IndexSet()).isEmpty)
    }

    @Test func collectionsAreEqualByRealmSwiftsRules() throws {
        let (realm, _, kennel) = try seeded()
        let again = try #require(realm.object(ofType: Kennel.self, forPrimaryKey: 1))
        #expect(kennel.dogs == again.dogs)
        #expect(Set([kennel.dogs, again.dogs]).count == 1)
        #expect(Set([kennel.tags, again.tags, List<String>(), List<String>()]).count == 2)
        #expect(kennel.tags == again.tags)
        #expect(kennel.tags != List<String>())
        let unmanaged = List<String>()
        #expect(unmanaged == unmanaged)
        // Unmanaged collections compare by their elements (RealmSwift's testUnmanagedListComparison).
        #expect(List<String>() == List<String>() && List<String>().isEqual(List<String>()))
        let (first, second, shorter) = (List<String>(), List<String>(), List<String>())
        first.append(objectsIn: ["a", "b"]); second.append(objectsIn: ["a", "b"]); shorter.append("a")
        #expect(first == second && first.isEqual(second) && first.hashValue == second.hashValue)
        #expect(first != shorter && !first.isEqual(shorter) && !first.isEqual(["a", "b"]))
        shorter.append("b")
        #expect(first == shorter)
        second.swapAt(0, 1)
        #expect(first != second)
        #expect(kennel.tags != first && !kennel.tags.isEqual(first))
        let (dog, otherDog) = (Puppy(), Puppy())
        let (dogs, sameDogs, otherDogs) = (List<Puppy>(), List<Puppy>(), List<Puppy>())
        dogs.append(dog); sameDogs.append(dog); otherDogs.append(otherDog)
        #expect(dogs == sameDogs && dogs != otherDogs)  // unmanaged objects compare by identity
        let (set, sameSet) = (MutableSet<Int>(), MutableSet<Int>())
        set.insert(objectsIn: [1, 2]); sameSet.insert(objectsIn: [2, 1])
        #expect(set == sameSet && set.isEqual(sameSet) && set.hashValue == sameSet.hashValue)
        sameSet.insert(3)
        #expect(set != sameSet && !set.isEqual(sameSet))
        let (map, sameMap) = (Map<String, Int>(), Map<String, Int>())
        map["x"] = 1; sameMap["x"] = 1
        #expect(map == sameMap && map.isEqual(sameMap) && map.hashValue == sameMap.hashValue)
        sameMap["x"] = 2
        #expect(map != sameMap && !map.isEqual(sameMap))
        let results = realm.objects(Puppy.self)
        let copy = results
        #expect(results == copy && results.hashValue == copy.hashValue)
        #expect(results != realm.objects(Puppy.self))
        let rex = try #require(results.filter("name == 'rex'").first)
        let rexAgain = try #require(realm.objects(Puppy.self).filter("name == 'rex'").first)
        // Linking objects are equal only to themselves, as RealmSwift's (its testEquatability).
        let kennels = rex.kennels
        #expect(kennels == kennels && rex.kennels != rex.kennels && rex.kennels != rexAgain.kennels)
        #expect(rex.kennels.isInvalidated == false)
    }

    @Test func descriptionsListTheElements() throws {
        let (realm, owner, kennel) = try seeded()
        // RealmSwift's layout: the collection's address, strings as they are, `(null)` for nil.
        let address = "<0x[0-9a-f]+>"
        #expect(kennel.tags.description.contains(try Regex("^List<string> \(address) \\(\n\t\\[0\\] b,\n\t\\[1\\] a,\n\t\\[2\\] c,\n\t\\[3\\] a\n\\)$")))
        #expect(List<Int>().description.contains(try Regex("^List<int> \(address) \\(\n\n\\)$")))
        #expect(kennel.dogs.filter("name == 'bo'").description.contains(try Regex("^Results<Puppy> \(address) \\(\n\t\\[0\\] Puppy \\{\n\t\tname = bo;")))
        // Linking objects are left out, as RealmSwift leaves them out; a cycle of links stops.
        let bo = try #require(kennel.dogs.filter("name == 'bo'").first)
        #expect(bo.description.contains("owner = Owner {") && !bo.description.contains("kennels"))
        try realm.write { owner.partner = owner }
        #expect(bo.description.contains("partner = <Maximum depth exceeded>"))
    }

    @Test func oneGenericExtensionCoversValuesAndTheirOptionals() throws {
        let (realm, _, kennel) = try seeded()
        try realm.write {
            #expect(storesSamples(in: kennel.tags))
            #expect(storesSamples(in: kennel.scores))
        }
        #expect(Array(kennel.scores) == [3, 1, 2, nil])
        let unmanaged = Kennel()
        #expect(storesSamples(in: unmanaged.scores) && storesSamples(in: unmanaged.tags))
    }

    @Test func keyedCollectionsAreGenericToo() throws {
        func total<M: RealmKeyedCollection>(_ map: M) -> Int where M.Value == Int { map.sum(ofProperty: "self") }
        let realm = try directory.realm()
        let ledger = Ledger(value: ["id": 1, "scores": ["a": 5, "b": 1]])
        #expect(total(ledger.scores) == 6)
        try realm.write { realm.add(ledger) }
        #expect(total(ledger.scores) == 6)
        #expect(ledger.scores.value(forKey: "a") as? Int == 5)
        #expect(ledger.scores.value(forKey: "zz") == nil)
        #expect(ledger.scores.object(forKey: "a" as AnyObject) as? Int == 5 && ledger.scores.object(forKey: 3 as AnyObject) == nil)
        try realm.write {
            ledger.scores.setValue(7, forKey: "c")
            ledger.scores.setValue(nil, forKey: "a")
        }
        #expect(ledger.scores.keys == ["b", "c"])
        #expect(ledger.scores.contains { $0 == "c" && $1 == 7 })
        #expect(!ledger.scores.isFrozen)
        #expect(ledger.scores.min() == 1 && ledger.scores.max() == 7 && ledger.scores.sum() == 8)
        #expect(ledger.scores.average() as Double? == 4)
        #expect(Array(ledger.scores.sorted(ascending: false)) == [7, 1])
        #expect(Array(ledger.scores) == [.entry(key: "b", value: 1), .entry(key: "c", value: 7)])
        #expect(Map<String, Int>().sum() == 0 && Map<String, Int>().min() == nil)
        let again = try #require(realm.object(ofType: Ledger.self, forPrimaryKey: 1))
        #expect(ledger.scores == again.scores && Set([ledger.scores, again.scores]).count == 1)
        #expect(ledger.scores != Map<String, Int>())
    }

    @Test func anUnknownCollectionOperatorTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = List<Int>().value(forKeyPath: "@unionOfArrays.self")
        }
        expectMessage(result, "Unsupported collection operator '@unionOfArrays': the operators are @count, @min, @max, @sum, @avg, @unionOfObjects, @distinctUnionOfObjects.")
    }

    @Test func queryingValuesByAnotherNameTraps() async {
        await #expect(processExitsWith: .failure) {
            let directory = TestDirectory()
            let realm = try! directory.realm()
            let kennel = Kennel(value: ["id": 1, "tags": ["a"]])
            try! realm.write { realm.add(kennel) }
            _ = kennel.tags.sorted(byKeyPath: "name")
        }
        await #expect(processExitsWith: .failure) {
            let directory = TestDirectory()
            let realm = try! directory.realm()
            let kennel = Kennel(value: ["id": 1, "tags": ["a"]])
            try! realm.write { realm.add(kennel) }
            _ = kennel.tags.filter("length > 2").count
        }
        await #expect(processExitsWith: .failure) {
            _ = List<String>().filter("self == 'a'")
        }
        await #expect(processExitsWith: .failure) {
            let list = List<Int>()
            list.append(1)
            _ = list.objects(at: IndexSet([1]))
        }
    }

    @Test func validatingAQueryOnValuesThrows() throws {
        let (_, _, kennel) = try seeded()
        let tags = kennel.tags.filter("self != ''")
        #expect(throws: Realm.Error.self) { try tags.validate(QueryPredicate("name == 'x'")) }
        #expect(throws: Realm.Error.self) { try tags.validate(QueryPredicate("self > 5")) }
        #expect(throws: Realm.Error.self) { try tags.validate(QueryPredicate("self != '' SORT(name ASC)")) }
        try tags.validate(QueryPredicate("self BEGINSWITH 'a' SORT(self DESC)"))
    }
}
