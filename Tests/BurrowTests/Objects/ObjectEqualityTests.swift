import Burrow
import Foundation
import Testing

@Suite struct ObjectEqualityTests {
    let directory = TestDirectory()

    @Test func managedObjectsAreEqualWhenTheyAreTheSameRow() throws {
        let realm = try directory.realm()
        try realm.write {
            realm.add(Person(value: ["id": 1, "name": "a"]))
            realm.add(Person(value: ["id": 2, "name": "b"]))
        }
        let one = try #require(realm.object(ofType: Person.self, forPrimaryKey: 1))
        let again = try #require(realm.objects(Person.self).filter("name == 'a'").first)
        let two = try #require(realm.object(ofType: Person.self, forPrimaryKey: 2))
        #expect(one !== again)
        #expect(one == again)
        #expect(one.hashValue == again.hashValue)
        #expect(one != two)
        #expect(Set([one, again, two]).count == 2)
        #expect(realm.objects(Person.self).firstIndex(of: again) == 0)
    }

    @Test func unmanagedObjectsAreEqualOnlyToThemselves() {
        let first = Dog(value: ["name": "Rex"]), second = Dog(value: ["name": "Rex"])
        #expect(first == first)
        #expect(first != second)
        #expect(Set([first, second, first]).count == 2)
    }

    @Test func aManagedObjectIsNotEqualToAnUnmanagedCopyOrToAnotherFile() throws {
        let realm = try directory.realm()
        let other = try directory.realm("other.realm")
        let dog = Dog(value: ["name": "Rex"])
        try realm.write { realm.add(dog) }
        try other.write { other.add(Dog(value: ["name": "Rex"])) }
        #expect(dog != Dog(value: dog))
        let elsewhere = try #require(other.objects(Dog.self).first)
        #expect(dog != elsewhere)
    }

    @Test func objectsOfOneFileOnTwoThreadsAreEqual() throws {
        let configuration = directory.configuration()
        let realm = try Realm(configuration: configuration)
        try realm.write { realm.add(Person(value: ["id": 7])) }
        let here = try #require(realm.object(ofType: Person.self, forPrimaryKey: 7))
        let hash = here.hashValue
        nonisolated(unsafe) var hashThere = 0
        onAnotherThread {
            let there = try! Realm(configuration: configuration).object(ofType: Person.self, forPrimaryKey: 7)!
            hashThere = there.hashValue
        }
        #expect(hash == hashThere)
    }
}
