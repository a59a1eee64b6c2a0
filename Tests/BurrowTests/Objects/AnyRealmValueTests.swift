import Burrow
import Foundation
import Testing

@Suite struct AnyRealmValueTests {
    let directory = TestDirectory()

    @Test func everyKindRoundTrips() throws {
        let realm = try directory.realm()
        let uuid = UUID(), id = ObjectId.generate(), date = Date(timeIntervalSince1970: 1000)
        let values: [AnyRealmValue] = [.none, .int(-3), .bool(true), .float(1.5), .double(2.25), .string("dark"),
                                       .data(Data([1, 2])), .date(date), .objectId(id), .decimal128("1.5"), .uuid(uuid)]
        try realm.write {
            for (index, value) in values.enumerated() { realm.add(Setting(value: ["name": "s\(index)", "value": value])) }
        }
        for (index, value) in values.enumerated() {
            #expect(realm.object(ofType: Setting.self, forPrimaryKey: "s\(index)")?.value == value)
        }
        let setting = realm.object(ofType: Setting.self, forPrimaryKey: "s0")!
        try realm.write { setting.value = .string("light") }
        #expect(setting.value.stringValue == "light")
        #expect(setting.value.intValue == nil)
        #expect(Setting().objectSchema["value"]?.type == .any)
    }

    @Test func objectsAreHeldAndClearedWhenDeleted() throws {
        let realm = try directory.realm()
        let setting = Setting(value: ["name": "owner", "value": AnyRealmValue.object(Owner(value: ["id": 1, "name": "Ann"]))])
        try realm.write { realm.add(setting) }
        #expect(realm.objects(Owner.self).count == 1)
        #expect(setting.value.object(Owner.self)?.name == "Ann")
        let bob = Owner(value: ["id": 2, "name": "Bob"])
        try realm.write { setting.value = .object(bob) }
        #expect(setting.value.object(Owner.self)?.name == "Bob")
        try realm.write { realm.delete(bob) }
        #expect(setting.value == .none)
    }

    @Test func anUnmanagedSetHoldsUnmanagedObjectsOnce() {
        let ann = Owner(value: ["id": 1, "name": "Ann"])
        let set = MutableSet<AnyRealmValue>()
        set.insert(objectsIn: [.object(ann), .object(ann), .object(Owner()), .int(1), .int(1)])
        #expect(set.count == 3 && set.contains(.object(ann)))
        set.remove(.object(ann))
        #expect(set.count == 2 && !set.contains(.object(ann)))
    }

    @Test func queriesCompareTheHeldValue() throws {
        let realm = try directory.realm()
        try realm.write {
            realm.add(Setting(value: ["name": "a", "value": AnyRealmValue.int(5)]))
            realm.add(Setting(value: ["name": "b", "value": AnyRealmValue.double(7.5)]))
            realm.add(Setting(value: ["name": "c", "value": AnyRealmValue.string("dark mode")]))
            realm.add(Setting(value: ["name": "d"]))
        }
        let settings = realm.objects(Setting.self)
        func names(_ results: Results<Setting>) -> [String] { results.map(\.name) }
        #expect(names(settings.filter("value > 6")) == ["b"])
        #expect(names(settings.filter("value == 5")) == ["a"])
        #expect(names(settings.filter("value == 'dark mode'")) == ["c"])
        #expect(names(settings.filter("value BEGINSWITH[c] 'DARK'")) == ["c"])
        #expect(names(settings.filter("value == nil")) == ["d"])
        #expect(names(settings.sorted(byKeyPath: "value").filter("value != nil AND value != 'dark mode'")) == ["a", "b"])
    }
}
