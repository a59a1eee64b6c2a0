import Burrow
import Foundation
import Testing

/// A model that declares Codable itself, as RealmSwift models do.
final class CodablePet: Object, Codable {
    @Persisted var name = ""
    @Persisted var mood = Mood.calm
    @Persisted var tags: List<String>
    @Persisted var owner: Owner?
    @Persisted var extra: AnyRealmValue
}

extension Mood: Codable {}

@Suite struct ParityTests {
    let directory = TestDirectory()

    @Test func listsAreRangeReplaceable() throws {
        let realm = try directory.realm()
        let kennel = Kennel(value: ["id": 1, "tags": ["a", "b", "c", "d", "e"]])
        let unmanaged = List<String>()
        unmanaged.append(objectsIn: ["a", "b", "c", "d", "e"])
        try realm.write { realm.add(kennel) }
        for case var list in [unmanaged, kennel.tags] {
            try realm.write {
                list.replaceSubrange(1..<3, with: ["x"])
                list.removeLast(1)
                list.insert(contentsOf: ["y", "z"], at: 0)
                list.removeFirst(1)
                list.append(contentsOf: ["q"])
                list.removeSubrange(0..<1)
                list.move(fromOffsets: IndexSet([0]), toOffset: 3)
                list.remove(atOffsets: IndexSet([1]))
                list.sort()
                list.reverse()
            }
            #expect(Array(list) == ["x", "q", "a"])
        }
        #expect(kennel.tags.firstIndex(of: "q") == 1)
        try realm.write { kennel.tags.replaceSubrange(0..., with: ["only"]) }
        #expect(Array(kennel.tags) == ["only"])
        // A range assigned any number of elements, as RealmSwift's ListRRCMethodsTests do;
        // a slice of the list itself too.
        let other = List<String>()
        other.append(objectsIn: ["p", "q", "r"])
        try realm.write {
            kennel.tags.append(objectsIn: ["b", "c", "d"])
            kennel.tags[1..<4] = other[0..<2]
        }
        #expect(Array(kennel.tags) == ["only", "p", "q"])
        other[0..<1] = other[1...]
        #expect(Array(other) == ["q", "r", "q", "r"])
    }

