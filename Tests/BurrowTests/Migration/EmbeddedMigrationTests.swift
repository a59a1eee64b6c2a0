import Burrow
import Foundation
import Testing

/// Migrations that make a class embedded or top-level. Each version of a model is a class
/// declared in a function, passed as `objectTypes`.
@Suite struct EmbeddedMigrationTests {
    let directory = TestDirectory()

    private func configuration(_ types: [ObjectBase.Type], version: UInt64, block: MigrationBlock? = nil) -> Realm.Configuration {
        var configuration = directory.configuration(objectTypes: types, schemaVersion: version)
        configuration.migrationBlock = block
        return configuration
    }

    /// Version 0: nests holding top-level eggs; `sharedEgg` puts one egg in both nests.
    private func writeTopLevelEggs(sharedEgg: Bool) throws {
        final class Egg: Object {
            @Persisted var colour = ""
        }
        final class Nest: Object {
            @Persisted(primaryKey: true) var name = ""
            @Persisted var eggs: List<Egg>
            @Persisted var best: Egg?
        }
        let realm = try Realm(configuration: configuration([Nest.self, Egg.self], version: 0))
        try realm.write {
            let blue = Egg(value: ["colour": "blue"])
            realm.add(Nest(value: ["name": "oak", "eggs": [blue, Egg(value: ["colour": "white"])]]))
            realm.add(Nest(value: ["name": "elm", "best": sharedEgg ? blue : Egg(value: ["colour": "speckled"])]))
            realm.add(Egg(value: ["colour": "lost"]))
        }
    }

    @Test func aClassMadeEmbeddedKeepsItsOwnedObjectsAndLosesOrphans() throws {
        try writeTopLevelEggs(sharedEgg: false)
        final class Egg: EmbeddedObject {
            @Persisted var colour = ""
        }
        final class Nest: Object {
            @Persisted(primaryKey: true) var name = ""
            @Persisted var eggs: List<Egg>
            @Persisted var best: Egg?
        }
        let config = configuration([Nest.self, Egg.self], version: 1)
        do {
            let realm = try Realm(configuration: config)
            #expect(realm.object(ofType: Nest.self, forPrimaryKey: "oak")?.eggs.map(\.colour) == ["blue", "white"])
            #expect(realm.object(ofType: Nest.self, forPrimaryKey: "elm")?.best?.colour == "speckled")
            // The egg nothing held is gone.
            #expect(try realm.storedCount(of: Egg.self) == 3)
            #expect(realm.fileSchema["Egg"]?.isEmbedded == true)
            // Embedded objects now die with their owner.
            try realm.write { realm.delete(realm.object(ofType: Nest.self, forPrimaryKey: "oak")!) }
            #expect(try realm.storedCount(of: Egg.self) == 1)
        }
        let reopened = try Realm(configuration: config)
        #expect(reopened.object(ofType: Nest.self, forPrimaryKey: "elm")?.best?.colour == "speckled")
        #expect(try reopened.storedCount(of: Egg.self) == 1)
    }

    @Test func anObjectWithTwoOwnersCannotBeMadeEmbeddedAndTheFileIsUntouched() throws {
        try writeTopLevelEggs(sharedEgg: true)
        final class Egg: EmbeddedObject {
            @Persisted var colour = ""
        }
        final class Nest: Object {
            @Persisted(primaryKey: true) var name = ""
            @Persisted var eggs: List<Egg>
            @Persisted var best: Egg?
        }
        do {
            _ = try Realm(configuration: configuration([Nest.self, Egg.self], version: 1))
            Issue.record("the migration should have failed")
        } catch let error as Realm.Error {
            #expect(error.code == .schemaMismatch)
            #expect(error.localizedDescription.contains("Cannot make 'Egg' embedded"), "\(error)")
            #expect(error.localizedDescription.contains("linked from 2 places"), "\(error)")
        }
        #expect(try Realm.schemaVersion(at: directory.file(), encryptionKey: TestDirectory.suiteKey) == 0)
    }

    @Test func theBlockCanGiveEachOwnerItsOwnObject() throws {
        try writeTopLevelEggs(sharedEgg: true)
        final class Egg: EmbeddedObject {
            @Persisted var colour = ""
        }
        final class Nest: Object {
            @Persisted(primaryKey: true) var name = ""
            @Persisted var eggs: List<Egg>
            @Persisted var best: Egg?
        }
        let config = configuration([Nest.self, Egg.self], version: 1) { migration, _ in
            migration.enumerateObjects(ofType: "Nest") { old, new in
                guard let best = old?["best"] as? DynamicObject else { return }
                new?["best"] = ["colour": "\(best["colour"]!) copy"]
            }
        }
        let realm = try Realm(configuration: config)
        #expect(realm.object(ofType: Nest.self, forPrimaryKey: "elm")?.best?.colour == "blue copy")
        #expect(realm.object(ofType: Nest.self, forPrimaryKey: "oak")?.eggs.first?.colour == "blue")
        #expect(try realm.storedCount(of: Egg.self) == 3)
    }

    @Test func anEmbeddedClassMadeTopLevelKeepsItsObjects() throws {
        do {
            final class Shell: EmbeddedObject {
                @Persisted var size = 0
            }
            final class Clam: Object {
                @Persisted var shell: Shell?
            }
            let realm = try Realm(configuration: configuration([Clam.self, Shell.self], version: 0))
            try realm.write {
                realm.add(Clam(value: ["shell": ["size": 4]]))
                realm.add(Clam(value: ["shell": ["size": 9]]))
            }
        }
        final class Shell: Object {
            @Persisted var size = 0
        }
        final class Clam: Object {
            @Persisted var shell: Shell?
        }
        let realm = try Realm(configuration: configuration([Clam.self, Shell.self], version: 1))
        #expect(realm.objects(Shell.self).sorted(byKeyPath: "size").map(\.size) == [4, 9])
        // Top-level objects outlive their old owners.
        try realm.write { realm.delete(realm.objects(Clam.self)) }
        #expect(realm.objects(Shell.self).count == 2)
    }
}
