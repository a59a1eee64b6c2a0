import Burrow
import Foundation
import LMDB
import Testing

/// A map of embedded objects.
final class AddressBook: Object {
    @Persisted var addresses: Map<String, Address?>
}

/// What RealmSwift's own tests of collections expect and Burrow once did otherwise: loops that
/// delete what they walk, realm notifications of commits made before the first delivery,
/// `AnyRealmValue`s through key-value coding, the messages that refuse an embedded object a
/// second owner, and a set's `@count`.
@Suite struct KeyValueAndEnumerationParityTests {
    let directory = TestDirectory()

    @Test func aLoopInsideAWriteMeetsEveryElementWhileItDeletesThem() throws {
        let realm = try directory.realm()
        let kennel = Kennel(value: ["id": 1, "dogs": [["name": "a"], ["name": "b"], ["name": "c"]]])
        let club = Club(value: ["id": 1, "members": [["id": 1], ["id": 2], ["id": 3]]])
        try realm.write {
            realm.add(kennel)
            realm.add(club)
        }
        var met: [String] = []
        try realm.write {
            for dog in kennel.dogs {
                met.append(dog.name)
                realm.delete(dog)
            }
            for member in club.members { realm.delete(member) }
        }
        #expect(met == ["a", "b", "c"])
        #expect(kennel.dogs.isEmpty && realm.objects(Puppy.self).isEmpty)
        #expect(club.members.isEmpty && realm.objects(Owner.self).isEmpty)
        // Linking objects, and any collection wrapped in AnyRealmCollection (RealmSwift's
        // testFastEnumerationWithMutation of both).
        let owner = Owner(value: ["id": 7])
        let second = Kennel(value: ["id": 2, "dogs": [["name": "d"], ["name": "e"], ["name": "f"]]])
        try realm.write {
            realm.add(second)
            for dog in second.dogs { dog.owner = owner }
        }
        try realm.write { for puppy in owner.puppies { realm.delete(puppy) } }
        #expect(owner.puppies.isEmpty && second.dogs.isEmpty)
        try realm.write { second.dogs.append(objectsIn: [Puppy(), Puppy(), Puppy()]) }
        try realm.write { for puppy in AnyRealmCollection(second.dogs) { realm.delete(puppy) } }
        #expect(second.dogs.isEmpty && realm.objects(Puppy.self).isEmpty)
        // Appending while walking meets only what was there when the walk began.
        try realm.write {
            kennel.tags.append(objectsIn: ["x", "y"])
            for tag in kennel.tags { kennel.tags.append(tag + "!") }
        }
        #expect(Array(kennel.tags) == ["x", "y", "x!", "y!"])
        // Outside a write the list cannot change under the loop: it reads in place.
        #expect(kennel.tags.map { $0 } == ["x", "y", "x!", "y!"])
    }

    @Test func aLoopOverAnUnmanagedCollectionMeetsWhatItHeldWhenTheWalkBegan() {
        // RealmSwift's testFastEnumerationWithMutation, on a standalone list: it ended never.
        let list = List<String>()
        list.append(objectsIn: ["1", "2", "1", "2"])
        var met = ""
        for element in list {
            met += element
            list.append("1")
        }
        #expect(met == "1212")
        #expect(list.count == 8)
        let set = MutableSet<Int>()
        set.insert(objectsIn: [1, 2, 3])
        var seen: [Int] = []
        for element in set {
            seen.append(element)
            set.insert(element + 10)
            set.remove(element)
        }
        #expect(seen.sorted() == [1, 2, 3])
        #expect(Set(set) == [11, 12, 13])
    }

    @Test func aRealmNotificationReportsACommitMadeBeforeItsFirstDelivery() throws {
        let configuration = directory.configuration()
        let realm = try Realm(configuration: configuration)
        var changes = 0
        let token = realm.observe { notification, _ in
            if notification == .didChange { changes += 1 }
        }
        onAnotherThread {
            let other = try! Realm(configuration: configuration)
            try! other.write { other.add(Dog()) }
        }
        realm.refresh()
        #expect(changes == 1)
        #expect(realm.objects(Dog.self).count == 1)
        token.invalidate()
    }

    @Test func anyRealmValuesReadThroughKeyValueCodingAreWhatTheyHold() throws {
        let realm = try directory.realm()
        let owner = Owner(value: ["id": 7, "name": "Ann"])
        let bag = Bag(value: ["items": [AnyRealmValue.int(3), .none, .string("x"), .object(owner), .bool(true)]])
        try realm.write {
            realm.add(bag)
            bag.slots["n"] = AnyRealmValue.none  // not `.none`, which is Optional's nil and removes the key
            bag.slots["d"] = .double(2.5)
        }
        for items in [bag.items, Bag(value: ["items": [AnyRealmValue.int(3), .none, .string("x"), .object(owner), .bool(true)]]).items] {
            let values = items.value(forKey: "self")
            #expect(values.count == 5)
            #expect(dynamicBridgeCast(fromObjectiveC: values[0]) as Int == 3)
            #expect(values[1] is NSNull)
            #expect(values[2] as? String == "x")
            #expect((values[3] as? Owner)?.name == "Ann")
            #expect(values[4] as? Bool == true)
        }
        #expect(bag.slots.value(forKey: "n") is NSNull)
        #expect(bag.slots.value(forKey: "d") as? Double == 2.5)
        #expect(bag.slots.value(forKey: "missing") == nil)
    }