    @Test func replacingAnOutOfRangeSubrangeTraps() async {
        await #expect(processExitsWith: .failure) {
            let list = List<Int>()
            list.append(1)
            list.replaceSubrange(0..<3, with: [2])
        }
        await #expect(processExitsWith: .failure) {
            let list = List<Int>()
            list.removeLast(1)
        }
    }

    @Test func objectsReadAndWriteByKey() throws {
        let realm = try directory.realm()
        let owner = Owner(value: ["id": 1, "name": "Ann"])
        let puppy = Puppy(value: ["name": "rex", "age": 2])
        puppy.owner = owner
        try realm.write { realm.add(puppy) }
        #expect(puppy.value(forKey: "name") as? String == "rex")
        #expect(puppy.value(forKeyPath: "owner.name") as? String == "Ann")
        #expect(Puppy().value(forKeyPath: "owner.name") == nil)
        try realm.write { puppy.setValue(5, forKey: "age") }
        #expect(puppy.age == 5)
        try realm.write {
            puppy.setValue("Bea", forKeyPath: "owner.name")
            puppy.setValue(6, forKeyPath: "age")
        }
        #expect(owner.name == "Bea" && puppy.age == 6)
        let stray = Puppy()
        stray.setValue("Cy", forKeyPath: "owner.name")
        #expect(stray.owner == nil)
        // A puppy has no primary key: it equals only itself, as in RealmSwift.
        #expect(puppy.isEqual(puppy) && !puppy.isEqual(realm.objects(Puppy.self).first) && !puppy.isEqual(stray) && !puppy.isEqual("rex"))
        #expect(puppy.isSameObject(as: realm.objects(Puppy.self).first))
        #expect(Puppy.sharedSchema()?.properties.map(\.name) == puppy.objectSchema.properties.map(\.name))
        let types: [ObjectBase.Type] = [Puppy.self, Owner.self]
        #expect(types.sorted { $0.className() < $1.className() }.map { $0.className() } == ["Owner", "Puppy"])
    }

    /// RealmSwift's rule: an object of a class with a primary key, or of a frozen realm, equals
    /// every accessor of its row (and hashes alike); any other object equals only itself.
    @Test func equalityIsByRowWithAPrimaryKeyOrFrozenAndByInstanceOtherwise() throws {
        let realm = try directory.realm()
        let kennel = Kennel(value: ["id": 1, "dogs": [["name": "rex"], ["name": "bo"]]])
        try realm.write { realm.add(kennel) }
        let again = try #require(realm.object(ofType: Kennel.self, forPrimaryKey: 1))
        #expect(again !== kennel && again == kennel && Set([again, kennel]).count == 1)
        let rex = kennel.dogs[0], rexAgain = kennel.dogs[0]
        #expect(rex !== rexAgain && rex != rexAgain && rex == rex && rex.isSameObject(as: rexAgain))
        #expect(Set([rex, rexAgain]).count == 2)
        // Lookups in collections compare stored objects, whatever `==` says.
        #expect(kennel.dogs.index(of: rexAgain) == 0 && realm.objects(Puppy.self).index(of: rexAgain) != nil)
        #expect(kennel.dogs.contains(rexAgain) == false && kennel.dogs.contains { $0.isSameObject(as: rexAgain) })
        let frozen = kennel.freeze()
        let frozenRex = frozen.dogs[0], frozenRexAgain = frozen.dogs[0]
        #expect(frozenRex == frozenRexAgain && Set([frozenRex, frozenRexAgain]).count == 1)
        #expect(frozenRex != rex)
        // Unmanaged objects are themselves only, with or without a primary key.
        #expect(Owner(value: ["id": 5]) != Owner(value: ["id": 5]) && Puppy() != Puppy())
        let club = Club(value: ["id": 1, "members": [["id": 1], ["id": 2]]])
        try realm.write { realm.add(club) }
        let member = try #require(realm.object(ofType: Owner.self, forPrimaryKey: 2))
        #expect(club.members.index(of: member) != nil && club.members.contains(member))
    }

    @Test func classMethodsNameKeysIndexesIgnoredAndColumnNames() throws {
        let realm = try directory.realm()
        let station = Station(value: ["code": "OSL", "name": "Oslo S", "riders": [1, 2]])
        station.scratch = 7
        try realm.write { realm.add(station) }
        let schema = try #require(realm.fileSchema["Station"])
        #expect(schema.primaryKeyProperty?.name == "code")
        #expect(schema["name"]?.isIndexed == true && schema["name"]?.columnName == "station_name")
        #expect(schema["riders"]?.columnName == "daily_riders" && schema["code"]?.columnName == "code")
        #expect(schema["scratch"] == nil)
        // Ignored: the value stays in the object.
        #expect(station.scratch == 7)
        #expect(realm.object(ofType: Station.self, forPrimaryKey: "OSL")?.scratch == 0)
        // Queries and key-value access use the property names.
        #expect(realm.objects(Station.self).filter("name == 'Oslo S'").count == 1)
        #expect(realm.objects(Station.self).where { $0.name == "Oslo S" }.first?.riders.count == 2)
        try realm.write { realm.add(Station(value: ["code": "OSL", "name": "Oslo"]), update: .modified) }
        #expect(realm.objects(Station.self).count == 1 && station.name == "Oslo")
    }

    @Test func aPrimaryKeyNamingNoPropertyTraps() async {
        await #expect(processExitsWith: .failure) {
            // Declared here, so that the program's schema does not hold an invalid class.
            final class MisnamedKey: Object {
                @Persisted var code = ""
                override class func primaryKey() -> String? { "id" }
            }
            _ = MisnamedKey().objectSchema
        }
        // The key a class method names is unique like any other.
        await #expect(processExitsWith: .failure) {
            let directory = TestDirectory()
            let realm = try! directory.realm()
            try! realm.write {
                realm.add(Station(value: ["code": "OSL"]))
                realm.add(Station(value: ["code": "OSL"]))
            }
        }
    }

    @Test func valuesMayBeOptionalsCollectionsOrResults() throws {
        let realm = try directory.realm()
        try realm.write {
            realm.add(Puppy(value: ["name": "rex", "age": 2]))
            realm.add(Puppy(value: ["name": "bo", "age": 1]))
        }
        let tags: List<String>? = { let list = List<String>(); list.append(objectsIn: ["a", "b"]); return list }()
        let name: String? = "Ark"
        let kennel = Kennel(value: ["id": 1, "name": name as Any, "tags": tags as Any, "dogs": realm.objects(Puppy.self).sorted(byKeyPath: "name")])
        #expect(Array(kennel.tags) == ["a", "b"] && kennel.name == "Ark")
        #expect(kennel.dogs.map(\.name) == ["bo", "rex"])
        try realm.write { realm.add(kennel) }
        #expect(realm.objects(Puppy.self).count == 2 && kennel.dogs.count == 2)
    }

    @Test func datesAndUUIDsDefaultToNowAndNew() {
        let before = Date()
        let first = Stamp(), second = Stamp()
        #expect(first.at >= before && first.at <= Date())
        #expect(first.id != second.id)
        // An array lists the stored properties: the linking objects between them take no slot.
        let filled = Stamp(value: [Date(timeIntervalSince1970: 5), UUID(uuidString: "00000000-0000-0000-0000-000000000001")!, "hi"])
        #expect(filled.note == "hi" && filled.at == Date(timeIntervalSince1970: 5))
    }

    @Test func sortDescriptorsPrintAndBuildAsRealmSwifts() throws {
        #expect(SortDescriptor(keyPath: "age", ascending: false).description == "SortDescriptor(keyPath: age, direction: descending)")
        let literal: Burrow.SortDescriptor = "name"
        #expect(literal == SortDescriptor(keyPath: "name"))
        #expect(SortDescriptor(keyPath: \Puppy.age).keyPath == "age")
        let realm = try directory.realm()
        try realm.write {
            realm.add(Puppy(value: ["name": "b", "age": 1]))
            realm.add(Puppy(value: ["name": "a", "age": 1]))
        }
        #expect(realm.objects(Puppy.self).sorted(by: ["name"]).map(\.name) == ["a", "b"])
    }

    @Test func objectsDecodeFromWhatTheyEncode() throws {
        let realm = try directory.realm()
        let pet = CodablePet(value: ["name": "rex", "mood": Mood.excited, "tags": ["a", "b"], "extra": AnyRealmValue.int(4)])
        pet.owner = Owner(value: ["id": 9, "name": "Ann"])
        try realm.write { realm.add(pet) }
        let data = try JSONEncoder().encode(pet)
        let decoded = try JSONDecoder().decode(CodablePet.self, from: data)
        #expect(decoded.realm == nil)
        #expect(decoded.name == "rex" && decoded.mood == .excited)
        #expect(Array(decoded.tags) == ["a", "b"])
        #expect(decoded.owner?.name == "Ann" && decoded.owner?.id == 9)
        #expect(decoded.extra == .int(4))
        // Its owner is already stored: linked to the stored one, it is added once.
        decoded.owner = realm.object(ofType: Owner.self, forPrimaryKey: 9)
        try realm.write { realm.add(decoded) }
        #expect(realm.objects(CodablePet.self).count == 2)
        #expect(realm.objects(Owner.self).count == 1)
        // Missing keys and nulls keep the defaults; a value of the wrong type throws.
        let sparse = try JSONDecoder().decode(Puppy.self, from: Data(#"{"name": "bo", "owner": null}"#.utf8))
        #expect(sparse.name == "bo" && sparse.age == 0 && sparse.owner == nil)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Puppy.self, from: Data(#"{"age": "old"}"#.utf8)) }
        let mixed = try JSONDecoder().decode([AnyRealmValue].self, from: Data(#"[null, true, 3, 2.5, "s", [1], {"k": 1}]"#.utf8))
        #expect(mixed.count == 7 && mixed[0] == .none && mixed[1] == .bool(true) && mixed[2] == .int(3) && mixed[3] == .double(2.5))
        #expect(mixed[5].listValue.map(Array.init) == [.int(1)])
        #expect(mixed[6].dictionaryValue?["k"] == .int(1))
        let ledger = try JSONDecoder().decode(Ledger.self, from: Data(#"{"id": 3, "scores": {"a": 1}}"#.utf8))
        #expect(ledger.scores["a"] == 1)
    }
}

@Suite struct CreateThroughABaseMetatypeTests {
    let directory = TestDirectory()

    @Test func createMakesTheClassGivenNotTheStaticType() throws {
        // RealmSwift's testCreateOrUpdateWithMismatchedStaticAndDynamicTypes: `T` is `Object`,
        // the class passed is `Person` (making a `T` wrote Person's fields past an `Object`).
        let realm = try directory.realm()
        let model: Object = Person(value: ["id": 3, "name": "Ana"])
        try realm.write {
            let created = realm.create(type(of: model), value: model)
            #expect(created.objectSchema.className == "Person")
            #expect((created as? Person)?.name == "Ana")
            let updated = realm.create(type(of: model), value: ["id": 3, "name": "Bo"], update: .all)
            #expect(updated.objectSchema.className == "Person")
            #expect((updated as? Person)?.name == "Bo")
        }
        #expect(realm.objects(Person.self).map(\.name) == ["Bo"])
    }
}

/// `AnyRealmValue`s declared indexed, as RealmSwift's models may through
/// `indexedProperties()` (`@Persisted(indexed: true)` refuses them there, and here).
final class IndexedMixed: Object {
    @Persisted var value: AnyRealmValue
    @Persisted var other: AnyRealmValue
    override class func indexedProperties() -> [String] { ["value", "other"] }
}

@Suite struct CreateCopiesTests {
    let directory = TestDirectory()

    @Test func createCopiesTheUnmanagedObjectsItIsGiven() throws {
        // RealmSwift's testCreateWithNestedObjects: "standalone object should be copied into
        // the realm, not added directly".
        let realm = try directory.realm()
        let puppy = Puppy(value: ["name": "Rex"])
        let owner = Owner(value: ["id": 9, "name": "Ola"])
        let kennel = try realm.write { realm.create(Kennel.self, value: ["id": 1, "dogs": [puppy]]) }
        let copied = try realm.write { realm.create(Puppy.self, value: ["name": "Lou", "owner": owner]) }
        #expect(puppy.realm == nil && owner.realm == nil)
        #expect(kennel.dogs.map(\.name) == ["Rex"] && !kennel.dogs[0].isSameObject(as: puppy))
        #expect(copied.owner?.name == "Ola" && copied.owner?.realm == realm)
        // A cycle of unmanaged objects: each is copied once, and the link back leads to the
        // object made.
        let ana = Owner(value: ["id": 1, "name": "Ana"]), bo = Owner(value: ["id": 2, "name": "Bo"])
        ana.partner = bo
        bo.partner = ana
        let created = try realm.write { realm.create(Owner.self, value: ana) }
        #expect(ana.realm == nil && bo.realm == nil)
        #expect(created.partner?.name == "Bo" && created.partner?.partner?.isSameObject(as: created) == true)
        #expect(realm.objects(Owner.self).count == 3)
    }
}

@Suite struct IndexedAnyRealmValueTests {
    let directory = TestDirectory()

    @Test func anAnyRealmValuePropertyMayBeIndexedAndItsEqualityComparesAcrossKinds() throws {
        // RealmSwift's SwiftIndexedPropertiesObject lists its AnyRealmValue in
        // indexedProperties(); Burrow trapped at schema discovery.
        let realm = try Realm(configuration: directory.configuration(objectTypes: [IndexedMixed.self]))
        let properties = try #require(realm.schema["IndexedMixed"]).properties
        #expect(properties.map(\.isIndexed) == [true, true])
        let values: [AnyRealmValue] = [.int(5), .double(5.0), .string("5"), .none]
        try realm.write {
            for value in values { realm.add(IndexedMixed(value: ["value": value, "other": value])) }
        }
        let objects = realm.objects(IndexedMixed.self)
        #expect(objects.filter("value == 5").count == 2)
        #expect(objects.filter("other == 5.0").count == 2)
        #expect(objects.filter("value == '5'").count == 1)
        #expect(objects.where { $0.value == .string("5") }.count == 1)
        #expect(objects.filter("value == nil").count == 1)
    }
}

@Suite struct AddingKeepsHandlesTests {
    let directory = TestDirectory()

    @Test func updatingReplacesEmbeddedObjectsInPlace() throws {
        let realm = try directory.realm()
        try realm.write {
            realm.add(Contact(value: ["id": 1, "address": ["street": "a", "city": "x", "geo": ["latitude": 1.0]]]))
        }
        let contact = try #require(realm.object(ofType: Contact.self, forPrimaryKey: 1))
        let address = try #require(contact.address)
        let geo = try #require(address.geo)
        try realm.write {
            realm.add(Contact(value: ["id": 1, "address": ["street": "b", "city": "y", "geo": ["latitude": 2.0]]]), update: .modified)
        }
        #expect(!address.isInvalidated && !geo.isInvalidated)
        #expect(address.street == "b" && address.city == "y" && geo.latitude == 2)
        #expect(contact.address?.isSameObject(as: address) == true)
        // A new embedded object where there was none, then none where there was one.
        try realm.write { realm.add(Contact(value: ["id": 2]), update: .modified) }
        try realm.write { realm.add(Contact(value: ["id": 2, "address": ["street": "c"]]), update: .all) }
        #expect(realm.object(ofType: Contact.self, forPrimaryKey: 2)?.address?.street == "c")
        try realm.write { realm.add(Contact(value: ["id": 1]), update: .modified) }
        #expect(contact.address == nil)
        #expect(address.isInvalidated && geo.isInvalidated)
    }

    @Test func addingKeepsTheCollectionsItsObjectHeld() throws {
        let realm = try directory.realm()
        let kennel = Kennel(value: ["id": 1, "tags": ["a"], "dogs": [["name": "rex"]]])
        let tags = kennel.tags, dogs = kennel.dogs
        let club = Club(value: ["id": 1, "languages": ["swift"]])
        let languages = club.languages
        let ledger = Ledger(value: ["id": 1, "scores": ["x": 1]])
        let scores = ledger.scores
        try realm.write {
            realm.add(kennel)
            realm.add(club)
            realm.add(ledger)
        }
        #expect(tags.realm == realm && dogs.realm == realm && languages.realm == realm && scores.realm == realm)
        #expect(tags === kennel.tags && dogs === kennel.dogs && languages === club.languages && scores === ledger.scores)
        try realm.write {
            tags.append("b")
            languages.insert("c")
            scores["y"] = 2
        }
        #expect(Array(realm.object(ofType: Kennel.self, forPrimaryKey: 1)!.tags) == ["a", "b"])
        #expect(realm.object(ofType: Club.self, forPrimaryKey: 1)!.languages.count == 2)
        #expect(realm.object(ofType: Ledger.self, forPrimaryKey: 1)!.scores.count == 2)
        #expect(Array(dogs).map(\.name) == ["rex"])
    }
}

@Suite struct RealmContentsTests {
    let directory = TestDirectory()

    @Test func aRealmIsEmptyUntilItHoldsAnObject() throws {
        let realm = try directory.realm()
        #expect(realm.isEmpty)
        try realm.write { realm.add(Dog(value: ["name": "a"])) }
        #expect(!realm.isEmpty)
        try realm.write { realm.deleteAll() }
        #expect(realm.isEmpty)
        #expect(realm.fileSchema["Dog"]?["name"]?.columnName == "name")
    }

    @Test func declaredClassesAndWhatTheyLinkToAreTheSchemaAtOpen() throws {
        let realm = try Realm(configuration: directory.configuration(objectTypes: [Kennel.self]))
        #expect(Set(realm.schema.objectSchema.map(\.className)) == ["Kennel", "Puppy", "Owner"])
        #expect(realm.isEmpty)
        #expect(realm.schema["Puppy"]?.computedProperties.map(\.name) == ["kennels"])
        // A read-only open of a file that lacks a declared class creates nothing: the class is
        // in the schema, and reading it finds no objects.
        let other = directory.configuration("second.realm")
        do { _ = try Realm(configuration: other) }
        let readOnly = directory.configuration("second.realm", objectTypes: [Dog.self], readOnly: true)
        let reader = try Realm(configuration: readOnly)
        #expect(reader.schema["Dog"]?.properties.map(\.name) == ["name", "age"])
        #expect(reader.internals.table("Dog") == nil)
        #expect(reader.objects(Dog.self).isEmpty)
    }
}

@Suite struct SchemaDiscoveryNamesTests {
    @Test func typesDescribeThemselvesAsRealmSwiftsDo() {
        #expect(Int._rlmType == .int && !Int._rlmOptional)
        #expect(Int?._rlmType == .int && Int?._rlmOptional)
        #expect(Decimal128._rlmType == .decimal128)
        #expect(List<String>._rlmType == .string)
        #expect(Puppy?._rlmType == .object)
        #expect(LinkingObjects<Puppy>._rlmType == .linkingObjects)
        #expect(AnyRealmValue._rlmType == .any)
        #expect(!String._rlmRequireObjc)
        #expect(_name(for: \Puppy.age) == "age")
        #expect(_name(for: \Owner.puppies) == "puppies")
    }

    @Test func keyPathsThroughCollectionSubscriptsNameTheElementsProperties() {
        // RealmSwift's KeyPathTests: `[0]` and `[key]` read on into the elements.
        #expect(_name(for: \Kennel.dogs[0].name) == "dogs.name")
        #expect(_name(for: \Kennel.dogs[0].owner) == "dogs.owner")
        #expect(_name(for: \Kennel.dogs[0].owner?.puppies) == "dogs.owner.puppies")
        #expect(_name(for: \Kennel.dogs[0].owner?.puppies[0].age) == "dogs.owner.puppies.age")
        #expect(_name(for: \Kennel.tags[0]) == "tags")
        #expect(_name(for: \Owner.puppies[0].kennels[0].name) == "puppies.kennels.name")
        #expect(_name(for: \Club.members[0].partner?.name) == "members.partner.name")
        #expect(_name(for: \Club.languages[0]) == "languages")
        #expect(_name(for: \Ledger.pets[""]??.name) == "pets.name")
        #expect(_name(for: \Ledger.pets["any key"]??.owner?.puppies[0].age) == "pets.owner.puppies.age")
        #expect(_name(for: \Ledger.scores["x"]) == "scores")
    }

    @Test func aCustomTypeStoredAsAnObjectIsNamedAsItsProperty() {
        // RealmSwift's testCustomTypes: the object under the custom type is not read on.
        #expect(_name(for: \ReportCard.final) == "final")
        #expect(_name(for: \ReportCard.midterm) == "midterm")
        #expect(_name(for: \ReportCard.quizzes) == "quizzes")
        #expect(_name(for: \ReportCard.retakes) == "retakes")
    }
}

@Suite struct EnumQueryTests {
    let directory = TestDirectory()

    @Test func enumsAreQueriedByTheirRawValues() throws {
        let realm = try directory.realm()
        try realm.write {
            realm.add(Moods(value: ["current": Mood.excited, "previous": Mood.calm, "history": [Level.low, Level.high]]))
            realm.add(Moods(value: ["current": Mood.calm, "history": [Level.low]]))
        }
        let moods = realm.objects(Moods.self)
        #expect(moods.where { $0.current.rawValue == "excited" }.count == 1)
        #expect(moods.where { $0.current == .calm }.count == 1)
        #expect(moods.where { $0.previous.rawValue == nil }.count == 1)
        #expect(moods.where { $0.previous.rawValue == "calm" }.count == 1)
        #expect(moods.where { $0.history.rawValue.contains(9) }.count == 1)
        #expect(moods.where { $0.history.rawValue.max == 9 }.count == 1)
        #expect(moods.where { $0.history.rawValue.contains(1...9) }.count == 2)
        #expect(moods.where { $0.history.rawValue.contains(1..<9) }.count == 1)
        #expect(moods.where { $0.history.rawValue.contains(2...9) }.count == 0)
        #expect(moods.where { $0.history.contains(.low) }.count == 2)
        #expect(Array(moods.filter("current == 'calm'").first!.history) == [.low])
        #expect(moods.where { $0.current > .calm }.count == 1)
    }
}
