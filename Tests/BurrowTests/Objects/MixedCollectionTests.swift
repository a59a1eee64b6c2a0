import Burrow
import Foundation
import Testing

/// `List`, `MutableSet` and `Map` properties of `AnyRealmValue`: objects and nested collections
/// as their elements.
@Suite struct MixedCollectionTests {
    let directory = TestDirectory()

    @Test func aListOfAnyRealmValueHoldsObjectsUntilTheyAreDeleted() throws {
        let realm = try directory.realm()
        let bag = Bag(), rex = Dog(value: ["name": "Rex"])
        bag.items.append(objectsIn: [.int(1), .object(rex)])
        try realm.write { realm.add(bag) }
        #expect(realm.objects(Dog.self).count == 1)
        #expect(bag.items[1].object(Dog.self)?.name == "Rex")
        try realm.write { bag.items.append(.object(Dog(value: ["name": "Fido"]))) }
        #expect(realm.objects(Dog.self).count == 2)
        try realm.write { realm.delete(rex) }
        #expect(bag.items.count == 2)
        #expect(bag.items[0] == .int(1))
        #expect(bag.items[1].object(Dog.self)?.name == "Fido")
    }

    @Test func aMapOfAnyRealmValueKeepsTheKeyOfADeletedObject() throws {
        let realm = try directory.realm()
        let bag = Bag(), rex = Dog(value: ["name": "Rex"])
        try realm.write {
            realm.add(bag)
            bag.slots["pet"] = .object(rex)
            bag.slots["n"] = .int(3)
        }
        #expect(bag.slots["pet"]?.object(Dog.self)?.name == "Rex")
        try realm.write { realm.delete(rex) }
        #expect(bag.slots.keys == ["n", "pet"])
        #expect(bag.slots["pet"] == AnyRealmValue.none)
    }

    @Test func aSetOfAnyRealmValueDropsADeletedObject() throws {
        let realm = try directory.realm()
        let bag = Bag(), rex = Dog(value: ["name": "Rex"])
        try realm.write {
            realm.add(bag)
            bag.tags.insert(.object(rex))
            bag.tags.insert(.object(rex))
            bag.tags.insert(.string("x"))
        }
        #expect(bag.tags.count == 2)
        #expect(bag.tags.contains(.object(rex)))
        #expect(!bag.tags.contains(.object(Dog())))
        try realm.write { realm.delete(rex) }
        #expect(Array(bag.tags) == [.string("x")])
    }

    @Test func collectionElementsCanBeLiveNestedCollections() throws {
        let realm = try directory.realm()
        let bag = Bag()
        try realm.write {
            realm.add(bag)
            bag.items.append(.fromArray([.int(1)]))
            bag.slots["doc"] = .fromDictionary(["a": .int(1)])
        }
        try realm.write {
            bag.items[0].listValue?.append(.int(2))
            bag.slots["doc"]?.dictionaryValue?["b"] = .fromArray([.string("x")])
        }
        #expect(bag.items[0].listValue.map(Array.init) == [.int(1), .int(2)])
        #expect(bag.slots["doc"]?.dictionaryValue?["b"]?.listValue?.first == .string("x"))
        let rex = Dog(value: ["name": "Rex"])
        try realm.write { bag.items[0].listValue?.append(.object(rex)) }
        try realm.write { realm.delete(rex) }
        #expect(bag.items.count == 1)
        #expect(bag.items[0].listValue.map(Array.init) == [.int(1), .int(2)])
    }

    @Test func aCollectionInAListElementIsFoundByItsIndex() throws {
        let realm = try directory.realm()
        let bag = Bag()
        try realm.write {
            realm.add(bag)
            bag.items.append(objectsIn: [.fromArray([.int(0)]), .string("end")])
        }
        let inner = try #require(bag.items[0].listValue)
        // Inserting again and again at one place renumbers the list's positions on the way.
        try realm.write { for index in 0..<40 { bag.items.insert(.int(index), at: 1) } }
        try realm.write { inner.append(.int(1)) }
        #expect(bag.items[0].listValue.map(Array.init) == [.int(0), .int(1)])
        #expect(bag.items.last == .string("end"))
        #expect(bag.items.index(of: .object(Dog())) == nil)  // an unmanaged object is in no list
        #expect(bag.items.index(of: .fromArray([.int(0), .int(1)])) == 0)
    }

    @Test func deletingTheOwnerDropsTheBacklinksOfItsElements() throws {
        let realm = try directory.realm()
        let bag = Bag(), rex = Dog(value: ["name": "Rex"])
        bag.items.append(.fromArray([.object(rex)]))
        bag.slots["pet"] = .object(rex)
        bag.tags.insert(.object(rex))
        try realm.write { realm.add(bag) }
        try realm.write { realm.delete(bag) }
        try realm.write { realm.delete(rex) }
        #expect(realm.objects(Dog.self).isEmpty)
        #expect(realm.objects(Bag.self).isEmpty)
    }

    @Test func aSetOfAnyRealmValueRefusesNestedCollections() async {
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let directory = TestDirectory()
            let realm = try! directory.realm()
            let bag = Bag()
            try! realm.write { realm.add(bag) }
            try! realm.write { bag.tags.insert(.fromArray([])) }
        }.map { expectMessage($0, "A MutableSet of AnyRealmValue cannot hold a list or dictionary.") }
    }
}