    /// A mixed property read by name is what it holds, as RealmSwift reads it: through a
    /// model's subscript and `value(forKey:)` (managed or not), a dynamic object's subscript
    /// and member, a migration's objects, and the values of an object notification.
    @Test func anAnyRealmValuePropertyReadsAsWhatItHolds() throws {
        let configuration = directory.configuration(objectTypes: [Setting.self, Owner.self], schemaVersion: 1)
        try readEveryWay(configuration)
        // A migration's old and new objects (the realm above is closed).
        var migrated = configuration
        migrated.schemaVersion = 2
        let seen = Locked<[String]>([])
        migrated.migrationBlock = { migration, _ in
            migration.enumerateObjects(ofType: "Setting") { old, new in
                seen.withLock { $0.append("\(old!["name"]!)=\(old!["value"] ?? "nil")/\(new!["value"] ?? "nil")") }
            }
        }
        _ = try Realm(configuration: migrated)
        let lines = seen.withLock { $0 }
        #expect(lines.contains("int=six/six") && lines.contains("none=nil/nil") && lines.count == 4, "\(lines)")
    }

    private func readEveryWay(_ configuration: Realm.Configuration) throws {
        let realm = try Realm(configuration: configuration)
        let unmanaged = Setting(value: ["name": "u", "value": AnyRealmValue.string("loose")])
        #expect(unmanaged["value"] as? String == "loose" && unmanaged.value(forKey: "value") as? String == "loose")
        unmanaged.value = .none
        #expect(unmanaged["value"] == nil)
        try realm.write {
            let owner = realm.create(Owner.self, value: ["id": 3, "name": "Ann"])
            realm.create(Setting.self, value: ["name": "int", "value": AnyRealmValue.int(5)])
            realm.create(Setting.self, value: ["name": "none", "value": AnyRealmValue.none])
            realm.create(Setting.self, value: ["name": "owner", "value": AnyRealmValue.object(owner)])
            realm.create(Setting.self, value: ["name": "list", "value": AnyRealmValue.fromArray([.int(1), .string("a")])])
        }
        let int = try #require(realm.object(ofType: Setting.self, forPrimaryKey: "int"))
        #expect(int["value"] as? Int == 5 && int.value(forKey: "value") as? Int == 5)
        #expect(realm.object(ofType: Setting.self, forPrimaryKey: "none")?["value"] == nil)
        #expect((realm.object(ofType: Setting.self, forPrimaryKey: "owner")?["value"] as? Owner)?.name == "Ann")
        let list = try #require(realm.object(ofType: Setting.self, forPrimaryKey: "list")?["value"] as? List<AnyRealmValue>)
        #expect(Array(list) == [.int(1), .string("a")])
        let dynamic = try #require(realm.dynamicObject(ofType: "Setting", forPrimaryKey: "int"))
        #expect(dynamic["value"] as? Int == 5 && dynamic[dynamicMember: "value"] as? Int == 5)
        #expect((realm.dynamicObject(ofType: "Setting", forPrimaryKey: "owner")?["value"] as? Object)?["name"] as? String == "Ann")
        // Setting what was read stores it again unchanged.
        try realm.write { int["value"] = int["value"] }
        #expect(int.value == .int(5))

        // An object notification's values, from a change made on another thread.
        var changes: [PropertyChange] = []
        let token = int.observe { change in if case .change(_, let properties) = change { changes += properties } }
        onAnotherThread {
            let other = try! Realm(configuration: configuration)
            try! other.write { other.object(ofType: Setting.self, forPrimaryKey: "int")!.value = .string("six") }
        }
        realm.refresh()
        token.invalidate()
        #expect(changes.count == 1 && changes.first?.oldValue as? Int == 5 && changes.first?.newValue as? String == "six")
    }

    @Test func aSetCountsThroughItsKeyPathOperators() throws {
        let realm = try directory.realm()
        let club = Club(value: ["id": 1, "languages": ["swift", "c"], "members": [["id": 1, "name": "a"], ["id": 2, "name": "b"]]])
        try realm.write { realm.add(club) }
        #expect(club.languages.value(forKeyPath: "@count") as? Int == 2)
        #expect(club.members.value(forKeyPath: "@max.id") as? Int == 2)
        #expect(club.members.value(forKey: "name").count == 2)
        // Through the collection protocol, a set's values make a set, as RealmSwift's NSSet.
        #expect(club.languages.value(forKey: "self") as Any? as? Set<String> == ["swift", "c"])
        #expect(club.members.value(forKey: "name") as Any? as? Set<String> == ["a", "b"])
        #expect(club.members.value(forKeyPath: "id") as Any? as? Set<Int> == [1, 2])
        let empty = MutableSet<String>()
        #expect(empty.value(forKey: "self") as Any? as? Set<String> == [])
    }

    @Test func anOwnedEmbeddedObjectIsRefusedWithRealmSwiftsMessages() async {
        let list = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let realm = MisuseTests.freshRealm()
            let contact = Contact(value: ["id": 1, "previous": [["street": "A"]]])
            try! realm.write { realm.add(contact) }
            try! realm.write { contact.previous.append(contact.previous[0]) }
        }
        expectMessage(list, "Cannot add an existing managed embedded object to a List.")
        let dictionary = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let realm = MisuseTests.freshRealm()
            let book = AddressBook(value: ["addresses": ["home": ["street": "A"]]])
            try! realm.write { realm.add(book) }
            try! realm.write { book.addresses["work"] = book.addresses["home"]! }
        }
        expectMessage(dictionary, "Cannot add an existing managed embedded object to a Dictionary.")
    }
}
