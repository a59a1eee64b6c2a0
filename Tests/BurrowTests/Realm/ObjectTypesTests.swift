import Burrow
import Foundation
import Testing

/// A configuration's `objectTypes` says which model classes a realm stores, as in RealmSwift:
/// the classes listed and those they link to. Reading or writing another class traps with
/// RealmSwift's message instead of creating its table.
@Suite struct ObjectTypesTests {
    let directory = TestDirectory()

    @Test func listedClassesAndTheClassesTheyLinkToAreManaged() throws {
        let realm = try Realm(configuration: directory.configuration(objectTypes: [Puppy.self]))
        try realm.write { realm.add(Puppy(value: ["name": "Rex", "owner": ["id": 1, "name": "Ann"]])) }
        #expect(realm.objects(Puppy.self).count == 1)
        #expect(realm.object(ofType: Owner.self, forPrimaryKey: 1)?.name == "Ann")
        #expect(!realm.schema.objectSchema.contains { $0.className == "Person" })
        // Another configuration of the file, with another list (or none), is another realm.
        let everything = try directory.realm()
        try everything.write { everything.add(Person(value: ["id": 1])) }
        #expect(everything.objects(Person.self).count == 1)
    }

    @Test(arguments: ["objects", "add", "create", "object"])
    func aClassLeftOutIsRefused(use: String) async throws {
        _ = try Realm(configuration: directory.configuration(objectTypes: [Dog.self]))
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            [path = directory.file().path as String, key = TestDirectory.suiteKey as Data?, use] in
            let realm = try Realm(configuration: Realm.Configuration(fileURL: URL(fileURLWithPath: path), encryptionKey: key, objectTypes: [Dog.self]))
            switch use {
            case "objects": _ = realm.objects(Person.self)
            case "add": try realm.write { realm.add(Person()) }
            case "create": try realm.write { realm.create(Person.self) }
            default: _ = realm.object(ofType: Person.self, forPrimaryKey: 1)
            }
        }
        expectMessage(result, "Object type 'Person' is not managed by the Realm.")
        let realm = try Realm(configuration: directory.configuration(objectTypes: [Dog.self]))
        #expect(!realm.fileSchema.objectSchema.contains { $0.className == "Person" })
    }
}
