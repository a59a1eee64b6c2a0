@testable import Burrow
@testable import LMDB
import Foundation
import Testing

/// Migrations at open: every kind of schema change, the block's API, and what a failed
/// migration leaves. Each version of a model is a class declared in a function (left out of
/// the program's schema), passed as `objectTypes`.
@Suite struct MigrationTests {
    let directory = TestDirectory()

    private func configuration(_ types: [ObjectBase.Type], version: UInt64, block: MigrationBlock? = nil) -> Realm.Configuration {
        var configuration = directory.configuration(objectTypes: types, schemaVersion: version)
        configuration.migrationBlock = block
        return configuration
    }

    private func writeVersion0People() throws {
        final class Person: Object {
            @Persisted var name = ""
            @Persisted var age = ""
            @Persisted var nickname: String?
        }
        let realm = try Realm(configuration: configuration([Person.self], version: 0))
        try realm.write {
            realm.add(Person(value: ["name": "Ann", "age": "31", "nickname": "Annie"]))
            realm.add(Person(value: ["name": "Bob", "age": "x", "nickname": nil]))
        }
    }

    @Test func addedAndRemovedPropertiesNeedOnlyAHigherVersion() throws {
        try writeVersion0People()
        final class Person: Object {
            @Persisted var name = ""
            @Persisted var score = 7
            @Persisted var note: String?
        }
        do {
            let realm = try Realm(configuration: configuration([Person.self], version: 1))
            let people = realm.objects(Person.self).sorted(byKeyPath: "name")
            #expect(people.map(\.name) == ["Ann", "Bob"])
            // Added properties hold the type's zero value, not the model's default, as in RealmSwift.
            #expect(people.map(\.score) == [0, 0])
            #expect(people.map(\.note) == [nil, nil])
            #expect(realm.fileSchema["Person"]?.properties.map(\.name) == ["name", "score", "note"])
            try realm.write { people[0].score = 3 }
        }
        let reopened = try Realm(configuration: configuration([Person.self], version: 1))
        #expect(reopened.objects(Person.self).sorted(byKeyPath: "name").map(\.score) == [3, 0])
        #expect(try Realm.schemaVersion(at: directory.file()) == 1)
    }

    @Test func theSameVersionWithAChangedSchemaThrowsEveryDifference() throws {
        try writeVersion0People()
        final class Person: Object {
            @Persisted var name: String?
            @Persisted var age = 0
            @Persisted var email = ""
        }
        expectError(.schemaMismatch) { try Realm(configuration: configuration([Person.self], version: 0)) }
        do {
            _ = try Realm(configuration: configuration([Person.self], version: 0))
        } catch let error as Realm.Error {
            for line in ["- Property 'Person.name' has been made optional.",
                         "- Property 'Person.age' has been changed from 'string' to 'int'.",
                         "- Property 'Person.email' has been added.",
                         "- Property 'Person.nickname' has been removed."] {
                #expect(error.message.contains(line), "\(error.message)")
            }
        }
        // Nothing changed in the file.
        #expect(try Realm.schemaVersion(at: directory.file()) == 0)
    }

    @Test func aChangedTypeIsConvertedByTheBlockAndARenameKeepsValues() throws {
        try writeVersion0People()
        final class Person: Object {
            @Persisted var fullName = ""
            @Persisted var age = 0
            @Persisted var nickname: String?
        }
        let seen = Locked<[UInt64]>([])
        let realm = try Realm(configuration: configuration([Person.self], version: 3) { migration, oldVersion in
            seen.withLock { $0.append(oldVersion) }
            #expect(migration.oldSchema["Person"]?["age"]?.type == .string)
            #expect(migration.newSchema["Person"]?["age"]?.type == .int)
            migration.renameProperty(onType: "Person", from: "name", to: "fullName")
            migration.enumerateObjects(ofType: "Person") { old, new in
                new!["age"] = Int(old!["age"] as! String) ?? -1
                #expect(new!["fullName"] as? String == old!["name"] as? String)
            }
        })
        #expect(seen.withLock { $0 } == [0])
        let people = realm.objects(Person.self).sorted(byKeyPath: "fullName")
        #expect(people.map(\.fullName) == ["Ann", "Bob"])
        #expect(people.map(\.age) == [31, -1])
        #expect(people.map(\.nickname) == ["Annie", nil])
        #expect(people.filter("age > 30").count == 1)
    }

    @Test func optionalityChangesConvertNilToTheDefault() throws {
        try writeVersion0People()
        final class Person: Object {
            @Persisted var name: String?
            @Persisted var age = ""
            @Persisted var nickname = ""
        }
        let realm = try Realm(configuration: configuration([Person.self], version: 1))
        let people = realm.objects(Person.self).sorted(byKeyPath: "age")
        #expect(people.map(\.name) == ["Ann", "Bob"])
        #expect(people.map(\.nickname) == ["Annie", ""])
    }

