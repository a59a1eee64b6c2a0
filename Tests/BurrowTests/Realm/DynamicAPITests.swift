import Burrow
import Foundation
import Testing

private final class Breeder: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted(indexed: true) var name = ""
    @Persisted var rating: Double?
    @Persisted var hounds: List<Hound>
    @Persisted var favourite: Hound?
    @Persisted var tags: MutableSet<String>
    @Persisted var scores: Map<String, Int>
    @Persisted var nicknames: List<String?>
    @Persisted var address: BreederAddress?
    @Persisted var extra: AnyRealmValue
}

private final class Hound: Object {
    @Persisted(indexed: true) var name = ""
    @Persisted var age = 3
    @Persisted var born: Date?
}

private final class BreederAddress: EmbeddedObject {
    @Persisted var city = ""
}

/// The dynamic API: classes read, queried and written by the names the file stores, as a tool
/// that knows the schema only from the file does.
@Suite struct DynamicAPITests {
    let directory = TestDirectory()
    private let types: [ObjectBase.Type] = [Breeder.self, Hound.self, BreederAddress.self]

    /// A file written through the model classes: two breeders, three hounds.
    private func writeKennel() throws {
        let realm = try Realm(configuration: directory.configuration(objectTypes: types))
        try realm.write {
            let rex = Hound(value: ["name": "Rex", "age": 5, "born": Date(timeIntervalSince1970: 86_400)])
            let ida = Hound(value: ["name": "Ida", "age": 1])
            let breeder = Breeder(value: ["id": 1, "name": "Ann", "rating": 4.5, "hounds": [rex, ida], "favourite": rex,
                                          "tags": ["calm", "old"], "scores": ["agility": 7], "nicknames": ["R", nil],
                                          "address": ["city": "Zürich"], "extra": AnyRealmValue.string("note")])
            realm.add(breeder)
            realm.add(Breeder(value: ["id": 2, "name": "Bo", "hounds": [Hound(value: ["name": "Max", "age": 9])]]))
        }
    }

    /// The file opened with no model classes: what the schema is comes from the file alone.
    private func openByName() throws -> Realm {
        try Realm(configuration: directory.configuration(objectTypes: []))
    }

    @Test func everyPropertyKindReadsByName() throws {
        try writeKennel()
        let realm = try openByName()
        let ann = try #require(realm.dynamicObject(ofType: "Breeder", forPrimaryKey: 1))
        #expect(ann["name"] as? String == "Ann")
        #expect(ann.rating as? Double == 4.5)
        #expect(ann["id"] as? Int == 1)
        let favourite = try #require(ann["favourite"] as? DynamicObject)
        #expect(favourite["name"] as? String == "Rex")
        #expect(favourite["born"] as? Date == Date(timeIntervalSince1970: 86_400))
        let hounds = try #require(ann["hounds"] as? List<DynamicObject>)
        #expect(hounds.map { $0["name"] as! String } == ["Rex", "Ida"])
        // Hounds have no primary key: two accessors of one are the same object, not equal.
        #expect(hounds[0].isSameObject(as: favourite) && hounds[0] != favourite)
        #expect(Set(try #require(ann["tags"] as? MutableSet<String>)) == ["calm", "old"])
        #expect(try #require(ann["scores"] as? Map<String, Int>)["agility"] == 7)
        #expect(Array(try #require(ann["nicknames"] as? List<String?>)) == ["R", nil])
        #expect((ann["address"] as? DynamicObject)?["city"] as? String == "Zürich")
        // An AnyRealmValue reads as what it holds, as RealmSwift's dynamic accessors read it.
        #expect(ann["extra"] as? String == "note")
        #expect(ann.objectSchema.properties.map(\.name).contains("hounds"))
        #expect(ann.objectSchema.className == "Breeder")
        let bo = try #require(realm.dynamicObject(ofType: "Breeder", forPrimaryKey: 2))
        #expect(bo["rating"] == nil)
        #expect(bo["favourite"] as? DynamicObject == nil)
        #expect(realm.dynamicObject(ofType: "Breeder", forPrimaryKey: 99) == nil)
    }

