import Burrow
import Foundation
import Testing

/// Lists and dictionaries held by an `AnyRealmValue` property, nested to any depth.
@Suite struct NestedAnyRealmValueTests {
    let directory = TestDirectory()

    private func setting(_ realm: Realm, _ value: AnyRealmValue, name: String = "s") throws -> Setting {
        let setting = Setting(value: ["name": name, "value": value])
        try realm.write { realm.add(setting) }
        return setting
    }

    /// A document of every shape: unicode, numbers, nil, deep nesting, empty collections.
    private static func document() -> AnyRealmValue {
        .fromDictionary([
            "name": .string("ünïcode ✓"),
            "sizes": .fromArray([.int(1), .double(2.5), .none, .bool(false)]),
            "deep": .fromArray([.fromArray([.fromDictionary(["leaf": .data(Data([0, 1]))])])]),
            "empty list": .fromArray([]),
            "empty map": .fromDictionary([:]),
        ])
    }

    @Test func nestedCollectionsRoundTripThroughTheFile() throws {
        let document = Self.document()
        let configuration = directory.configuration()
        onAnotherThread {
            let realm = try! Realm(configuration: configuration)
            try! realm.write { realm.add(Setting(value: ["name": "s", "value": Self.document()])) }
        }
        do {
            let realm = try directory.realm()
            let value = realm.object(ofType: Setting.self, forPrimaryKey: "s")!.value
            #expect(value == document)
            let map = value.dictionaryValue!
            #expect(map.keys == ["deep", "empty list", "empty map", "name", "sizes"])
            #expect(map["sizes"]?.listValue.map(Array.init) == [.int(1), .double(2.5), .none, .bool(false)])
            #expect(map["deep"]?.listValue?[0].listValue?[0].dictionaryValue?["leaf"] == .data(Data([0, 1])))
            #expect(map["empty list"]?.listValue?.isEmpty == true)
            #expect(map["empty map"]?.dictionaryValue?.count == 0)
            #expect(map["name"] == .string("ünïcode ✓"))
            #expect(map["missing"] == nil)
        }
    }

    @Test func aManagedNestedListIsLiveAndWritesThrough() throws {
        let realm = try directory.realm()
        let setting = try setting(realm, .fromArray([.int(1), .int(2)]))
        let list = try #require(setting.value.listValue)
        let sameRow = realm.object(ofType: Setting.self, forPrimaryKey: "s")!
        try realm.write {
            list.append(.int(3))
            list.insert(.string("zero"), at: 0)
            list[1] = .int(10)
            list.move(from: 0, to: 3)
            list.swapAt(0, 1)
        }
        #expect(Array(list) == [.int(2), .int(10), .int(3), .string("zero")])
        #expect(sameRow.value.listValue.map(Array.init) == Array(list))
        try realm.write { list.remove(at: 3); list.removeLast() }
        #expect(Array(list) == [.int(2), .int(10)])
        try realm.write { list.removeAll() }
        #expect(sameRow.value.listValue?.count == 0)
        #expect(!list.isInvalidated)
    }

    @Test func aManagedNestedDictionaryIsLiveAndKeepsByteOrder() throws {
        let realm = try directory.realm()
        let setting = try setting(realm, .fromDictionary(["b": .int(1)]))
        let map = try #require(setting.value.dictionaryValue)
        let composed = "\u{E9}", decomposed = "e\u{301}"
        try realm.write {
            map["a"] = .string("first")
            map[composed] = .int(1)
            map[decomposed] = .int(2)
            map["b"] = .fromArray([.int(7)])
            map["b"]?.listValue?.append(.int(8))
        }
        #expect(map.count == 4)
        #expect(map.keys == ["a", "b", decomposed, composed])
        #expect(map[composed] == .int(1) && map[decomposed] == .int(2))
        #expect(map["b"]?.listValue.map(Array.init) == [.int(7), .int(8)])
        try realm.write { map["a"] = nil; map.removeObject(for: "b") }
        #expect(map.keys == [decomposed, composed])
        #expect(!map.contains(key: "a"))
        try realm.write { map.removeAll() }
        #expect(setting.value == .fromDictionary([:]))
    }

    @Test func anotherThreadsChangeShowsAfterRefresh() throws {
        let realm = try directory.realm()
        let setting = try setting(realm, .fromDictionary(["log": .fromArray([.string("start")])]))
        let log = try #require(setting.value.dictionaryValue?["log"]?.listValue)
        let configuration = directory.configuration()
        onAnotherThread {
            let background = try! Realm(configuration: configuration)
            let mine = background.object(ofType: Setting.self, forPrimaryKey: "s")!
            try! background.write { for index in 0..<100 { mine.value.dictionaryValue?["log"]?.listValue?.append(.int(index)) } }
        }
        #expect(log.count == 1)  // this thread still reads its snapshot
        realm.refresh()
        #expect(log.count == 101)
        #expect(log.last == .int(99))
    }