    @Test func indexesAreAddedAndRemovedWithoutANewVersion() throws {
        try writeVersion0People()
        final class Person: Object {
            @Persisted(indexed: true) var name = ""
            @Persisted var age = ""
            @Persisted var nickname: String?
        }
        do {
            let realm = try Realm(configuration: configuration([Person.self], version: 0))
            #expect(realm.fileSchema["Person"]?["name"]?.isIndexed == true)
            #expect(realm.objects(Person.self).filter("name == 'Bob'").first?.age == "x")
            #expect(realm.core.catalog.layouts["Person"]?.secondaryIndexes.count == 1)
        }
        try writeVersion0People()  // the unindexed model again: the index goes
        let realm = try Realm(configuration: configuration([Person.self], version: 0))
        #expect(realm.objects(Person.self).filter("name == 'Ann'").count == 2)
    }

    @Test func primaryKeysAddedInTheBlockAreCheckedForUniquenessAfterIt() throws {
        try writeVersion0People()
        final class Person: Object {
            @Persisted(primaryKey: true) var id = 0
            @Persisted var name = ""
            @Persisted var age = ""
            @Persisted var nickname: String?
        }
        // Every object starts with id 0: only the block makes them unique.
        expectError(.schemaMismatch) { try Realm(configuration: configuration([Person.self], version: 1)) }
        let counter = Locked(0)
        let realm = try Realm(configuration: configuration([Person.self], version: 1) { migration, _ in
            migration.enumerateObjects(ofType: "Person") { _, new in
                new!["id"] = counter.withLock { $0 += 1; return $0 * 10 }
            }
        })
        #expect(realm.object(ofType: Person.self, forPrimaryKey: 10)?.name != nil)
        #expect(realm.object(ofType: Person.self, forPrimaryKey: 20)?.name != nil)
        #expect(realm.object(ofType: Person.self, forPrimaryKey: 0) == nil)
        try realm.write { realm.add(Person(value: ["id": 30, "name": "Cy"])) }
        #expect(realm.objects(Person.self).count == 3)
        #expect(realm.objects(Person.self).sorted(byKeyPath: "id").map(\.id) == [10, 20, 30])
    }

    private func writeOldPosts() throws {
        final class Tag: Object {
            @Persisted(primaryKey: true) var code = ""
            @Persisted var number = 0
        }
        final class Post: Object {
            @Persisted var tag: Tag?
            @Persisted var tags = List<Tag>()
        }
        let realm = try Realm(configuration: configuration([Post.self, Tag.self], version: 0))
        try realm.write {
            let a = Tag(value: ["code": "a", "number": 5]), b = Tag(value: ["code": "b", "number": 6])
            realm.add(Post(value: ["tag": a, "tags": [a, b]]))
        }
    }

    @Test func aPrimaryKeyChangedFromStringToIntKeepsLinksToTheObjects() throws {
        try writeOldPosts()
        final class Tag: Object {
            @Persisted var code = ""
            @Persisted(primaryKey: true) var number = 0
        }
        final class Post: Object {
            @Persisted var tag: Tag?
            @Persisted var tags = List<Tag>()
        }
        let realm = try Realm(configuration: configuration([Post.self, Tag.self], version: 1))
        #expect(realm.object(ofType: Tag.self, forPrimaryKey: 6)?.code == "b")
        #expect(realm.object(ofType: Tag.self, forPrimaryKey: 7) == nil)
        let post = try #require(realm.objects(Post.self).first)
        #expect(post.tag?.code == "a")
        #expect(post.tags.map(\.number) == [5, 6])
        #expect(realm.objects(Tag.self).filter("number == 5").first?.code == "a")
        try realm.write { realm.add(Tag(value: ["code": "c", "number": 7])) }
        #expect(realm.object(ofType: Tag.self, forPrimaryKey: 7)?.code == "c")
        #expect(realm.objects(Tag.self).count == 3)
    }

    @Test func createDeleteAndDeleteDataRenameAClassThroughTheBlock() throws {
        final class Cat: Object { @Persisted var name = "" }
        do {
            let realm = try Realm(configuration: configuration([Cat.self], version: 0))
            try realm.write { realm.add([Cat(value: ["name": "Tom"]), Cat(value: ["name": "Kit"]), Cat(value: ["name": "Old"])]) }
        }
        final class Feline: Object {
            @Persisted var name = ""
            @Persisted var lives = 9
        }
        let realm = try Realm(configuration: configuration([Feline.self], version: 1) { migration, _ in
            migration.enumerateObjects(ofType: "Cat") { old, new in
                #expect(new == nil)  // not in the new schema
                if old!["name"] as! String != "Old" { migration.create("Feline", value: ["name": old!["name"]!]) }
            }
            #expect(migration.deleteData(forType: "Cat"))
            #expect(!migration.deleteData(forType: "Nothing"))
            let extra = migration.create("Feline", value: ["Extra"])
            #expect(extra["lives"] as? Int == 9)  // the model's default
            migration.delete(extra)
        })
        #expect(realm.objects(Feline.self).map(\.name).sorted() == ["Kit", "Tom"])
        #expect(realm.objects(Feline.self).map(\.lives) == [9, 9])
        #expect(realm.fileSchema["Cat"] == nil)
    }

