import Burrow
import Foundation
import Testing

@Suite struct QueryEngineTests {
    let directory = TestDirectory()

    /// 100 people: id i, name "p<i % 10>", age i % 7 (nil when i % 11 == 0), birthdate i days.
    private func seeded() throws -> Realm {
        let realm = try directory.realm()
        try realm.write {
            for i in 0..<100 {
                realm.add(Person(value: ["id": i, "name": "p\(i % 10)", "age": (i % 11 == 0 ? nil : i % 7) as Any,
                                         "birthdate": Date(timeIntervalSince1970: Double(i) * 86400),
                                         "nickname": i % 2 == 0 ? "Ärger \(i)" : "anger \(i)"]))
            }
        }
        return realm
    }

    private func ids(_ results: Results<Person>) -> [Int] { results.map(\.id) }
    private func expected(_ test: (Int) -> Bool) -> [Int] { (0..<100).filter(test) }
    private func age(_ i: Int) -> Int? { i % 11 == 0 ? nil : i % 7 }

    @Test func betweenAndIn() throws {
        let people = try seeded().objects(Person.self)
        #expect(ids(people.filter("id BETWEEN {10, 12}")) == [10, 11, 12])
        #expect(ids(people.filter("id IN {3, 5, 200}")) == [3, 5])
        #expect(ids(people.filter("id IN %@", [7, 8])) == [7, 8])
        #expect(ids(people.filter("name IN {'p1', 'p2'} AND id < 20")) == [1, 2, 11, 12])
        #expect(ids(people.filter("age IN {nil}")) == expected { $0 % 11 == 0 })
        #expect(ids(people.filter("id IN {}")).isEmpty)
        #expect(ids(people.filter("name IN[c] {'P3'} AND id < 20")) == [3, 13])
    }

    @Test func likeWithWildcards() throws {
        let people = try seeded().objects(Person.self)
        #expect(ids(people.filter("nickname LIKE 'anger ?'")) == [1, 3, 5, 7, 9])
        #expect(ids(people.filter("nickname LIKE '*er 9*'")) == [9] + Array(90...99))
        #expect(ids(people.filter("nickname LIKE[c] 'ANGER 1?'")) == [11, 13, 15, 17, 19])
        #expect(ids(people.filter("nickname LIKE '?rger 2'")) == [2])  // ? is one character, even 'Ä'
        #expect(ids(people.filter("nickname LIKE '*'")).count == 100)
    }

    @Test func diacriticsFoldForUnicode() throws {
        let people = try seeded().objects(Person.self)
        #expect(people.filter("nickname BEGINSWITH[cd] 'a'").count == 100)
        #expect(people.filter("nickname BEGINSWITH[c] 'a'").count == 50)
        #expect(people.filter("nickname ==[cd] 'ARGER 4'").count == 1)
        #expect(people.where { $0.nickname.starts(with: "ar", options: [.caseInsensitive, .diacriticInsensitive]) }.count == 50)
    }

    @Test func dateAndIdentifierLiterals() throws {
        let realm = try seeded()
        let people = realm.objects(Person.self)
        #expect(ids(people.filter("birthdate < 1970-01-03@00:00:00")) == [0, 1])
        #expect(ids(people.filter("birthdate <= 1970-01-03T00:00:00")) == [0, 1, 2])
        #expect(ids(people.filter("birthdate == T172800:0")) == [2])
        try realm.write {
            realm.add(AllTypes(value: ["uuid": UUID(uuidString: "3B241101-E2BB-4255-8CAF-4136C566A962")!,
                                       "objectId": try ObjectId(string: "6401f0b0c1d2e3f405060708"), "data": Data([1, 2])]))
        }
        let all = realm.objects(AllTypes.self)
        #expect(all.filter("uuid == uuid(3B241101-E2BB-4255-8CAF-4136C566A962)").count == 1)
        #expect(all.filter("objectId == oid(6401f0b0c1d2e3f405060708)").count == 1)
        #expect(all.filter("data == B64\"AQI=\"").count == 1)
    }

    @Test func trailingClausesSortDistinctAndLimit() throws {
        let people = try seeded().objects(Person.self)
        #expect(ids(people.filter("id < 30 SORT(id DESC) LIMIT(3)")) == [29, 28, 27])
        #expect(people.filter("TRUEPREDICATE DISTINCT(name)").map(\.name) == (0..<10).map { "p\($0)" })
        #expect(ids(people.filter("id >= 90 SORT(name DESC, id ASC)")) == Array((90...99).reversed()))
        #expect(ids(people.filter("TRUEPREDICATE SORT(age ASC) LIMIT(4)")) == [0, 11, 22, 33])
    }

