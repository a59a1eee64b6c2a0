import Burrow
@testable import LMDB
import Foundation
import Testing

/// Forms RealmSwift's own tests use that generic code and ported tests need: observation with
/// defaults and typed key paths on any collection, references to generic collections, empty
/// sums of `AnyRealmValue`s, and the sort and distinct messages.
@Suite struct RealmSwiftParityTests {
    let directory = TestDirectory()

    /// Generic over the protocol only, as ported tests are.
    func watch<C: RealmCollection>(_ collection: C, into seen: Locked<[String]>) -> NotificationToken {
        collection.observe { change in
            switch change {
            case .initial(let collection): seen.withLock { $0.append("initial \(collection.count)") }
            case .update(let collection, _, let insertions, _): seen.withLock { $0.append("update \(collection.count) \(insertions)") }
            case .error(let error): seen.withLock { $0.append("error \(error)") }
            }
        }
    }

    func reference<C: RealmCollection>(to collection: C) -> ThreadSafeReference<C> { ThreadSafeReference(to: collection) }

    @Test func genericCodeObservesAndHandsOverAnyCollection() throws {
        let realm = try Realm(configuration: directory.configuration(objectTypes: [Dog.self]))
        let seen = Locked<[String]>([])
        let token = watch(realm.objects(Dog.self), into: seen)
        realm.refresh()
        try realm.write { realm.add(Dog(value: ["name": "Rex"])) }
        #expect(seen.withLock { $0 } == ["initial 0", "update 1 [0]"])
        token.invalidate()
        let handed = reference(to: realm.objects(Dog.self).filter("name == 'Rex'"))
        let configuration = realm.configuration
        let count = Locked(0)
        onAnotherThread {
            let other = try! Realm(configuration: configuration)
            count.withLock { $0 = other.resolve(handed)!.count }
        }
        #expect(count.withLock { $0 } == 1)
    }

    @Test func collectionsTakeTypedKeyPaths() throws {
        let realm = try Realm(configuration: directory.configuration(objectTypes: [Dog.self]))
        try realm.write { realm.add(Dog(value: ["name": "Rex", "age": 1])) }
        var modifications: [[Int]] = []
        let token = realm.objects(Dog.self).observe(keyPaths: [\Dog.age]) { change in
            if case .update(_, _, _, let modified) = change { modifications.append(modified) }
        }
        realm.refresh()
        try realm.write { realm.objects(Dog.self).first!.name = "Max" }
        try realm.write { realm.objects(Dog.self).first!.age = 2 }
        #expect(modifications == [[0]])
        withExtendedLifetime(token) {}
    }

    @Test func anEmptySumOfMixedValuesIsRealmSwifts() throws {
        let unmanaged = Bag()
        #expect(unmanaged.items.sum() == .int(0))
        #expect(unmanaged.tags.sum() == .int(0))
        #expect(unmanaged.slots.sum() == .int(0))
        let realm = try Realm(configuration: directory.configuration(objectTypes: [Bag.self]))
        let bag = try realm.write { realm.create(Bag.self) }
        #expect(bag.items.sum().intValue == nil)
        #expect(bag.slots.sum() == .int(0))
        try realm.write {
            bag.items.append(objectsIn: [.int(2), .string("x"), .double(1.5)])
            bag.slots["a"] = .int(4)
        }
        #expect(bag.items.sum() == .double(3.5))
        #expect(bag.slots.sum().intValue == 4 || bag.slots.sum().doubleValue == 4)
    }

    @Test func unknownSortAndDistinctKeyPathsAreNamedAsRealmSwiftNamesThem() throws {
        let realm = try Realm(configuration: directory.configuration(objectTypes: [Dog.self]))
        let dogs = realm.objects(Dog.self)
        #expect(throws: Realm.Error.self) { try dogs.validate(QueryPredicate("TRUEPREDICATE SORT(noSuchCol ASC)")) }
        do {
            try dogs.validate(QueryPredicate("TRUEPREDICATE SORT(noSuchCol ASC)"))
        } catch {
            #expect("\(error)".contains("Cannot sort on key path 'noSuchCol': property 'Dog.noSuchCol' does not exist"))
        }
        do {
            try dogs.validate(QueryPredicate("TRUEPREDICATE DISTINCT(noSuchCol)"))
        } catch {
            #expect("\(error)".contains("Cannot distinct on key path 'noSuchCol': property 'Dog.noSuchCol' does not exist"))
        }
    }
}