    @Test func cancellingAWriteRestoresTheNestedValue() throws {
        let realm = try directory.realm()
        let setting = try setting(realm, .fromArray([.int(1)]))
        realm.beginWrite()
        setting.value.listValue?.append(.int(2))
        #expect(setting.value.listValue?.count == 2)
        realm.cancelWrite()
        #expect(setting.value.listValue.map(Array.init) == [.int(1)])
    }

    @Test func reassigningTheValueInvalidatesItsOldCollections() throws {
        let realm = try directory.realm()
        let setting = try setting(realm, .fromDictionary(["inner": .fromArray([.int(1)])]))
        let inner = try #require(setting.value.dictionaryValue?["inner"]?.listValue)
        try realm.write { setting.value = .int(5) }
        #expect(inner.isInvalidated)
        #expect(setting.value == .int(5))
    }

    @Test func objectsInNestedCollectionsAreAddedAndLeaveWhenDeleted() throws {
        let realm = try directory.realm()
        let rex = Dog(value: ["name": "Rex"]), fido = Dog(value: ["name": "Fido"])
        let setting = try setting(realm, .fromArray([.object(rex), .int(1), .object(rex),
                                                     .fromDictionary(["pet": .object(fido), "n": .int(2)])]))
        #expect(realm.objects(Dog.self).count == 2)
        let list = try #require(setting.value.listValue)
        #expect(list[0].object(Dog.self)?.name == "Rex")
        #expect(list[3].dictionaryValue?["pet"]?.object(Dog.self)?.isSameObject(as: fido) == true)
        try realm.write { realm.delete(rex) }
        // As in a list property, a deleted object leaves a nested list...
        #expect(list.count == 2)
        #expect(list[0] == .int(1))
        // ...and leaves a nil behind in a nested dictionary.
        try realm.write { realm.delete(fido) }
        #expect(list[1].dictionaryValue?.keys == ["n", "pet"])
        #expect(list[1].dictionaryValue?["pet"] == AnyRealmValue.none)
    }

    @Test func replacedOrDeletedHoldersDropTheirBacklinks() throws {
        let realm = try directory.realm()
        let rex = Dog(value: ["name": "Rex"])
        let setting = try setting(realm, .fromArray([.fromArray([.object(rex)])]))
        let other = try self.setting(realm, .fromDictionary(["pet": .object(rex)]), name: "other")
        try realm.write { setting.value = .string("replaced") }
        try realm.write { realm.delete(other) }
        // The entries of both former holders are gone: deleting Rex touches neither row.
        try realm.write { realm.delete(rex) }
        #expect(setting.value == .string("replaced"))
        #expect(realm.objects(Setting.self).count == 1)
        #expect(realm.objects(Dog.self).isEmpty)
    }

    @Test func objectValueAndEncodingAcceptNestedArraysAndDictionaries() throws {
        let realm = try directory.realm()
        let setting = Setting(value: ["name": "n", "value": ["colors": ["red", 2, NSNull()], "on": true]])
        #expect(setting.value.dictionaryValue?["colors"]?.listValue?[1] == .int(2))
        try realm.write { realm.add(setting) }
        #expect(setting.value.dictionaryValue?["colors"]?.listValue.map(Array.init) == [.string("red"), .int(2), .none])
        let json = try JSONSerialization.jsonObject(with: JSONEncoder().encode(setting)) as? [String: Any]
        let value = try #require(json?["value"] as? [String: Any])
        #expect(value["on"] as? Bool == true)
        #expect((value["colors"] as? [Any])?.first as? String == "red")
    }

    @Test func createAcceptsNestedValuesAndMapsMerge() throws {
        let realm = try directory.realm()
        let created = try realm.write { realm.create(Setting.self, value: ["name": "c", "value": ["sizes": [1, 2]]]) }
        #expect(created.value.dictionaryValue?["sizes"]?.listValue.map(Array.init) == [.int(1), .int(2)])
        let map = try #require(created.value.dictionaryValue)
        try realm.write {
            map.merge(["sizes": .int(0), "new": .bool(true)]) { current, _ in current }
        }
        #expect(map.keys == ["new", "sizes"])
        #expect(map["sizes"]?.listValue?.count == 2)  // the current value was kept
        #expect(map["new"] == .bool(true))
    }

    @Test func aLargeNestedListRoundTrips() throws {
        let realm = try directory.realm()
        let elements = (0..<10_000).map { AnyRealmValue.string("element \($0)") }
        let setting = try setting(realm, .fromArray(elements))
        #expect(setting.value.listValue?.count == 10_000)
        #expect(setting.value.listValue?[9_999] == .string("element 9999"))
    }

    @Test func queriesOnTheHolderDoNotMatchACollection() throws {
        let realm = try directory.realm()
        _ = try setting(realm, .fromArray([.int(5)]))
        _ = try setting(realm, .int(5), name: "plain")
        #expect(realm.objects(Setting.self).filter("value == 5").map(\.name) == ["plain"])
        #expect(realm.objects(Setting.self).filter("value != nil").count == 2)
    }

