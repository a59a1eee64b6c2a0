import Burrow
import Foundation
import Testing

/// Programmer errors trap with a precise message, as in RealmSwift. Each case runs in a child
/// process that must crash, and its message is checked.
@Suite struct MisuseTests {
    /// A realm on a fresh file, for use inside an exit test.
    static func freshRealm() -> Realm {
        try! Realm(configuration: freshConfiguration())
    }

    /// A configuration for a fresh file, for use inside an exit test.
    static func freshConfiguration() -> Realm.Configuration {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("burrow-misuse-\(UUID().uuidString).realm")
        return Realm.Configuration(fileURL: url)
    }

    @Test func modifyingOutsideAWriteTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let realm = MisuseTests.freshRealm()
            let dog = Dog()
            try! realm.write { realm.add(dog) }
            dog.age = 3
        }
        expectMessage(result, "Attempting to modify object outside of a write transaction")
    }

    @Test func addingOutsideAWriteTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            MisuseTests.freshRealm().add(Dog())
        }
        expectMessage(result, "Cannot add an object to a Realm outside of a write transaction")
    }

    @Test func beginningAWriteInsideAWriteTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let realm = MisuseTests.freshRealm()
            realm.beginWrite()
            realm.beginWrite()
        }
        expectMessage(result, "The Realm is already in a write transaction")
    }

    @Test func changingAManagedPrimaryKeyTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let realm = MisuseTests.freshRealm()
            let person = Person(value: ["id": 1])
            try! realm.write { realm.add(person) }
            try! realm.write { person.id = 2 }
        }
        expectMessage(result, "Primary key can't be changed after an object is inserted.")
    }

    /// Changes a managed primary key one of nine ways (for the exit tests below, which cannot
    /// capture): the property, the subscript and key-value coding, on an integer, a string and
    /// an optional key.
    static func changePrimaryKey(way: Int) {
        let realm = MisuseTests.freshRealm()
        realm.beginWrite()
        let person = Person(value: ["id": 1]), pet = CampaignPet(value: ["code": "a"]), keyed = OptionalIntKeyed(value: ["key": 1])
        realm.add(person); realm.add(pet); realm.add(keyed)
        switch way {
        case 0: person.id = 2
        case 1: person["id"] = 2
        case 2: person.setValue(2, forKey: "id")
        case 3: pet.code = "b"
        case 4: pet["code"] = "b"
        case 5: pet.setValue("b", forKey: "code")
        case 6: keyed.key = nil
        case 7: keyed["key"] = nil
        default: keyed.setValue(nil, forKey: "key")
        }
    }

    /// RealmSwift's testCannotUpdatePrimaryKey, every way.
    @Test func changingAManagedPrimaryKeyTrapsEveryWay() async {
        let message = "Primary key can't be changed after an object is inserted."
        expectMessage(await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) { MisuseTests.changePrimaryKey(way: 1) }, message)
        expectMessage(await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) { MisuseTests.changePrimaryKey(way: 2) }, message)
        expectMessage(await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) { MisuseTests.changePrimaryKey(way: 3) }, message)
        expectMessage(await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) { MisuseTests.changePrimaryKey(way: 4) }, message)
        expectMessage(await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) { MisuseTests.changePrimaryKey(way: 5) }, message)
        expectMessage(await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) { MisuseTests.changePrimaryKey(way: 6) }, message)
        expectMessage(await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) { MisuseTests.changePrimaryKey(way: 7) }, message)
        expectMessage(await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) { MisuseTests.changePrimaryKey(way: 8) }, message)
    }

    /// RealmSwift's testCannotSetMutuallyExclusiveProperties, and its other exclusive settings.
    @Test func settingsThatExcludeEachOtherTrap() async {
        expectMessage(await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            var configuration = MisuseTests.freshConfiguration()
            configuration.readOnly = true
            configuration.deleteRealmIfMigrationNeeded = true
            _ = try? Realm(configuration: configuration)
        }, "Cannot set `deleteRealmIfMigrationNeeded` when `readOnly` is set.")
        expectMessage(await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            var configuration = MisuseTests.freshConfiguration()
            configuration.readOnly = true
            configuration.shouldCompactOnLaunch = { _, _ in true }
            _ = try? Realm(configuration: configuration)
        }, "Cannot set `shouldCompactOnLaunch` when `readOnly` is set.")
        expectMessage(await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            var configuration = MisuseTests.freshConfiguration()
            configuration.deleteRealmIfMigrationNeeded = true
            configuration.syncConfiguration = SyncConfiguration(server: "postgresql://nobody@127.0.0.1:1/none")
            _ = try? Realm(configuration: configuration)
        }, "Cannot set 'deleteRealmIfMigrationNeeded' when sync is enabled ('syncConfig' is set).")
    }

    @Test func usingARealmFromAnotherThreadTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let box = UncheckedBox(MisuseTests.freshRealm())
            Thread { _ = box.value.objects(Dog.self).count }.start()
            sleep(10)
        }
        expectMessage(result, "Realm accessed from incorrect thread.")
    }

    @Test func readingADeletedObjectTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let realm = MisuseTests.freshRealm()
            let dog = Dog()
            try! realm.write { realm.add(dog) }
            try! realm.write { realm.delete(dog) }
            _ = dog.name
        }
        expectMessage(result, "Object has been deleted or invalidated.")
    }

    @Test func aMalformedFilterTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = MisuseTests.freshRealm().objects(Dog.self).filter("agee < 2")
        }
        expectMessage(result, "unknown property 'agee' on Dog; did you mean 'age'?")
    }

    @Test func anIndexOutOfRangeTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = MisuseTests.freshRealm().objects(Dog.self)[0]
        }
        expectMessage(result, "Index 0 is out of bounds (must be less than 0).")
    }

    @Test func aValueOfTheWrongTypeTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Dog(value: ["name": 5])
        }
        expectMessage(result, "Invalid value '5' of type 'Int' for 'String' property 'Dog.name'.")
    }

    @Test func anUnknownPropertyNameTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let dog = Dog()
            dog["nmae"] = "Rex"
        }
        expectMessage(result, "Invalid property name 'nmae' for class 'Dog'.")
        // A dictionary's other keys are ignored, as in RealmSwift: one dictionary can fill
        // objects of several classes.
        let dog = Dog(value: ["name": "Rex", "nmae": "x", "owner": 3])
        #expect(dog.name == "Rex")
    }

    @Test func writingToAReadOnlyRealmTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let url = FileManager.default.temporaryDirectory.appendingPathComponent("burrow-ro-\(UUID().uuidString).realm")
            do { _ = try! Realm(fileURL: url) }
            let realm = try! Realm(configuration: Realm.Configuration(fileURL: url, readOnly: true))
            realm.beginWrite()
        }
        expectMessage(result, "Can't perform transactions on read-only Realms.")
    }

    @Test func deletingAnUnmanagedObjectTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let realm = MisuseTests.freshRealm()
            try! realm.write { realm.delete(Dog()) }
        }
        expectMessage(result, "Can only delete an object from the Realm it belongs to.")
    }

    @Test func updatingWithoutAPrimaryKeyTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let realm = MisuseTests.freshRealm()
            try! realm.write { realm.add(Dog(), update: .modified) }
        }
        expectMessage(result, "'Dog' does not have a primary key and can not be updated")
    }

    @Test func sortingByAnUnknownPropertyTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = MisuseTests.freshRealm().objects(Dog.self).sorted(byKeyPath: "agee")
        }
        expectMessage(result, "Cannot sort on key path 'agee': property 'Dog.agee' does not exist.")
    }

    @Test func aGenericModelClassTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            final class Box<T>: Object { @Persisted var label = "" }
            _ = Box<Int>().objectSchema
        }
        expectMessage(result, "Generic model classes are not supported")
    }

    @Test func summingAStringTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let realm = MisuseTests.freshRealm()
            let _: Int = realm.objects(Dog.self).sum(ofProperty: "name")
        }
        expectMessage(result, "Invalid property type 'string' for sum of 'Dog.name'")
    }
}

/// Smuggles a value across threads to prove that confinement is enforced.
final class UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