    @Test func dynamicResultsQuerySortAndAggregate() throws {
        try writeKennel()
        let realm = try openByName()
        let hounds = realm.dynamicObjects("Hound")
        #expect(hounds.count == 3)
        let sorted = hounds.sorted(byKeyPath: "age", ascending: false)
        #expect(sorted.map { $0["name"] as! String } == ["Max", "Rex", "Ida"])
        #expect(hounds.filter("age > %@", 2).count == 2)
        #expect(hounds.filter("name == 'Ida'").first?["age"] as? Int == 1)
        #expect(hounds.filter("name BEGINSWITH 'R' OR age > 8").sorted(byKeyPath: "name").map { $0["name"] as! String } == ["Max", "Rex"])
        #expect(hounds.max(ofProperty: "age") as Int? == 9)
        #expect(hounds.sum(ofProperty: "age") as Int == 15)
        let owners = realm.dynamicObjects("Breeder").filter("ANY hounds.name == 'Max'")
        #expect(owners.map { $0["name"] as! String } == ["Bo"])
        let ann = try #require(realm.dynamicObject(ofType: "Breeder", forPrimaryKey: 1))
        let young = ann.dynamicList("hounds").filter("age < 3")
        #expect(young.map { $0["name"] as! String } == ["Ida"])
        #expect(sorted.index(of: try #require(young.first)) == 2)
    }

    @Test func createUpdateAndDeleteByName() throws {
        try writeKennel()
        let realm = try openByName()
        try realm.write {
            let cy = realm.dynamicCreate("Breeder", value: ["id": 3, "name": "Cy", "hounds": [["name": "Fido", "age": 2]],
                                                             "tags": ["new"], "scores": ["speed": 4], "address": ["city": "Oslo"]])
            #expect(cy.dynamicList("hounds").first?["name"] as? String == "Fido")
            // An existing hound joins by reference; a new one is created from its values.
            let rex = try #require(realm.dynamicObjects("Hound").filter("name == 'Rex'").first)
            cy["favourite"] = rex
            cy.dynamicList("hounds").append(rex)
            cy["hounds"] = [rex, ["name": "Pip", "age": 0]]
            cy["nicknames"] = ["C", nil, "Cee"]
            cy.rating = 2.5
            realm.dynamicCreate("Breeder", value: ["id": 2, "rating": 3.0], update: .modified)
        }
        let cy = try #require(realm.dynamicObject(ofType: "Breeder", forPrimaryKey: 3))
        #expect(cy.dynamicList("hounds").map { $0["name"] as! String } == ["Rex", "Pip"])
        #expect((cy["favourite"] as? DynamicObject)?["name"] as? String == "Rex")
        #expect(Array(cy["nicknames"] as! List<String?>) == ["C", nil, "Cee"])
        #expect((cy["address"] as? DynamicObject)?["city"] as? String == "Oslo")
        #expect(realm.dynamicObjects("Hound").count == 5)
        // An update writes only the properties it is given.
        let bo = try #require(realm.dynamicObject(ofType: "Breeder", forPrimaryKey: 2))
        #expect(bo["name"] as? String == "Bo")
        #expect(bo["rating"] as? Double == 3.0)
        // Deleting an owner deletes its embedded object; links to a deleted hound are cleared.
        try realm.write {
            realm.delete(realm.dynamicObjects("Hound").filter("name == 'Rex'"))
            realm.delete(cy)
        }
        #expect(cy.isInvalidated)
        #expect(realm.dynamicObjects("Breeder").count == 2)
        #expect(realm.dynamicObject(ofType: "Breeder", forPrimaryKey: 1)?["favourite"] as? DynamicObject == nil)
        #expect(realm.dynamicObject(ofType: "Breeder", forPrimaryKey: 1)?.dynamicList("hounds").count == 1)
        // The model classes read what was written by name.
        let typed = try Realm(configuration: directory.configuration(objectTypes: types))
        #expect(typed.objects(Breeder.self).sorted(byKeyPath: "id").map(\.rating) == [4.5, 3.0])
        #expect(typed.objects(Hound.self).filter("name == 'Pip'").first?.age == 0)
    }

    /// An update by primary key that gives an embedded object replaces the one the object held:
    /// exactly one is left, owned, with either policy.
    @Test(arguments: [UpdatePolicy.modified, .all])
    func anUpdateGivingAnEmbeddedObjectLeavesNoneWithoutOwner(policy: UpdatePolicy) throws {
        try writeKennel()
        let realm = try openByName()
        try realm.write {
            realm.dynamicCreate("Breeder", value: ["id": 2, "address": ["city": "Bergen"]], update: policy)
            realm.dynamicCreate("Breeder", value: ["id": 2, "address": ["city": "Tromsø"]], update: policy)
        }
        let bo = try #require(realm.dynamicObject(ofType: "Breeder", forPrimaryKey: 2))
        #expect((bo["address"] as? DynamicObject)?["city"] as? String == "Tromsø")
        // The verification counts each embedded object's owners.
        expectIntact(directory.file())
    }

