import Burrow
import Foundation
import Testing

@Suite struct InvalidateTests {
    let directory = TestDirectory()

    @Test func objectsReadBeforeAreInvalidatedForGood() throws {
        let configuration = directory.configuration()
        let realm = try Realm(configuration: configuration)
        try realm.write { realm.add(Dog(value: ["Rex", 1])) }
        let dogs = realm.objects(Dog.self)
        let rex = try #require(dogs.first)
        let owners = realm.objects(Owner.self)
        realm.invalidate()
        #expect(rex.isInvalidated && dogs.isInvalidated && owners.isInvalidated)
        #expect(!realm.objects(Dog.self).isInvalidated)
        // Another thread's commit is seen at once: the next read takes the latest version.
        onAnotherThread {
            let background = try! Realm(configuration: configuration)
            try! background.write { background.add(Dog(value: ["Fido", 5])) }
        }
        #expect(dogs.count == 2)
        try realm.write { realm.add(Dog(value: ["Bo", 2])) }
        #expect(realm.objects(Dog.self).count == 3 && rex.isInvalidated)
        let again = try #require(dogs.filter("name == 'Rex'").first)
        #expect(!again.isInvalidated && again.age == 1)
        // Twice in a row without a read: nothing more happens.
        realm.invalidate()
        realm.invalidate()
        #expect(again.isInvalidated && dogs.count == 3)
    }

    @Test func collectionsReadBeforeAreInvalidatedToo() throws {
        let realm = try directory.realm()
        try realm.write { realm.add(Kennel(value: ["id": 1, "tags": ["a"]])) }
        let tags = try #require(realm.object(ofType: Kennel.self, forPrimaryKey: 1)).tags
        #expect(!tags.isInvalidated)
        realm.invalidate()
        #expect(tags.isInvalidated)
        #expect(realm.object(ofType: Kennel.self, forPrimaryKey: 1)?.tags.isInvalidated == false)
    }

    @Test func anOpenWriteIsCancelled() throws {
        let realm = try directory.realm()
        realm.beginWrite()
        realm.add(Dog(value: ["Rex", 1]))
        realm.invalidate()
        #expect(!realm.isInWriteTransaction)
        #expect(realm.objects(Dog.self).isEmpty)
    }

    @Test func readingAnInvalidatedObjectTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let directory = TestDirectory()
            let realm = try! directory.realm()
            try! realm.write { realm.add(Dog(value: ["Rex", 1])) }
            let rex = realm.objects(Dog.self).first!
            realm.invalidate()
            _ = rex.name
        }
        expectMessage(result, "Object has been deleted or invalidated.")
    }

    /// A change to an invalidated object outside a write reports the invalidation first, as
    /// RealmSwift does: a property, a link, an `AnyRealmValue` and a list.
    @Test(arguments: ["property", "link", "mixed", "list"]) func changingAnInvalidatedObjectOutsideAWriteTrapsAsInvalidated(_ what: String) async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) { [what = what as String] in
            let directory = TestDirectory()
            let realm = try! directory.realm()
            try! realm.write { realm.add(Kennel(value: ["id": 1, "name": "k", "tags": ["a"]])) }
            try! realm.write { realm.add(Puppy(value: ["name": "p"])) }
            try! realm.write { realm.add(Bag()) }
            let kennel = realm.objects(Kennel.self).first!
            let puppy = realm.objects(Puppy.self).first!
            let bag = realm.objects(Bag.self).first!
            realm.invalidate()
            switch what {
            case "property": kennel.name = "x"
            case "link": puppy.owner = nil
            case "mixed": bag.items.append(.int(1))
            default: kennel.tags.removeAll()
            }
        }
        expectMessage(result, "Object has been deleted or invalidated.")
    }
}