extension RealmSwiftParityTests {
    @Test func aggregatesReadAsNSNumber() throws {
        let realm = try Realm(configuration: directory.configuration(objectTypes: [Dog.self]))
        try realm.write { for age in [3, 5, 10] { realm.add(Dog(value: ["age": age])) } }
        let dogs = realm.objects(Dog.self)
        let minimum: NSNumber? = dogs.min(ofProperty: "age")
        let maximum: NSNumber? = dogs.max(ofProperty: "age")
        let total: NSNumber = dogs.sum(ofProperty: "age")
        let mean: NSNumber? = dogs.average(ofProperty: "age")
        #expect(minimum?.intValue == 3 && maximum?.intValue == 10 && total.intValue == 18 && mean?.doubleValue == 6)
        let none: NSNumber? = dogs.filter("age > 100").max(ofProperty: "age")
        #expect(none == nil)
        let generic: NSNumber? = AnyRealmCollection(dogs).min(ofProperty: "age")
        #expect(generic?.intValue == 3)
    }
}

final class ParityOwner: Object {
    @Persisted var name = ""
    @Persisted var friend: Dog?
    @Persisted var pets: Map<String, Dog?>
    @Persisted var pack: MutableSet<Dog>
}

final class ParityOwnerView: Projection<ParityOwner> {
    @Projected(\ParityOwner.name) var name
    @Projected(\ParityOwner.pack.projectTo.description) var packDescriptions: ProjectedCollection<String>

    var initial: String { String(name.prefix(1)) }
}

extension RealmSwiftParityTests {
    @Test func mixedValuesOfDifferentKindsSortAsRealmCoreSortsThem() throws {
        let realm = try Realm(configuration: directory.configuration(objectTypes: [Bag.self]))
        let bag = try realm.write {
            realm.create(Bag.self, value: ["items": [AnyRealmValue.string("apple"), .int(2), .bool(true), .data(Data([1])), .decimal128(123.456), .none]])
        }
        let ascending: [AnyRealmValue] = [.none, .bool(true), .int(2), .decimal128(123.456), .string("apple"), .data(Data([1]))]
        #expect(Array(bag.items.sorted(ascending: true)) == ascending)
        #expect(Array(bag.items.sorted(ascending: false)) == ascending.reversed())
    }

    @Test func distinctLeavesOutObjectsWithAnEmptyLinkOnTheWay() throws {
        let realm = try Realm(configuration: directory.configuration(objectTypes: [ParityOwner.self, Dog.self]))
        try realm.write {
            realm.create(ParityOwner.self, value: ["name": "a", "friend": ["name": "Rex", "age": 3]])
            realm.create(ParityOwner.self, value: ["name": "b", "friend": ["name": "Max", "age": 3]])
            realm.create(ParityOwner.self, value: ["name": "c"])
        }
        #expect(realm.objects(ParityOwner.self).distinct(by: ["friend.age"]).map(\.name) == ["a"])
        #expect(realm.objects(ParityOwner.self).distinct(by: ["name"]).count == 3)
        // Sorting keeps them, after the others ascending and before them descending.
        #expect(realm.objects(ParityOwner.self).sorted(byKeyPath: "friend.name").map(\.name) == ["b", "a", "c"])
        #expect(realm.objects(ParityOwner.self).sorted(byKeyPath: "friend.name", ascending: false).map(\.name) == ["c", "a", "b"])
    }

    @Test func setsAnswerKeyValueReadsWithDistinctValues() throws {
        let realm = try Realm(configuration: directory.configuration(objectTypes: [ParityOwner.self, Dog.self]))
        let owner = try realm.write {
            realm.create(ParityOwner.self, value: ["pack": [["name": "Rex", "age": 3], ["name": "Max", "age": 3], ["name": "Ida", "age": 4]]])
        }
        #expect(owner.pack.value(forKey: "age").compactMap { $0 as? Int }.sorted() == [3, 4])
        #expect(owner.pack.value(forKey: "name").count == 3)
    }