    @Test func missingValuesTakeTheModelsDefaults() throws {
        try writeKennel()
        let realm = try Realm(configuration: directory.configuration(objectTypes: types))
        try realm.write {
            let hound = realm.dynamicCreate("Hound", value: ["name": "Lou"])
            // `Hound.age` defaults to 3 in the model class.
            #expect(hound["age"] as? Int == 3)
            #expect(hound["born"] as? Date == nil)
        }
    }

    /// An update writes only what it is given, as RealmSwift's `create(_:value:update:)` does,
    /// even for a class no model class of this process declares; a new object still needs
    /// every required value.
    @Test func anUpdateOfAClassNoModelDeclaresWritesOnlyWhatIsGiven() throws {
        let realm = try Realm(configuration: directory.configuration(objectTypes: []))
        let invoice = ObjectSchema(className: "Invoice", properties: [
            Property(name: "number", type: .int, isOptional: false, isIndexed: false, isPrimary: true),
            Property(name: "customer", type: .string, isOptional: false, isIndexed: false, isPrimary: false),
            Property(name: "total", type: .double, isOptional: false, isIndexed: false, isPrimary: false),
        ])
        try realm.write {
            try realm.addClasses([invoice])
            realm.dynamicCreate("Invoice", value: ["number": 1, "customer": "Ann", "total": 10.5])
        }
        for policy in [UpdatePolicy.modified, .all] {
            try realm.write { realm.dynamicCreate("Invoice", value: ["number": 1, "total": 12.0], update: policy) }
            let updated = try #require(realm.dynamicObject(ofType: "Invoice", forPrimaryKey: 1))
            #expect(updated["customer"] as? String == "Ann" && updated["total"] as? Double == 12.0, "\(policy)")
        }
    }

    /// Without `objectTypes`, every model class is in the schema, though its table comes with
    /// its first object: read by name before then, it is empty, and its first dynamic write
    /// creates its table (RealmSwift has every table from the open on).
    @Test func aModelClassWithoutATableYetIsReadAndCreatedByName() throws {
        let realm = try directory.realm()
        #expect(realm.fileSchema["Breeder"] == nil)
        let breeders = realm.dynamicObjects("Breeder")
        #expect(breeders.count == 0 && breeders.filter("name == 'Ann'").first == nil)
        #expect(realm.dynamicObject(ofType: "Breeder", forPrimaryKey: 1) == nil)
        try realm.write { _ = realm.dynamicCreate("Breeder", value: ["id": 1, "name": "Ann"]) }
        #expect(realm.fileSchema["Breeder"] != nil)
        #expect(breeders.map { $0["name"] as? String } == ["Ann"])
        #expect(realm.dynamicObject(ofType: "Breeder", forPrimaryKey: 1)?["name"] as? String == "Ann")
        #expect(realm.object(ofType: Breeder.self, forPrimaryKey: 1)?.name == "Ann")
    }

    @Test func liveResultsFollowWrites() throws {
        try writeKennel()
        let realm = try openByName()
        let old = realm.dynamicObjects("Hound").filter("age >= 5")
        #expect(old.count == 2)
        try realm.write { realm.dynamicObjects("Hound").filter("name == 'Ida'").first!["age"] = 7 }
        #expect(old.count == 3)
        let frozen = old.freeze()
        try realm.write { realm.delete(realm.dynamicObjects("Hound")) }
        #expect(old.isEmpty)
        #expect(frozen.count == 3)
        #expect(frozen.first?.isFrozen == true)
    }

    @Test func frozenAndHandedOverToAnotherThread() throws {
        try writeKennel()
        let realm = try openByName()
        let ann = try #require(realm.dynamicObject(ofType: "Breeder", forPrimaryKey: 1))
        nonisolated(unsafe) let frozen = ann.freeze()
        let reference = ThreadSafeReference(to: ann)
        let configuration = realm.configuration
        nonisolated(unsafe) var seen: [String?] = []
        onAnotherThread {
            let other = try! Realm(configuration: configuration)
            let resolved = other.resolve(reference)
            seen = [resolved?["name"] as? String, frozen["name"] as? String, frozen.dynamicList("hounds").first?["name"] as? String]
        }
        #expect(seen == ["Ann", "Ann", "Rex"])
        try realm.write { ann["name"] = "Anna" }
        #expect(frozen["name"] as? String == "Ann")
        #expect(frozen.thaw()?["name"] as? String == "Anna")
    }

