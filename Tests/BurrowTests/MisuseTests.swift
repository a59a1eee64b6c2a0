import Burrow
import Foundation
import Testing

/// Programmer errors trap with a precise message, as in RealmSwift. Each case runs in a child
/// process that must crash.
@Suite struct MisuseTests {
    /// A realm on a fresh file, for use inside an exit test.
    static func freshRealm() -> Realm {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("burrow-misuse-\(UUID().uuidString).realm")
        return try! Realm(fileURL: url)
    }

    @Test func modifyingOutsideAWriteTraps() async {
        await #expect(processExitsWith: .failure) {
            let realm = MisuseTests.freshRealm()
            let dog = Dog()
            try! realm.write { realm.add(dog) }
            dog.age = 3
        }
    }

    @Test func addingOutsideAWriteTraps() async {
        await #expect(processExitsWith: .failure) {
            MisuseTests.freshRealm().add(Dog())
        }
    }

    @Test func beginningAWriteInsideAWriteTraps() async {
        await #expect(processExitsWith: .failure) {
            let realm = MisuseTests.freshRealm()
            realm.beginWrite()
            realm.beginWrite()
        }
    }

    @Test func aDuplicatePrimaryKeyTraps() async {
        await #expect(processExitsWith: .failure) {
            let realm = MisuseTests.freshRealm()
            try! realm.write {
                realm.add(Person(value: ["id": 1]))
                realm.add(Person(value: ["id": 1]))
            }
        }
    }

    @Test func changingAManagedPrimaryKeyTraps() async {
        await #expect(processExitsWith: .failure) {
            let realm = MisuseTests.freshRealm()
            let person = Person(value: ["id": 1])
            try! realm.write { realm.add(person) }
            try! realm.write { person.id = 2 }
        }
    }

    @Test func usingARealmFromAnotherThreadTraps() async {
        await #expect(processExitsWith: .failure) {
            let realm = MisuseTests.freshRealm()
            let box = UncheckedBox(realm)
            let thread = Thread { _ = box.value.objects(Dog.self).count }
            thread.start()
            sleep(5)
        }
    }

    @Test func readingADeletedObjectTraps() async {
        await #expect(processExitsWith: .failure) {
            let realm = MisuseTests.freshRealm()
            let dog = Dog()
            try! realm.write { realm.add(dog) }
            try! realm.write { realm.delete(dog) }
            _ = dog.name
        }
    }

    @Test func aMalformedFilterTraps() async {
        await #expect(processExitsWith: .failure) {
            _ = MisuseTests.freshRealm().objects(Dog.self).filter("agee < 2")
        }
    }

    @Test func anIndexOutOfRangeTraps() async {
        await #expect(processExitsWith: .failure) {
            _ = MisuseTests.freshRealm().objects(Dog.self)[0]
        }
    }

    @Test func aValueOfTheWrongTypeTraps() async {
        await #expect(processExitsWith: .failure) {
            _ = Dog(value: ["name": 5])
        }
    }

    @Test func anUnknownPropertyNameTraps() async {
        await #expect(processExitsWith: .failure) {
            _ = Dog(value: ["nmae": "Rex"])
        }
    }

    @Test func writingToAReadOnlyRealmTraps() async {
        await #expect(processExitsWith: .failure) {
            let url = FileManager.default.temporaryDirectory.appendingPathComponent("burrow-ro-\(UUID().uuidString).realm")
            do { _ = try! Realm(fileURL: url) }
            let realm = try! Realm(configuration: Realm.Configuration(fileURL: url, readOnly: true))
            realm.beginWrite()
        }
    }
}

/// Smuggles a value across threads to prove that confinement is enforced.
final class UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