    @Test func sortingIsStableAndPutsNilFirst() throws {
        let people = try seeded().objects(Person.self)
        let byAge = people.sorted(byKeyPath: "age")
        let expectedOrder = (0..<100).sorted { a, b in
            switch (age(a), age(b)) {
            case (nil, nil): a < b
            case (nil, _): true
            case (_, nil): false
            case (let x?, let y?): x == y ? a < b : x < y
            }
        }
        #expect(ids(byAge) == expectedOrder)
        #expect(ids(people.sorted(by: \.name, ascending: false).limit(3)) == [9, 19, 29])
        #expect(ids(people.sorted(byKeyPath: "id").sorted(byKeyPath: "name").limit(3)) == [0, 10, 20])
        #expect(ids(people.sorted(by: [SortDescriptor(keyPath: "name", ascending: false), SortDescriptor(keyPath: "id", ascending: false)]).limit(2)) == [99, 89])
    }

    @Test func indexedSortWalksTheIndexInBothDirections() throws {
        let people = try seeded().objects(Person.self)
        let ascending = people.sorted(byKeyPath: "name")
        #expect(ids(ascending.limit(3, offset: 9)) == [90, 1, 11])
        let descending = people.sorted(byKeyPath: "name", ascending: false)
        #expect(ids(descending.limit(12)) == [9, 19, 29, 39, 49, 59, 69, 79, 89, 99, 8, 18])
        #expect(ids(people.filter("id > 50").sorted(byKeyPath: "name").limit(2)) == [60, 70])
        #expect(ids(people.sorted(byKeyPath: "id", ascending: false).limit(2)) == [99, 98])
        // Pages further in: the walk passes over the objects before the page without keeping them.
        #expect(ids(descending.limit(4, offset: 8)) == [89, 99, 8, 18])
        #expect(ids(people.filter("id > 50").sorted(byKeyPath: "name").limit(2, offset: 1)) == [70, 80])
        #expect(ids(people.filter("id < 30").sorted(byKeyPath: "name", ascending: false).limit(3, offset: 2)) == [29, 8, 18])
        #expect(ids(ascending.limit(5, offset: 98)) == [89, 99])
        #expect(ids(ascending.limit(5, offset: 1000)).isEmpty)
    }