    @Test func theFileSchemaListsEveryStoredClass() throws {
        try writeKennel()
        let realm = try openByName()
        #expect(realm.schema.objectSchema.isEmpty)
        let stored = realm.fileSchema
        #expect(Set(stored.objectSchema.map(\.className)) == ["Breeder", "Hound", "BreederAddress"])
        #expect(stored["Breeder"]?.primaryKeyProperty?.name == "id")
        #expect(stored["Breeder"]?["hounds"]?.objectClassName == "Hound")
        #expect(stored["Hound"]?["name"]?.isIndexed == true)
        #expect(stored["BreederAddress"]?.isEmbedded == true && stored["Breeder"]?.isEmbedded == false)
    }

    /// README's dynamic API example, as written there.
    @Test(.plainFilesOnly("README's example opens the file with a configuration of its own")) func theReadmeExampleRuns() throws {
        try writeKennel()
        let url = directory.file()
        let realm = try Realm(configuration: Realm.Configuration(fileURL: url, objectTypes: []))
        var counts: [String: Int] = [:]
        for objectSchema in realm.fileSchema.objectSchema where !objectSchema.isEmbedded {
            counts[objectSchema.className] = realm.dynamicObjects(objectSchema.className).count
        }
        #expect(counts == ["Breeder": 2, "Hound": 3])
        let old = realm.dynamicObjects("Hound").filter("age > %@", 4).sorted(byKeyPath: "name")
        try realm.write {
            old.first?["age"] = 11
            let cy = realm.dynamicCreate("Breeder", value: ["id": 7, "name": "Cy", "hounds": [["name": "Pip", "age": 1]]])
            cy.dynamicList("hounds").append(old.first!)
        }
        let cy = realm.dynamicObject(ofType: "Breeder", forPrimaryKey: 7)
        #expect(cy?.dynamicList("hounds").map { "\($0["name"]!) \($0["age"]!)" } == ["Pip 1", "Max 11"])
    }

    @Test func unicodeAndEmpty() throws {
        try writeKennel()
        let realm = try openByName()
        try realm.write {
            let b = realm.dynamicCreate("Breeder", value: ["id": 9, "name": "ナナ 🐕", "hounds": [], "scores": [:]])
            #expect(b.dynamicList("hounds").isEmpty)
            #expect((b["scores"] as? Map<String, Int>)?.isEmpty == true)
            #expect((b["tags"] as? MutableSet<String>)?.isEmpty == true)
        }
        #expect(realm.dynamicObjects("Breeder").filter("name == %@", "ナナ 🐕").count == 1)
        #expect(realm.dynamicObjects("Hound").filter("name == 'nobody'").isEmpty)
    }