    @Test func aMapTakesAMapOfOtherOptionality() throws {
        let realm = try Realm(configuration: directory.configuration(objectTypes: [ParityOwner.self, Dog.self]))
        let pets = Map<String, Dog>()
        pets["rex"] = Dog(value: ["name": "Rex", "age": 3])
        let owner = ParityOwner()
        owner["pets"] = pets
        try realm.write { realm.add(owner) }
        #expect(owner.pets["rex"]??.name == "Rex")
        #expect(owner.pets.max(of: \.age) == 3)
        let copy = ParityOwner()
        copy["pets"] = owner.pets
        #expect(copy.pets["rex"]??.age == 3)
    }

    @Test func projectionsSectionByTheirOwnKeyPathsAndProjectComputedValues() throws {
        let realm = try Realm(configuration: directory.configuration(objectTypes: [ParityOwner.self, Dog.self]))
        try realm.write {
            for name in ["bo", "al", "bea"] { realm.create(ParityOwner.self, value: ["name": name, "pack": [["name": "x"]]]) }
        }
        let views = realm.objects(ParityOwnerView.self)
        let sections = views.sectioned(by: \.initial, ascending: true)
        #expect(sections.allKeys == ["a", "b"])
        #expect(sections[1].map(\.name) == ["bea", "bo"])
        #expect(views.sectioned(by: \.name, sortDescriptors: [SortDescriptor(keyPath: "name", ascending: false)]).allKeys == ["bo", "bea", "al"])
        #expect(views.first!.packDescriptions.first?.hasPrefix("Dog {") == true)
    }
}

extension RealmSwiftParityTests {
    @Test func anyManagedObjectReadsItsCollectionsDynamically() throws {
        let realm = try Realm(configuration: directory.configuration(objectTypes: [ParityOwner.self, Dog.self, Bag.self]))
        let (owner, bag) = try realm.write {
            let owner = realm.create(ParityOwner.self, value: ["name": "Ann", "pack": [["name": "Rex"], ["name": "Max"]], "pets": ["rex": ["name": "Rex"]]])
            return (owner, realm.create(Bag.self, value: ["items": [AnyRealmValue.object(owner)]]))
        }
        #expect(owner.dynamicMutableSet("pack").count == 2)
        #expect(owner.dynamicMap("pets")["rex"]??["name"] as? String == "Rex")
        let dynamicOwner = try #require(bag.items[0].dynamicObject)
        #expect(dynamicOwner["name"] as? String == "Ann")
        #expect(dynamicOwner.value(forUndefinedKey: "name") as? String == "Ann")
        try realm.write { dynamicOwner.setValue("Bo", forUndefinedKey: "name") }
        #expect(owner.name == "Bo")
        #expect(AnyRealmValue.int(3).dynamicObject == nil)
    }
}

extension RealmSwiftParityTests {
    @Test func schemasDescribeThemselvesAsRealmSwiftDoes() throws {
        let realm = try Realm(configuration: directory.configuration(objectTypes: [Station.self]))
        let schema = try #require(realm.schema["Station"])
        #expect(schema.description.hasPrefix("Station {\n\tcode {\n\t\ttype = string;\n\t\tcolumnName = code;\n\t\tindexed = YES;\n\t\tisPrimary = YES;"))
        #expect(schema.description.contains("\tname {\n\t\ttype = string;\n\t\tcolumnName = station_name;\n\t\tindexed = YES;\n\t\tisPrimary = NO;\n\t\tarray = NO;\n\t\tset = NO;\n\t\tdictionary = NO;\n\t\toptional = NO;\n\t}"))
        #expect(schema.description.contains("\triders {\n\t\ttype = int;\n\t\tcolumnName = daily_riders;\n\t\tindexed = NO;\n\t\tisPrimary = NO;\n\t\tarray = YES;"))
        let link = try #require(Realm(configuration: directory.configuration("links.realm", objectTypes: [ParityOwner.self, Dog.self])).schema["ParityOwner"]?["friend"])
        #expect(link.description == "friend {\n\ttype = object;\n\tobjectClassName = Dog;\n\tlinkOriginPropertyName = (null);\n\tcolumnName = friend;\n\tindexed = NO;\n\tisPrimary = NO;\n\tarray = NO;\n\tset = NO;\n\tdictionary = NO;\n\toptional = YES;\n}")
    }
}