    @Test func theBlockRunsOnEveryVersionRiseEvenWithoutSchemaChanges() throws {
        try writeVersion0People()
        final class Person: Object {
            @Persisted var name = ""
            @Persisted var age = ""
            @Persisted var nickname: String?
        }
        let realm = try Realm(configuration: configuration([Person.self], version: 2) { migration, _ in
            migration.enumerateObjects(ofType: "Person") { old, new in new!["name"] = (old!["name"] as! String).uppercased() }
        })
        #expect(realm.objects(Person.self).map(\.name).sorted() == ["ANN", "BOB"])
        // Opening again at that version runs nothing.
        let again = try Realm(configuration: configuration([Person.self], version: 2) { _, _ in Issue.record("ran twice") })
        #expect(again.objects(Person.self).count == 2)
    }

    private func writeOldOwner() throws {
        final class Address: EmbeddedObject { @Persisted var city = "" }
        final class Owner: Object {
            @Persisted var name = ""
            @Persisted var home: Address?
            @Persisted var dogs = List<String>()
        }
        let realm = try Realm(configuration: configuration([Owner.self], version: 0))
        try realm.write {
            realm.add(Owner(value: ["name": "Ann", "home": ["city": "Oslo"], "dogs": ["Rex", "Fido"]]))
        }
    }

    @Test func linksListsAndEmbeddedObjectsThroughTheBlock() throws {
        try writeOldOwner()
        final class Owner: Object {
            @Persisted var name = ""
            @Persisted var pets = List<String>()
            @Persisted var city = ""
        }
        let realm = try Realm(configuration: configuration([Owner.self], version: 1) { migration, _ in
            migration.enumerateObjects(ofType: "Owner") { old, new in
                let home = old!["home"] as! MigrationObject
                new!["city"] = home["city"]
                new!["pets"] = old!["dogs"]
            }
        })
        let owner = try #require(realm.objects(Owner.self).first)
        #expect(owner.city == "Oslo")
        #expect(Array(owner.pets) == ["Rex", "Fido"])
        // The embedded address went with the removed property that owned it.
        #expect(try realm.core.catalog.layouts["Address"]!.count(in: realm.core.transaction) == 0)
    }

    @Test func aLowerVersionThrowsAndAFileOpenAtAnotherVersionIsRefused() throws {
        try writeVersion0People()
        final class Person: Object {
            @Persisted var name = ""
            @Persisted var age = ""
            @Persisted var nickname: String?
        }
        let open = try Realm(configuration: configuration([Person.self], version: 4))
        expectError(.schemaMismatch) { try Realm(configuration: configuration([Person.self], version: 5)) }
        _ = open
    }
}

extension MigrationTests {
    private func writeReadmeVersion0() throws {
        final class Person: Object {
            @Persisted var name = ""
            @Persisted var age = ""
        }
        final class Legacy: Object { @Persisted var note = "" }
        let realm = try Realm(configuration: configuration([Person.self, Legacy.self], version: 0))
        try realm.write {
            realm.add(Person(value: ["name": "Jane", "age": "41"]))
            realm.add(Person(value: ["name": "Tim", "age": "unknown"]))
            realm.add(Legacy(value: ["note": "old"]))
        }
    }

    /// README's migration example, as it is written there.
    @Test func theReadmeMigrationExampleRenamesConvertsAndDeletes() throws {
        try writeReadmeVersion0()
        let url = directory.file()
        final class Person: Object {
            @Persisted var fullName = ""
            @Persisted var age = 0
        }

        var config = Realm.Configuration(fileURL: url, schemaVersion: 1, objectTypes: [Person.self])
        config.migrationBlock = { migration, oldSchemaVersion in
            if oldSchemaVersion < 1 {
                migration.renameProperty(onType: "Person", from: "name", to: "fullName")
                migration.enumerateObjects(ofType: "Person") { oldObject, newObject in
                    newObject!["age"] = Int(oldObject!["age"] as! String) ?? 0
                }
                migration.deleteData(forType: "Legacy")
            }
        }
        do {
            let realm = try Realm(configuration: config)
            #expect(realm.objects(Person.self).sorted(byKeyPath: "fullName").map { "\($0.fullName) \($0.age)" } == ["Jane 41", "Tim 0"])
        }
        let reopened = try Realm(configuration: config)
        #expect(reopened.objects(Person.self).filter("age == 41").first?.fullName == "Jane")
        #expect(reopened.fileSchema.objectSchema.map(\.className) == ["Person"])
        #expect(reopened.fileSchema["Person"]?.properties.map(\.name) == ["fullName", "age"])
    }
}
