import Burrow
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
        final class Member: Object {
            @Persisted var name = ""
            @Persisted var age = ""
            @Persisted var nickname: String?
        }
        let realm = try Realm(configuration: configuration([Member.self], version: 0))
        try realm.write {
            realm.add(Member(value: ["name": "Ann", "age": "31", "nickname": "Annie"]))
            realm.add(Member(value: ["name": "Bob", "age": "x", "nickname": nil]))
        }
    }

    @Test func addedAndRemovedPropertiesNeedOnlyAHigherVersion() throws {
        try writeVersion0People()
        final class Member: Object {
            @Persisted var name = ""
            @Persisted var score = 7
            @Persisted var note: String?
        }
        do {
            let realm = try Realm(configuration: configuration([Member.self], version: 1))
            let people = realm.objects(Member.self).sorted(byKeyPath: "name")
            #expect(people.map(\.name) == ["Ann", "Bob"])
            // Added properties hold the type's zero value, not the model's default, as in RealmSwift.
            #expect(people.map(\.score) == [0, 0])
            #expect(people.map(\.note) == [nil, nil])
            #expect(realm.fileSchema["Member"]?.properties.map(\.name) == ["name", "score", "note"])
            try realm.write { people[0].score = 3 }
        }
        let reopened = try Realm(configuration: configuration([Member.self], version: 1))
        #expect(reopened.objects(Member.self).sorted(byKeyPath: "name").map(\.score) == [3, 0])
        #expect(try Realm.schemaVersion(at: directory.file(), encryptionKey: TestDirectory.suiteKey) == 1)
        // RealmSwift's global name for it answers the same.
        #expect(try schemaVersionAtURL(directory.file(), encryptionKey: TestDirectory.suiteKey) == 1)
        // The file has no key to open it with.
        expectError(.invalidDatabase) { try Realm.schemaVersion(at: directory.file(), encryptionKey: Data(count: 64)) }
        expectError(.invalidDatabase) { try schemaVersionAtURL(directory.file(), encryptionKey: Data(count: 64)) }
    }

    @Test func theSameVersionWithAChangedSchemaThrowsEveryDifference() throws {
        try writeVersion0People()
        final class Member: Object {
            @Persisted var name: String?
            @Persisted var age = 0
            @Persisted var email = ""
        }
        expectError(.schemaMismatch) { try Realm(configuration: configuration([Member.self], version: 0)) }
        do {
            _ = try Realm(configuration: configuration([Member.self], version: 0))
        } catch let error as Realm.Error {
            for line in ["- Property 'Member.name' has been made optional.",
                         "- Property 'Member.age' has been changed from 'string' to 'int'.",
                         "- Property 'Member.email' has been added.",
                         "- Property 'Member.nickname' has been removed."] {
                #expect(error.message.contains(line), "\(error.message)")
            }
        }
        // Nothing changed in the file.
        #expect(try Realm.schemaVersion(at: directory.file(), encryptionKey: TestDirectory.suiteKey) == 0)
    }

    @Test func aChangedTypeIsConvertedByTheBlockAndARenameKeepsValues() throws {
        try writeVersion0People()
        final class Member: Object {
            @Persisted var fullName = ""
            @Persisted var age = 0
            @Persisted var nickname: String?
        }
        let seen = Locked<[UInt64]>([])
        let realm = try Realm(configuration: configuration([Member.self], version: 3) { migration, oldVersion in
            seen.withLock { $0.append(oldVersion) }
            #expect(migration.oldSchema["Member"]?["age"]?.type == .string)
            #expect(migration.newSchema["Member"]?["age"]?.type == .int)
            migration.renameProperty(onType: "Member", from: "name", to: "fullName")
            migration.enumerateObjects(ofType: "Member") { old, new in
                new!["age"] = Int(old!["age"] as! String) ?? -1
                #expect(new!["fullName"] as? String == old!["name"] as? String)
            }
        })
        #expect(seen.withLock { $0 } == [0])
        let people = realm.objects(Member.self).sorted(byKeyPath: "fullName")
        #expect(people.map(\.fullName) == ["Ann", "Bob"])
        #expect(people.map(\.age) == [31, -1])
        #expect(people.map(\.nickname) == ["Annie", nil])
        #expect(people.filter("age > 30").count == 1)
    }

    @Test func performMigrationMigratesWithoutARealmLeftOpen() throws {
        try writeVersion0People()
        final class Member: Object {
            @Persisted var name = ""
            @Persisted var age = 0
            @Persisted var nickname: String?
        }
        let runs = Locked(0)
        let migrating = configuration([Member.self], version: 2) { migration, _ in
            runs.withLock { $0 += 1 }
            migration.enumerateObjects(ofType: "Member") { old, new in new!["age"] = Int(old!["age"] as! String) ?? -1 }
        }
        try Realm.performMigration(for: migrating)
        #expect(runs.withLock { $0 } == 1)
        #expect(try schemaVersionAtURL(directory.file(), encryptionKey: TestDirectory.suiteKey) == 2)
        // Opening afterwards finds nothing left to migrate.
        let realm = try Realm(configuration: migrating)
        #expect(runs.withLock { $0 } == 1)
        #expect(realm.objects(Member.self).sorted(byKeyPath: "name").map(\.age) == [31, -1])
        // A schema that needs a higher version throws, as opening would.
        expectError(.schemaMismatch) { try Realm.performMigration(for: configuration([Member.self], version: 1)) }
    }

    @Test func schemaVersionAtURLOfNoFileOrOfSomethingElseThrows() {
        let missing = directory.file("missing.realm")
        let error = #expect(throws: Realm.Error.self) { try schemaVersionAtURL(missing) }
        #expect(error?.code == .invalidDatabase)
        #expect(error?.message == "Realm at path '\(missing.path)' has not been initialized.")
        #expect(!FileManager.default.fileExists(atPath: missing.path), "asking created the file")
        let device = #expect(throws: Realm.Error.self) { try schemaVersionAtURL(URL(fileURLWithPath: "/dev/null")) }
        #expect(device?.code == .fileAccess)
        let folder = #expect(throws: Realm.Error.self) { try schemaVersionAtURL(directory.url) }
        #expect(folder?.code == .fileAccess)
    }

    @Test func asyncOpenMigratesOffTheCallersThreadAndDeliversOnTheQueue() throws {
        try writeVersion0People()
        final class Member: Object {
            @Persisted var name = ""
            @Persisted var age = 0
        }
        let caller = pthread_self()
        let migratedOn = Locked<pthread_t?>(nil)
        let migrating = configuration([Member.self], version: 1) { migration, _ in
            migratedOn.withLock { $0 = pthread_self() }
            migration.enumerateObjects(ofType: "Member") { old, new in new!["age"] = Int(old!["age"] as! String) ?? -1 }
        }
        let queue = DispatchQueue(label: "callback")
        let delivered = DispatchSemaphore(value: 0)
        let ages = Locked<[Int]?>(nil)
        Realm.asyncOpen(configuration: migrating, callbackQueue: queue) { result in
            dispatchPrecondition(condition: .onQueue(queue))
            let realm = try! result.get()
            // Confined to the queue: usable here, in a write too.
            try! realm.write { realm.create(Member.self, value: ["name": "Cy", "age": 7]) }
            ages.withLock { $0 = realm.objects(Member.self).sorted(byKeyPath: "name").map(\.age) }
            delivered.signal()
        }
        #expect(delivered.wait(timeout: .now() + 30) == .success)
        #expect(ages.withLock { $0 } == [31, -1, 7])
        let migrationThread = try #require(migratedOn.withLock { $0 })
        #expect(pthread_equal(migrationThread, caller) == 0, "the migration ran on the caller's thread")

        // What opening throws reaches the callback as a failure.
        let failed = DispatchSemaphore(value: 0)
        let failure = Locked<Realm.Error?>(nil)
        Realm.asyncOpen(configuration: configuration([Member.self], version: 0), callbackQueue: queue) { result in
            if case .failure(let error) = result { failure.withLock { $0 = error as? Realm.Error } }
            failed.signal()
        }
        #expect(failed.wait(timeout: .now() + 30) == .success)
        #expect(failure.withLock { $0?.code } == .schemaMismatch)
    }

    @Test func aCancelledAsyncOpenNeverCallsBack() throws {
        try writeVersion0People()
        final class Member: Object {
            @Persisted var name = ""
            @Persisted var age = 0
        }
        let migrated = DispatchSemaphore(value: 0)
        let migrating = configuration([Member.self], version: 1) { migration, _ in
            migration.enumerateObjects(ofType: "Member") { _, new in new!["age"] = 1 }
            migrated.signal()
        }
        // The callback queue is held until the task is cancelled, whatever the open's pace.
        let queue = DispatchQueue(label: "callback")
        queue.suspend()
        let calls = Locked(0)
        let task = Realm.asyncOpen(configuration: migrating, callbackQueue: queue) { _ in calls.withLock { $0 += 1 } }
        task.addProgressNotification(queue: queue) { _ in Issue.record("a realm without sync reported download progress") }
        #expect(migrated.wait(timeout: .now() + 30) == .success)
        task.cancel()
        queue.resume()
        Thread.sleep(forTimeInterval: 0.3)
        queue.sync {}
        #expect(calls.withLock { $0 } == 0)
        // The migration that ran stays run.
        let realm = try Realm(configuration: configuration([Member.self], version: 1))
        #expect(realm.objects(Member.self).map(\.age) == [1, 1])
    }

    @Test func optionalityChangesConvertNilToTheDefault() throws {
        try writeVersion0People()
        final class Member: Object {
            @Persisted var name: String?
            @Persisted var age = ""
            @Persisted var nickname = ""
        }
        let realm = try Realm(configuration: configuration([Member.self], version: 1))
        let people = realm.objects(Member.self).sorted(byKeyPath: "age")
        #expect(people.map(\.name) == ["Ann", "Bob"])
        #expect(people.map(\.nickname) == ["Annie", ""])
    }

    @Test func indexesAreAddedAndRemovedWithoutANewVersion() throws {
        try writeVersion0People()
        final class Member: Object {
            @Persisted(indexed: true) var name = ""
            @Persisted var age = ""
            @Persisted var nickname: String?
        }
        do {
            let realm = try Realm(configuration: configuration([Member.self], version: 0))
            #expect(realm.fileSchema["Member"]?["name"]?.isIndexed == true)
            #expect(realm.objects(Member.self).filter("name == 'Bob'").first?.age == "x")
            #expect(realm.internals.table("Member")?.secondaryIndexCount == 1)
        }
        try writeVersion0People()  // the unindexed model again: the index goes
        let realm = try Realm(configuration: configuration([Member.self], version: 0))
        #expect(realm.objects(Member.self).filter("name == 'Ann'").count == 2)
    }

    @Test func primaryKeysAddedInTheBlockAreCheckedForUniquenessAfterIt() throws {
        try writeVersion0People()
        final class Member: Object {
            @Persisted(primaryKey: true) var id = 0
            @Persisted var name = ""
            @Persisted var age = ""
            @Persisted var nickname: String?
        }
        // Every object starts with id 0: only the block makes them unique.
        expectError(.schemaMismatch) { try Realm(configuration: configuration([Member.self], version: 1)) }
        let counter = Locked(0)
        let realm = try Realm(configuration: configuration([Member.self], version: 1) { migration, _ in
            migration.enumerateObjects(ofType: "Member") { _, new in
                new!["id"] = counter.withLock { $0 += 1; return $0 * 10 }
            }
        })
        #expect(realm.object(ofType: Member.self, forPrimaryKey: 10)?.name != nil)
        #expect(realm.object(ofType: Member.self, forPrimaryKey: 20)?.name != nil)
        #expect(realm.object(ofType: Member.self, forPrimaryKey: 0) == nil)
        try realm.write { realm.add(Member(value: ["id": 30, "name": "Cy"])) }
        #expect(realm.objects(Member.self).count == 3)
        #expect(realm.objects(Member.self).sorted(byKeyPath: "id").map(\.id) == [10, 20, 30])
    }

    private func writeOldPosts() throws {
        final class Badge: Object {
            @Persisted(primaryKey: true) var code = ""
            @Persisted var number = 0
        }
        final class Entry: Object {
            @Persisted var tag: Badge?
            @Persisted var tags = List<Badge>()
        }
        let realm = try Realm(configuration: configuration([Entry.self, Badge.self], version: 0))
        try realm.write {
            let a = Badge(value: ["code": "a", "number": 5]), b = Badge(value: ["code": "b", "number": 6])
            realm.add(Entry(value: ["tag": a, "tags": [a, b]]))
        }
    }

    @Test func aPrimaryKeyChangedFromStringToIntKeepsLinksToTheObjects() throws {
        try writeOldPosts()
        final class Badge: Object {
            @Persisted var code = ""
            @Persisted(primaryKey: true) var number = 0
        }
        final class Entry: Object {
            @Persisted var tag: Badge?
            @Persisted var tags = List<Badge>()
        }
        let realm = try Realm(configuration: configuration([Entry.self, Badge.self], version: 1))
        #expect(realm.object(ofType: Badge.self, forPrimaryKey: 6)?.code == "b")
        #expect(realm.object(ofType: Badge.self, forPrimaryKey: 7) == nil)
        let post = try #require(realm.objects(Entry.self).first)
        #expect(post.tag?.code == "a")
        #expect(post.tags.map(\.number) == [5, 6])
        #expect(realm.objects(Badge.self).filter("number == 5").first?.code == "a")
        try realm.write { realm.add(Badge(value: ["code": "c", "number": 7])) }
        #expect(realm.object(ofType: Badge.self, forPrimaryKey: 7)?.code == "c")
        #expect(realm.objects(Badge.self).count == 3)
    }

    @Test func createDeleteAndDeleteDataRenameAClassThroughTheBlock() throws {
        final class Kitten: Object { @Persisted var name = "" }
        do {
            let realm = try Realm(configuration: configuration([Kitten.self], version: 0))
            try realm.write { realm.add([Kitten(value: ["name": "Tom"]), Kitten(value: ["name": "Kit"]), Kitten(value: ["name": "Old"])]) }
        }
        final class Feline: Object {
            @Persisted var name = ""
            @Persisted var lives = 9
        }
        let realm = try Realm(configuration: configuration([Feline.self], version: 1) { migration, _ in
            migration.enumerateObjects(ofType: "Kitten") { old, new in
                #expect(new == nil)  // not in the new schema
                if old!["name"] as! String != "Old" { migration.create("Feline", value: ["name": old!["name"]!]) }
            }
            #expect(migration.deleteData(forType: "Kitten"))
            #expect(!migration.deleteData(forType: "Nothing"))
            let extra = migration.create("Feline", value: ["Extra"])
            #expect(extra["lives"] as? Int == 9)  // the model's default
            migration.delete(extra)
        })
        #expect(realm.objects(Feline.self).map(\.name).sorted() == ["Kit", "Tom"])
        #expect(realm.objects(Feline.self).map(\.lives) == [9, 9])
        #expect(realm.fileSchema["Kitten"] == nil)
    }

    @Test func theBlockRunsOnEveryVersionRiseEvenWithoutSchemaChanges() throws {
        try writeVersion0People()
        final class Member: Object {
            @Persisted var name = ""
            @Persisted var age = ""
            @Persisted var nickname: String?
        }
        let realm = try Realm(configuration: configuration([Member.self], version: 2) { migration, _ in
            migration.enumerateObjects(ofType: "Member") { old, new in new!["name"] = (old!["name"] as! String).uppercased() }
        })
        #expect(realm.objects(Member.self).map(\.name).sorted() == ["ANN", "BOB"])
        // Opening again at that version runs nothing.
        let again = try Realm(configuration: configuration([Member.self], version: 2) { _, _ in Issue.record("ran twice") })
        #expect(again.objects(Member.self).count == 2)
    }

    private func writeOldOwner() throws {
        final class Shelter: EmbeddedObject { @Persisted var city = "" }
        final class Keeper: Object {
            @Persisted var name = ""
            @Persisted var home: Shelter?
            @Persisted var dogs = List<String>()
        }
        let realm = try Realm(configuration: configuration([Keeper.self], version: 0))
        try realm.write {
            realm.add(Keeper(value: ["name": "Ann", "home": ["city": "Oslo"], "dogs": ["Rex", "Fido"]]))
        }
    }

    @Test func linksListsAndEmbeddedObjectsThroughTheBlock() throws {
        try writeOldOwner()
        final class Keeper: Object {
            @Persisted var name = ""
            @Persisted var pets = List<String>()
            @Persisted var city = ""
        }
        let realm = try Realm(configuration: configuration([Keeper.self], version: 1) { migration, _ in
            migration.enumerateObjects(ofType: "Keeper") { old, new in
                let home = old!["home"] as! MigrationObject
                new!["city"] = home["city"]
                new!["pets"] = old!["dogs"]
            }
        })
        let owner = try #require(realm.objects(Keeper.self).first)
        #expect(owner.city == "Oslo")
        #expect(Array(owner.pets) == ["Rex", "Fido"])
        // The embedded address went with the removed property that owned it.
        #expect(try realm.internals.table("Shelter")!.count() == 0)
    }

    @Test func aLowerVersionThrowsAndAFileOpenAtAnotherVersionIsRefused() throws {
        try writeVersion0People()
        final class Member: Object {
            @Persisted var name = ""
            @Persisted var age = ""
            @Persisted var nickname: String?
        }
        let open = try Realm(configuration: configuration([Member.self], version: 4))
        expectError(.schemaMismatch) { try Realm(configuration: configuration([Member.self], version: 5)) }
        _ = open
    }
}