    /// Pages deep into an index of many leaf pages, which a sort passes over a page at a time:
    /// the same positions as the whole sort, ties in object key order, both ways, from the
    /// first object to past the last, and inside a write too.
    @Test func deepPagesOfAnIndexedSortAreThoseOfTheWholeSort() throws {
        let realm = try directory.realm()
        let count = 6_000
        try realm.write {
            for i in 0..<count {
                realm.add(Person(value: ["id": i, "name": "n\(i * 7 % 600)", "age": i % 13]))
            }
        }
        let people = realm.objects(Person.self)
        // By name, equal names by id (the object key order of integer keys).
        let byName = (0..<count).sorted { ("n\($0 * 7 % 600)", $0) < ("n\($1 * 7 % 600)", $1) }
        let byNameDescending = (0..<count).sorted { ("n\($0 * 7 % 600)", $1) > ("n\($1 * 7 % 600)", $0) }
        let sorts: [(Results<Person>, [Int])] = [
            (people.sorted(byKeyPath: "name"), byName),
            (people.sorted(byKeyPath: "name", ascending: false), byNameDescending),
            (people.sorted(byKeyPath: "id"), Array(0..<count)),
            (people.sorted(byKeyPath: "id", ascending: false), Array((0..<count).reversed())),
            // Table order, which a page reads from the table where it begins.
            (people, Array(0..<count)),
        ]
        let pages = [(0, 5), (1, 3), (9, 2), (10, 1), (129, 4), (1_000, 20), (2_999, 7), (3_005, 10), (5_990, 20), (5_999, 1), (6_000, 5), (9_000, 1)]
        for (sorted, order) in sorts {
            #expect(ids(sorted) == order, "\(sorted)")
            for (offset, limit) in pages {
                let end = min(count, offset + limit)
                #expect(ids(sorted.limit(limit, offset: offset)) == (offset < end ? Array(order[offset..<end]) : []),
                        "\(sorted) page \(offset) + \(limit)")
            }
        }
        try realm.write {
            #expect(ids(people.sorted(byKeyPath: "name", ascending: false).limit(3, offset: 3_005)) == Array(byNameDescending[3_005..<3_008]))
            #expect(ids(people.sorted(byKeyPath: "name").limit(3, offset: 4_321)) == Array(byName[4_321..<4_324]))
            #expect(ids(people.limit(3, offset: 4_321)) == [4_321, 4_322, 4_323])
            realm.delete(people.filter("id < 1000 OR id == 4321"))
            #expect(ids(people.limit(3, offset: 3_320)) == [4_320, 4_322, 4_323])
        }
        // Pages of what is left, and a page past its end.
        #expect(ids(people.limit(2, offset: 0)) == [1_000, 1_001])
        #expect(ids(people.limit(4, offset: 3_319)) == [4_319, 4_320, 4_322, 4_323])
        #expect(ids(people.limit(2, offset: 4_998)) == [5_999])
        #expect(ids(people.limit(2, offset: 4_999)).isEmpty)
    }

    /// `first` of sorted results is found as a page of one (an index walk that stops, or a
    /// selection of the least): the same object as the whole sort's first, for every kind of sort,
    /// and again after a write moves the results to a new version.
    @Test func theFirstOfSortedResultsIsTheWholeSortsFirst() throws {
        let realm = try seeded()
        let people = realm.objects(Person.self)
        let sorts: [(String, () -> Results<Person>)] = [
            ("name", { people.sorted(byKeyPath: "name") }),
            ("name descending", { people.sorted(byKeyPath: "name", ascending: false) }),
            ("age, nils first", { people.sorted(byKeyPath: "age") }),
            ("age descending, then birthdate", { people.sorted(by: [SortDescriptor(keyPath: "age", ascending: false), SortDescriptor(keyPath: "birthdate")]) }),
            ("filtered by name", { people.filter("id > 37").sorted(byKeyPath: "name", ascending: false) }),
            ("filtered, unindexed", { people.filter("age != nil AND id < 60").sorted(byKeyPath: "nickname") }),
            ("distinct then sorted", { people.distinct(by: ["name"]).sorted(byKeyPath: "age", ascending: false) }),
            ("sorted twice", { people.sorted(byKeyPath: "id", ascending: false).sorted(byKeyPath: "name") }),
            ("nothing matches", { people.filter("id > 1000").sorted(byKeyPath: "name") }),
        ]
        for round in 0..<2 {
            for (name, sorted) in sorts {
                let first = sorted().first?.id
                #expect(first == ids(sorted()).first, "\(name), round \(round)")
                #expect(sorted().isEmpty == ids(sorted()).isEmpty, "\(name), round \(round)")
            }
            // A new first for most sorts.
            try realm.write {
                realm.add(Person(value: ["id": 500, "name": "a", "age": 99, "nickname": "Aa"]))
                realm.add(Person(value: ["id": 501, "name": "zz", "age": 99, "nickname": "aa"]))
            }
            #expect(people.sorted(byKeyPath: "name").first?.id == 500)
            #expect(people.sorted(byKeyPath: "name", ascending: false).first?.id == 501)
            try realm.write { realm.delete(people.filter("id >= 500")) }
        }
    }

    /// A page of a sort no index answers (an unindexed property, nils, ties, several keys) is
    /// the same positions of the whole sort, wherever it lies.
    @Test func pagesOfSortsNoIndexAnswerAreThoseOfTheWholeSort() throws {
        let people = try seeded().objects(Person.self)
        let sorts: [Results<Person>] = [
            people.sorted(byKeyPath: "age"), people.sorted(byKeyPath: "age", ascending: false),
            people.sorted(by: [SortDescriptor(keyPath: "age", ascending: false), SortDescriptor(keyPath: "birthdate")]),
            people.filter("id > 20").sorted(byKeyPath: "nickname"),
        ]
        for sorted in sorts {
            let whole = ids(sorted)
            for (offset, limit) in [(0, 1), (0, 20), (13, 7), (45, 10), (70, 30), (95, 20), (99, 1), (100, 3), (0, 1000)] {
                let end = min(whole.count, offset + limit)
                #expect(ids(sorted.limit(limit, offset: offset)) == (offset < end ? Array(whole[offset..<end]) : []),
                        "\(sorted) page \(offset) + \(limit)")
            }
        }
        #expect(ids(people.filter("TRUEPREDICATE SORT(age DESC, id DESC) LIMIT(3)")) == [97, 90, 83])
        #expect(ids(people.sorted(by: [] as [Burrow.SortDescriptor]).limit(3, offset: 2)) == [2, 3, 4])
    }

    @Test func pagingIsLive() throws {
        let realm = try seeded()
        let page = realm.objects(Person.self).sorted(byKeyPath: "id").limit(5, offset: 95)
        #expect(ids(page) == [95, 96, 97, 98, 99])
        try realm.write { realm.add(Person(value: ["id": 100])) }
        #expect(ids(page) == [95, 96, 97, 98, 99])
        try realm.write { realm.delete(realm.object(ofType: Person.self, forPrimaryKey: 96)!) }
        #expect(ids(page) == [95, 97, 98, 99, 100])
        #expect(Array(realm.objects(Person.self)[40..<43]).map(\.id) == [40, 41, 42])
        #expect(realm.objects(Person.self).limit(0).isEmpty)
        #expect(realm.objects(Person.self).limit(5, offset: 1000).isEmpty)
    }

    @Test func distinctKeepsTheFirstOfEachValue() throws {
        let people = try seeded().objects(Person.self)
        #expect(ids(people.distinct(by: ["name"])) == Array(0..<10))
        #expect(ids(people.sorted(byKeyPath: "id", ascending: false).distinct(by: ["name"])) == Array((90..<100).reversed()))
        #expect(people.distinct(by: ["name", "age"]).count == Set((0..<100).map { "\($0 % 10)-\(String(describing: age($0)))" }).count)
    }

    @Test func aggregates() throws {
        let people = try seeded().objects(Person.self)
        #expect(people.min(ofProperty: "id") as Int? == 0)
        #expect(people.max(ofProperty: "id") as Int? == 99)
        #expect(people.sum(ofProperty: "id") as Int == 4950)
        #expect(people.average(ofProperty: "id") as Double? == 49.5)
        let ages = (0..<100).compactMap(age)
        #expect(people.sum(of: \.age) == ages.reduce(0, +))
        #expect(people.min(of: \.age) == 0)
        #expect(people.average(ofProperty: "age") as Double? == Double(ages.reduce(0, +)) / Double(ages.count))
        #expect(people.max(of: \.birthdate) == Date(timeIntervalSince1970: 99 * 86400))
        let none = people.filter("id < 0")
        #expect(none.min(ofProperty: "id") as Int? == nil)
        #expect(none.sum(ofProperty: "id") as Int == 0)
        #expect(none.average(ofProperty: "id") as Double? == nil)
    }

    @Test func indexOfObjectsAndMatches() throws {
        let people = try seeded().objects(Person.self).filter("id >= 10")
        let twenty = people.realm!.object(ofType: Person.self, forPrimaryKey: 20)!
        #expect(people.index(of: twenty) == 10)
        #expect(people.index(of: people.realm!.object(ofType: Person.self, forPrimaryKey: 5)!) == nil)
        #expect(people.index(matching: "name == 'p3'") == 3)
        #expect(people.index(matching: { $0.name == "p4" }) == 4)
        #expect(people.index(matching: "id < 0") == nil)
    }

    @Test func typeSafeQueriesMatchTheStringLanguage() throws {
        let people = try seeded().objects(Person.self)
        let pairs: [(Results<Person>, Results<Person>)] = [
            (people.where { $0.id < 10 && $0.name == "p3" }, people.filter("id < 10 AND name == 'p3'")),
            (people.where { $0.id > 95 || $0.id <= 1 }, people.filter("id > 95 OR id <= 1")),
            (people.where { !($0.id >= 5) }, people.filter("NOT id >= 5")),
            (people.where { $0.age == nil }, people.filter("age == nil")),
            (people.where { $0.age != 3 }, people.filter("age != 3")),
            (people.where { $0.name.starts(with: "p1") }, people.filter("name BEGINSWITH 'p1'")),
            (people.where { $0.nickname.ends(with: "7") }, people.filter("nickname ENDSWITH '7'")),
            (people.where { $0.nickname.contains("ER", options: .caseInsensitive) }, people.filter("nickname CONTAINS[c] 'ER'")),
            (people.where { $0.nickname.like("anger 1*") }, people.filter("nickname LIKE 'anger 1*'")),
            (people.where { $0.id.in([1, 50, 99]) }, people.filter("id IN {1, 50, 99}")),
            (people.where { $0.id.contains(10...12) }, people.filter("id BETWEEN {10, 12}")),
            (people.where { $0.id.contains(10..<12) }, people.filter("id >= 10 AND id < 12")),
            (people.where { $0.mood == .calm }, people.filter("mood == 'calm'")),
            (people.where { $0.age == $0.age }, people.filter("age == age")),
        ]
        for (typed, text) in pairs {
            #expect(ids(typed) == ids(text))
            #expect(!ids(typed).isEmpty)
        }
    }

    @Test(.plainFilesOnly("encrypted indexes answer ranges by scanning, so other plans are expected")) func plansUseIndexesAndGiveTheSameAnswersAsScans() throws {
        let realm = try directory.realm()
        try realm.write {
            for i in 0..<300 {
                realm.add(Indexed(value: ["tag": i % 3 == 0 ? String(repeating: "long", count: 80) + "\(i % 2)" : "t\(i % 17)",
                                          "rank": i % 23 - 11, "when": i % 5 == 0 ? nil : Date(timeIntervalSince1970: Double(i % 13)),
                                          "note": "n\(i)"]))
            }
        }
        let items = realm.objects(Indexed.self)
        let queries = [
            "tag == 't3'", "tag == %@", "tag IN {'t1', 't2', %@}", "tag BEGINSWITH 'long'", "tag BEGINSWITH 't1'",
            "tag > 't5'", "tag <= 't2'", "rank > 3", "rank >= -2 AND rank < 4", "rank BETWEEN {-11, -10}",
            "rank == 5 AND note ENDSWITH '7'", "rank IN {1, 2, 3} OR tag == 't1'", "when == nil", "when > %@",
            "when <= %@ AND rank < 0", "rank > 2.5", "rank == 2.0", "rank < 1.5",
            // A value on the left is bound as the same comparison seen from the property.
            "3 < rank", "-2 <= rank AND 4 > rank", "'t3' == tag", "2.5 >= rank",
        ]
        let long = String(repeating: "long", count: 80) + "1"
        let arguments: [String: [Any]] = [
            "tag == %@": [long], "tag IN {'t1', 't2', %@}": [long], "when > %@": [Date(timeIntervalSince1970: 6)],
            "when <= %@ AND rank < 0": [Date(timeIntervalSince1970: 3)],
        ]
        for query in queries {
            let args = arguments[query] ?? []
            let planned = items.filter(try QueryPredicate(format: query, argumentArray: args))
            // The same predicate behind a NOT NOT cannot use an index: a plain scan.
            let scanned = items.filter(try QueryPredicate(format: "NOT NOT (\(query))", argumentArray: args))
            #expect(planned.map(\.note) == scanned.map(\.note), "\(query)")
            if try planned.internals.isPlannedAsAScan(), !query.contains(" OR ") {
                Issue.record("\(query) should use an index")
            }
        }
        #expect(items.filter("tag == %@", long).count == 50)
        #expect(items.sorted(byKeyPath: "rank").map(\.rank) == items.map(\.rank).sorted())
    }

    @Test func queryPredicatesThrowAndValidate() throws {
        let realm = try directory.realm()
        expectError(.invalidQuery) { try QueryPredicate("age <") }
        expectError(.invalidQuery) { try QueryPredicate("age < 2 SORT(") }
        expectError(.invalidQuery) { try QueryPredicate("age < 2 LIMIT(-1)") }
        expectError(.invalidQuery) { try QueryPredicate("age IN 5") }
        expectError(.invalidQuery) { try QueryPredicate("name == uuid(zzz)") }
        expectError(.invalidQuery) { try QueryPredicate("birthdate > 2026-13-40@00:00:00") }
        let dogs = realm.objects(Dog.self)
        expectError(.invalidQuery) { try dogs.validate(QueryPredicate("ANY age == 2")) }
        expectError(.invalidQuery) { try dogs.validate(QueryPredicate("owner.name == 'x'")) }
        expectError(.invalidQuery) { try dogs.validate(QueryPredicate("TRUEPREDICATE SORT(agee ASC)")) }
        expectError(.invalidQuery) { try dogs.validate(QueryPredicate("name LIKE 3")) }
        try dogs.validate(QueryPredicate("age BETWEEN {1, 3} AND name IN {'a', 'b'} SORT(age DESC) DISTINCT(name) LIMIT(3)"))
    }

    @Test func typeSafeQueriesOnAComputedPropertyTrap() async {
        // `fullName` reads `name` alone, and must not pass for it.
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Internals.rootQuery(of: Person.self).fullName == "Rex!"
        }.map { expectMessage($0, "where { } on 'Person' reads a property that is not @Persisted") }
    }
}