    @Test(.plainFilesOnly("its child processes open files with configurations of their own")) func misuseTrapsWithAPreciseMessage() async throws {
        try writeKennel()
        let path = directory.file().path
        let unknownClass = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) { [path = path as String] in
            let realm = try Realm(configuration: Realm.Configuration(fileURL: URL(fileURLWithPath: path), objectTypes: []))
            _ = realm.dynamicObjects("Cat")
        }
        expectMessage(unknownClass, "Object type 'Cat' is not managed by the Realm.")
        let unknownProperty = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) { [path = path as String] in
            let realm = try Realm(configuration: Realm.Configuration(fileURL: URL(fileURLWithPath: path), objectTypes: []))
            _ = realm.dynamicObjects("Hound").first?["colour"]
        }
        expectMessage(unknownProperty, "Invalid property name 'colour' for class 'Hound'.")
        let wrongType = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) { [path = path as String] in
            let realm = try Realm(configuration: Realm.Configuration(fileURL: URL(fileURLWithPath: path), objectTypes: []))
            try realm.write { realm.dynamicObjects("Hound").first!["age"] = "old" }
        }
        expectMessage(wrongType, "Invalid value 'old' of type 'String' for 'int' property 'Hound.age'.")
        let outsideWrite = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) { [path = path as String] in
            let realm = try Realm(configuration: Realm.Configuration(fileURL: URL(fileURLWithPath: path), objectTypes: []))
            realm.dynamicObjects("Hound").first!["age"] = 2
        }
        expectMessage(outsideWrite, "Attempting to modify object outside of a write transaction")
        let wrongClass = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) { [path = path as String] in
            let realm = try Realm(configuration: Realm.Configuration(fileURL: URL(fileURLWithPath: path), objectTypes: []))
            try realm.write {
                let breeder = realm.dynamicObject(ofType: "Breeder", forPrimaryKey: 1)!
                breeder.dynamicList("hounds").append(breeder)
            }
        }
        expectMessage(wrongClass, "Object of type 'Breeder' cannot be added to 'Breeder.hounds', a collection of 'Hound'.")
        // A collection of values read as one of objects counts, and traps at its elements.
        let valuesAsObjects = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) { [path = path as String] in
            let realm = try Realm(configuration: Realm.Configuration(fileURL: URL(fileURLWithPath: path), objectTypes: []))
            let breeder = realm.dynamicObject(ofType: "Breeder", forPrimaryKey: 1)!
            guard breeder.dynamicMutableSet("tags").count == 2 else { return }
            _ = breeder.dynamicMutableSet("tags").first
        }
        expectMessage(valuesAsObjects, "'Breeder.tags' holds string values, not objects: read it with its value type, as object[\"tags\"].")
        let notASet = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) { [path = path as String] in
            let realm = try Realm(configuration: Realm.Configuration(fileURL: URL(fileURLWithPath: path), objectTypes: []))
            _ = realm.dynamicObject(ofType: "Breeder", forPrimaryKey: 1)!.dynamicMutableSet("hounds")
        }
        expectMessage(notASet, "Property 'Breeder.hounds' is not a mutableset.")
        // A primary key that is taken is the data's fault: the write throws.
        let dynamicRealm = try Realm(configuration: Realm.Configuration(fileURL: URL(fileURLWithPath: path), objectTypes: []))
        let ann = try #require(dynamicRealm.dynamicObject(ofType: "Breeder", forPrimaryKey: 1))
        #expect(ann.dynamicList("nicknames").count == 2 && ann.dynamicMutableSet("tags").count == 2 && ann.dynamicMap("scores").count == 1)
        let existingKey = try #require(throws: Realm.Error.self) {
            try dynamicRealm.write { _ = dynamicRealm.dynamicCreate("Breeder", value: ["id": 1, "name": "Again"]) }
        }
        #expect(existingKey.code == .primaryKeyExists)
        #expect(existingKey.message.hasPrefix("Attempting to create an object of type 'Breeder' with an existing primary key value"))
        // Values that do not fit are the data's fault too: the write throws, and keeps nothing.
        for (value, message) in [(["name": "Rex", "age": "old"] as [String: Any], "Invalid value 'old' of type 'String' for 'int' property 'Hound.age'."),
                                 (["name": "Rex", "colour": "red"], "Invalid property name 'colour' for class 'Hound'.")] {
            let count = dynamicRealm.dynamicObjects("Hound").count
            let refused = try #require(throws: Realm.Error.self) { try dynamicRealm.write { _ = dynamicRealm.dynamicCreate("Hound", value: value) } }
            #expect(refused.code == .invalidValue && refused.message == message)
            #expect(dynamicRealm.dynamicObjects("Hound").count == count)
        }
        // A process with no model class 'Hound' has no default for a required property; an
        // update that turns out to add an object needs every value too.
        await #expect(processExitsWith: .success) { [path = path as String] in
            let realm = try Realm(configuration: Realm.Configuration(fileURL: URL(fileURLWithPath: path), objectTypes: []))
            for (name, value, update, message) in [("Hound", ["age": 2] as [String: Any], UpdatePolicy.error, "Missing value for property 'Hound.name'."),
                                                   ("Breeder", ["id": 99], .modified, "Missing value for property 'Breeder.name'.")] {
                do {
                    try realm.write { _ = realm.dynamicCreate(name, value: value, update: update) }
                    preconditionFailure("\(name): no error")
                } catch let error as Realm.Error {
                    precondition(error.code == .invalidValue && error.message == message, "\(error)")
                }
            }
        }
        let otherThread = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) { [path = path as String] in
            let realm = try Realm(configuration: Realm.Configuration(fileURL: URL(fileURLWithPath: path), objectTypes: []))
            nonisolated(unsafe) let hound = realm.dynamicObjects("Hound").first!
            onAnotherThread { _ = hound["name"] }
        }
        expectMessage(otherThread, "Realm accessed from incorrect thread.")
        let staticQuery = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) { [path = path as String] in
            let realm = try Realm(configuration: Realm.Configuration(fileURL: URL(fileURLWithPath: path), objectTypes: []))
            _ = realm.objects(DynamicObject.self)
        }
        expectMessage(staticQuery, "DynamicObject has no schema of its own")
    }
}