extension MigrationTests {
    private func writeReadmeVersion0() throws {
        final class Member: Object {
            @Persisted var name = ""
            @Persisted var age = ""
        }
        final class Legacy: Object { @Persisted var note = "" }
        let realm = try Realm(configuration: configuration([Member.self, Legacy.self], version: 0))
        try realm.write {
            realm.add(Member(value: ["name": "Jane", "age": "41"]))
            realm.add(Member(value: ["name": "Tim", "age": "unknown"]))
            realm.add(Legacy(value: ["note": "old"]))
        }
    }

    /// README's migration example, as written there but with a class name of its own (classes are
    /// known by their unqualified names, and this target has a `Person` model).
    @Test func theReadmeMigrationExampleRenamesConvertsAndDeletes() throws {
        try writeReadmeVersion0()
        let url = directory.file()
        final class Member: Object {
            @Persisted var fullName = ""
            @Persisted var age = 0
        }

        var config = Realm.Configuration(fileURL: url, encryptionKey: TestDirectory.suiteKey, schemaVersion: 1, objectTypes: [Member.self])
        config.migrationBlock = { migration, oldSchemaVersion in
            if oldSchemaVersion < 1 {
                migration.renameProperty(onType: "Member", from: "name", to: "fullName")
                migration.enumerateObjects(ofType: "Member") { oldObject, newObject in
                    newObject!["age"] = Int(oldObject!["age"] as! String) ?? 0
                }
                migration.deleteData(forType: "Legacy")
            }
        }
        do {
            let realm = try Realm(configuration: config)
            #expect(realm.objects(Member.self).sorted(byKeyPath: "fullName").map { "\($0.fullName) \($0.age)" } == ["Jane 41", "Tim 0"])
        }
        let reopened = try Realm(configuration: config)
        #expect(reopened.objects(Member.self).filter("age == 41").first?.fullName == "Jane")
        #expect(reopened.fileSchema.objectSchema.map(\.className) == ["Member"])
        #expect(reopened.fileSchema["Member"]?.properties.map(\.name) == ["fullName", "age"])
    }
}
