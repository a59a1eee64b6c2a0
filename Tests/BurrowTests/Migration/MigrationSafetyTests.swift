import Burrow
import Foundation
import Testing

/// What a migration that does not finish leaves (nothing), and what a process that had the
/// file open sees after another process migrated it (a clear error, never the new rows read
/// through its old schema).
@Suite struct MigrationSafetyTests {
    let directory = TestDirectory()

    /// The configuration of version 0 (``Migrant``).
    private func version0() -> Realm.Configuration {
        directory.configuration(objectTypes: [Migrant.self], schemaVersion: 0)
    }

    private func writePeople() throws {
        let realm = try Realm(configuration: version0())
        try realm.write {
            for index in 0..<200 { realm.add(Migrant(value: ["name": "p\(index)", "age": "\(index)"])) }
        }
    }

    /// Expects the file to be exactly as ``writePeople()`` left it.
    private func expectUntouched(sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(try Realm.schemaVersion(at: directory.file()) == 0, sourceLocation: sourceLocation)
        let realm = try Realm(configuration: version0())
        #expect(realm.fileSchema["Migrant"]?.properties.map(\.name) == ["name", "age"], sourceLocation: sourceLocation)
        let people = realm.objects(Migrant.self)
        #expect(people.count == 200, sourceLocation: sourceLocation)
        #expect(people.allSatisfy { $0.age == String($0.name.dropFirst()) }, sourceLocation: sourceLocation)
    }

    @Test(.plainFilesOnly("its child process opens the file with a configuration of its own")) func aProcessKilledDuringTheBlockLeavesTheFileAsItWas() async throws {
        try writePeople()
        let path = directory.file().path
        await #expect(processExitsWith: .signal(SIGKILL)) { [path = path as String] in
            final class Migrant: Object {
                @Persisted var name = ""
                @Persisted var age = 0
            }
            var configuration = Realm.Configuration(fileURL: URL(fileURLWithPath: path), schemaVersion: 1, objectTypes: [Migrant.self])
            configuration.migrationBlock = { migration, _ in
                var converted = 0
                migration.enumerateObjects(ofType: "Migrant") { old, new in
                    new!["age"] = Int(old!["age"] as! String)!
                    converted += 1
                    if converted == 150 { kill(getpid(), SIGKILL) }
                }
            }
            _ = try? Realm(configuration: configuration)
        }
        try expectUntouched()
    }

    @Test(.plainFilesOnly("its child process opens the file with a configuration of its own")) func aBlockThatTrapsLeavesTheFileAsItWas() async throws {
        try writePeople()
        let path = directory.file().path
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) { [path = path as String] in
            final class Migrant: Object {
                @Persisted var name = ""
                @Persisted var age = 0
            }
            var configuration = Realm.Configuration(fileURL: URL(fileURLWithPath: path), schemaVersion: 1, objectTypes: [Migrant.self])
            configuration.migrationBlock = { migration, _ in
                migration.enumerateObjects(ofType: "Migrant") { _, new in new!["age"] = "not a number" }
            }
            _ = try? Realm(configuration: configuration)
        }
        expectMessage(result, "Invalid value 'not a number' of type 'String' for 'int' property 'Migrant.age'.")
        try expectUntouched()
    }

    @Test(.plainFilesOnly("it opens the file with a configuration of its own")) func primaryKeysLeftDuplicateFailTheMigrationAndChangeNothing() throws {
        try writePeople()
        final class Migrant: Object {
            @Persisted(primaryKey: true) var name = ""
            @Persisted var age = ""
        }
        var configuration = directory.configuration(objectTypes: [Migrant.self], schemaVersion: 1)
        configuration.migrationBlock = { migration, _ in
            migration.enumerateObjects(ofType: "Migrant") { _, new in new!["name"] = "same" }
        }
        do {
            _ = try Realm(configuration: configuration)
            Issue.record("expected duplicate primary keys to fail the migration")
        } catch let error as Realm.Error {
            #expect(error.code == .schemaMismatch)
            #expect(error.message == "Primary key property 'Migrant.name' has duplicate values after migration: 'same'.")
        }
        try expectUntouched()
    }

    @Test(.plainFilesOnly("its child process opens the file with a configuration of its own")) func anotherProcessWithTheFileOpenIsRefusedItsNextWrite() async throws {
        try writePeople()
        // The realm lives on one thread across the test's suspension point.
        let thread = ConfinedThread()
        defer { thread.stop() }
        let configuration = version0()
        nonisolated(unsafe) var realm: Realm?
        try thread.run {
            realm = try Realm(configuration: configuration)
            #expect(realm!.objects(Migrant.self).count == 200)
        }
        let path = directory.file().path
        await #expect(processExitsWith: .success) { [path = path as String] in
            final class Migrant: Object {
                @Persisted var name = ""
                @Persisted var years = 0
            }
            var configuration = Realm.Configuration(fileURL: URL(fileURLWithPath: path), schemaVersion: 1, objectTypes: [Migrant.self])
            configuration.migrationBlock = { migration, _ in
                migration.enumerateObjects(ofType: "Migrant") { old, new in new!["years"] = Int(old!["age"] as! String)! }
            }
            let migrated = try! Realm(configuration: configuration)
            precondition(migrated.objects(Migrant.self).sum(ofProperty: "years") as Int == 19_900)
        }
        let refusal = try thread.run { () -> Realm.Error? in
            defer { realm = nil }
            do {
                try realm!.write { realm!.deleteAll() }
                return nil
            } catch {
                return error as? Realm.Error
            }
        }
        #expect(refusal?.code == .schemaMismatch)
        #expect(refusal?.message.contains("was migrated to a new schema by another process") == true, "\(String(describing: refusal))")
    }
}

/// Version 0 of the model these tests migrate (its later versions are declared where used).
private final class Migrant: Object {
    @Persisted var name = ""
    @Persisted var age = ""
}
