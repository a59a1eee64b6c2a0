import Burrow
import Foundation
import Testing

@Suite struct RealmPropertyTests {
    let directory = TestDirectory()

    @Test func anUnmanagedBoxHoldsItsValue() {
        let reading = Reading()
        #expect(reading.raw.value == .none && reading.celsius.value == nil)
        reading.celsius.value = -3.5
        reading.raw.value = .string("ü")
        #expect(reading.celsius.value == -3.5 && reading.raw.value == .string("ü"))
        #expect(reading["celsius"] as? Double == -3.5)
        #expect(reading.celsius.description == "Optional(-3.5)")
        #expect(reading.humidity.value == nil && RealmOptional(4).value == 4)
    }

    @Test func aRealmEnumIsTheValueOfARealmOptional() throws {
        enum Shift: Int, RealmEnum { case day = 1, night = 2 }
        final class Watch: Object {
            @Persisted(primaryKey: true) var id = 0
            let shift = RealmOptional<Shift>()
        }
        let realm = try Realm(configuration: directory.configuration(objectTypes: [Watch.self]))
        try realm.write {
            let watch = Watch()
            watch.id = 1
            watch.shift.value = .night
            realm.add(watch)
            realm.add(Watch(value: ["id": 2]))
        }
        #expect(realm.fileSchema["Watch"]?["shift"]?.type == .int && realm.fileSchema["Watch"]?["shift"]?.isOptional == true)
        #expect(realm.object(ofType: Watch.self, forPrimaryKey: 1)?.shift.value == .night)
        #expect(realm.object(ofType: Watch.self, forPrimaryKey: 2)?.shift.value == nil)
        #expect(realm.objects(Watch.self).filter("shift == 2").map(\.id) == [1])
        #expect(realm.objects(Watch.self).filter("shift == nil").map(\.id) == [2])
    }

    @Test func theValueIsStoredQueriedAndUpdated() throws {
        let realm = try directory.realm()
        try realm.write {
            for (id, celsius) in [(1, 21.5), (2, 8.0)] {
                let reading = Reading()
                reading.id = id
                reading.celsius.value = celsius
                reading.raw.value = .int(id * 10)
                reading.humidity.value = id * 20
                realm.add(reading)
            }
            realm.add(Reading(value: ["id": 3]))
        }
        let readings = realm.objects(Reading.self)
        #expect(readings.filter("celsius > 10").map(\.id) == [1])
        #expect(readings.filter("celsius == nil").map(\.id) == [3])
        #expect(readings.filter("raw == 20").map(\.id) == [2])
        #expect(readings.filter("raw == %@", AnyRealmValue.int(10)).map(\.id) == [1])
        #expect(readings.filter("humidity >= 20").map(\.id) == [1, 2] && readings.first?.humidity.value == 20)
        #expect(realm.fileSchema["Reading"]?["humidity"]?.type == .int && realm.fileSchema["Reading"]?["humidity"]?.isOptional == true)
        #expect(readings.sorted(byKeyPath: "celsius").map(\.id) == [3, 2, 1])
        let first = try #require(realm.object(ofType: Reading.self, forPrimaryKey: 1))
        #expect(first.celsius.value == 21.5 && first.raw.value == .int(10))
        // A box read earlier sees later writes: it reads the row.
        let box = first.celsius
        try realm.write {
            first.celsius.value = nil
            first.raw.value = .data(Data([1, 2]))
        }
        #expect(box.value == nil && realm.object(ofType: Reading.self, forPrimaryKey: 1)?.raw.value == .data(Data([1, 2])))
        let schema = try #require(realm.fileSchema["Reading"])
        #expect(schema["celsius"]?.type == .double && schema["celsius"]?.isOptional == true)
        #expect(schema["raw"]?.type == .any)
        #expect(first.celsius == realm.object(ofType: Reading.self, forPrimaryKey: 3)?.celsius)
    }

    @Test func itEncodesAndDecodesAsItsValue() throws {
        let reading = Reading()
        reading.id = 4
        reading.celsius.value = 12.25
        reading.humidity.value = 55
        let json = try JSONEncoder().encode(reading)
        let decoded = try JSONDecoder().decode(Reading.self, from: json)
        #expect(decoded.id == 4 && decoded.celsius.value == 12.25 && decoded.raw.value == .none && decoded.humidity.value == 55)
    }

    @Test func writingOutsideAWriteTransactionTraps() async {
        await #expect(processExitsWith: .failure) {
            let directory = TestDirectory()
            let realm = try! directory.realm()
            let reading = Reading()
            try! realm.write { realm.add(reading) }
            reading.celsius.value = 1
        }
    }
}