    @Test func queriesReadAKeyOfAHeldDictionary() throws {
        let realm = try directory.realm()
        _ = try setting(realm, .fromDictionary(["theme": .string("dark"), "size": .int(12)]), name: "a")
        _ = try setting(realm, .fromDictionary(["theme": .string("light")]), name: "b")
        _ = try setting(realm, .int(3), name: "c")
        _ = try setting(realm, .fromDictionary(["size": .double(12.5)]), name: "d")
        func names(_ query: String) -> [String] { realm.objects(Setting.self).filter(query).map(\.name).sorted() }
        #expect(names("value['theme'] == 'dark'") == ["a"])
        #expect(names("value['size'] > 10") == ["a", "d"])
        #expect(names("value['theme'] == nil") == ["c", "d"])
        #expect(names("value['theme'] BEGINSWITH[c] 'L'") == ["b"])
        #expect(names("value['missing'] != nil") == [])
    }

    @Test func queriesFollowPathsIntoNestedValuesAndCountThem() throws {
        let realm = try directory.realm()
        _ = try setting(realm, .fromDictionary(["sizes": .fromArray([.int(1), .int(2)]), "deep": .fromDictionary(["on": .bool(true)])]),
                        name: "a")
        _ = try setting(realm, .fromArray([.string("x"), .fromArray([.int(2)])]), name: "b")
        _ = try setting(realm, .fromArray([]), name: "c")
        _ = try setting(realm, .int(2), name: "d")
        func names(_ query: String) -> [String] { realm.objects(Setting.self).filter(query).map(\.name).sorted() }
        #expect(names("value['sizes'][1] == 2") == ["a"])
        #expect(names("value['deep']['on'] == true") == ["a"])
        #expect(names("value[0] == 'x'") == ["b"])
        #expect(names("value[1][0] >= 2") == ["b"])
        #expect(names("value[5] == nil") == ["a", "b", "c", "d"])
        #expect(names("value.@size == 2") == ["a", "b"])
        #expect(names("value.@count == 0") == ["c"])
        #expect(names("value.@size == nil") == ["d"])
        let settings = realm.objects(Setting.self)
        expectError(.invalidQuery) { try settings.validate(QueryPredicate("name[0] == 'x'")) }
        expectError(.invalidQuery) { try settings.validate(QueryPredicate("value[0].name == 'x'")) }
        expectError(.invalidQuery) { try settings.validate(QueryPredicate("value.@avg == 1")) }
        expectError(.invalidQuery) { try settings.validate(QueryPredicate("2 == value[0]")) }
        expectError(.invalidQuery) { try settings.validate(QueryPredicate("value[0] == name")) }
        expectError(.invalidQuery) { try settings.validate(QueryPredicate("value.@size > name")) }
        expectError(.invalidQuery) { try settings.validate(QueryPredicate("value['a'] == name")) }
        let shelf = Shelf()
        shelf.settings.append(objectsIn: [Setting(value: ["name": "s1", "value": AnyRealmValue.fromArray([.int(7)])])])
        try realm.write { realm.add(shelf) }
        let shelves = realm.objects(Shelf.self)
        #expect(shelves.filter("SUBQUERY(settings, $s, $s.value[0] == 7).@count == 1").count == 1)
        #expect(shelves.filter("SUBQUERY(settings, $s, $s.value['x'] == 7).@count == 1").isEmpty)
    }

    // MARK: Misuse

    @Test func changingANestedListOutsideAWriteTraps() async {
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            withAddedSetting(.fromArray([])) { _, setting in setting.value.listValue!.append(.int(1)) }
        }.map { expectMessage($0, "Attempting to modify object outside of a write transaction") }
    }

    @Test func aNestedIndexOutOfBoundsTraps() async {
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            withAddedSetting(.fromArray([.int(1)])) { realm, setting in
                try! realm.write { setting.value.listValue!.remove(at: 1) }
            }
        }.map { expectMessage($0, "Index 1 is out of bounds (must be less than 1).") }
    }

    @Test func readingACollectionWhoseValueWasReplacedTraps() async {
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            withAddedSetting(.fromArray([.int(1)])) { realm, setting in
                let list = setting.value.listValue!
                try! realm.write { setting.value = .none }
                _ = list.count
            }
        }.map { expectMessage($0, "This nested collection no longer exists") }
    }

    @Test func nestingDeeperThanTheLimitTraps() async {
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let directory = TestDirectory()
            let realm = try! directory.realm()
            var value = AnyRealmValue.int(0)
            for _ in 0...AnyRealmValue.maximumNestingDepth { value = .fromArray([value]) }
            try! realm.write { realm.add(Setting(value: ["name": "s", "value": value])) }
        }.map { expectMessage($0, "nest at most 100 levels deep") }
    }
}

/// Runs `body` with a realm in a new folder that holds one setting with `value`; for child
/// processes, which cannot use a test's state.
private func withAddedSetting(_ value: AnyRealmValue, _ body: (Realm, Setting) -> Void) {
    let directory = TestDirectory()
    let realm = try! directory.realm()
    let setting = Setting(value: ["name": "s", "value": value])
    try! realm.write { realm.add(setting) }
    withExtendedLifetime(directory) { body(realm, setting) }
}
