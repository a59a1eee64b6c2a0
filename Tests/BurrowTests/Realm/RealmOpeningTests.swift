import Burrow
import Foundation
import Testing

@Suite struct RealmOpeningTests {
    let directory = TestDirectory()

    @Test func createsTheFileAndOnlyItsLockBesideIt() throws {
        do {
            let realm = try directory.realm("new.realm")
            try realm.write { realm.add(Dog()) }
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.url.path).sorted()
        #expect(names == ["new.realm", "new.realm-lock"])
    }

    @Test func returnsTheThreadsCachedInstance() throws {
        let configuration = directory.configuration()
        let first = try Realm(configuration: configuration)
        let second = try Realm(configuration: configuration)
        #expect(first == second)
        let other = try directory.realm("other.realm")
        #expect(first != other)
    }

    @Test func aRealmReleasedOnAnotherThreadLeavesTheCacheSafely() throws {
        let configuration = directory.configuration()
        try Realm(configuration: configuration).write { try Realm(configuration: configuration).add(Dog(value: ["Rex", 1])) }
        for _ in 0..<200 {
            let carrier = RealmCarrier(try Realm(configuration: configuration))
            let dropped = DispatchSemaphore(value: 0)
            Thread { carrier.realm = nil; dropped.signal() }.start()
            // Looking the realm up while it may be deinitialising on the other thread gives either
            // the live instance or a new one, never a dying one.
            for _ in 0..<20 { #expect(try Realm(configuration: configuration).objects(Dog.self).count == 1) }
            dropped.wait()
        }
        let first = try Realm(configuration: configuration)
        #expect(first == (try Realm(configuration: configuration)))
    }

    @Test func anInMemoryRealmReopenedWhileItClosesElsewhereStaysUsable() throws {
        var configuration = Realm.Configuration()
        configuration.inMemoryIdentifier = "reopen-\(UUID().uuidString)"
        for _ in 0..<100 {
            let carrier = RealmCarrier(try Realm(configuration: configuration))
            try carrier.realm!.write { carrier.realm!.add(Dog(value: ["Rex", 1])) }
            let dropped = DispatchSemaphore(value: 0)
            Thread { carrier.realm = nil; dropped.signal() }.start()
            // Whether this finds the old instance or opens a new one, it must work: the closing
            // one may not delete the files under the new one.
            let realm = try Realm(configuration: configuration)
            try realm.write { realm.add(Dog(value: ["Fido", 2])) }
            #expect(realm.objects(Dog.self).filter("name == 'Fido'").count >= 1)
            dropped.wait()
        }
        #expect(!Internals.isOpen(configuration))
    }

    @Test func aRealmInAWriteOutlivesItsValuesUntilTheWriteEnds() throws {
        let configuration = directory.configuration()
        let carrier = RealmCarrier(try Realm(configuration: configuration))
        carrier.realm!.beginWrite()
        carrier.realm!.add(Dog(value: ["Rex", 1]))
        // Another thread drops the last value: the write stays open for this thread.
        let dropped = DispatchSemaphore(value: 0)
        Thread { carrier.realm = nil; dropped.signal() }.start()
        dropped.wait()
        let again = try Realm(configuration: configuration)
        #expect(again.isInWriteTransaction)
        try again.commitWrite()
        #expect(again.objects(Dog.self).count == 1)
    }

    @Test func otherThreadsGetTheirOwnInstance() throws {
        let configuration = directory.configuration()
        let realm = try Realm(configuration: configuration)
        try realm.write { realm.add(Dog(value: ["Rex", 1])) }
        let countSeen = LockedValue(0)
        onAnotherThread {
            let mine = try! Realm(configuration: configuration)
            countSeen.set(mine.objects(Dog.self).count)
        }
        #expect(countSeen.value == 1)
    }

    @Test func defaultConfigurationUsesDefaultRealmInTheDefaultDirectory() {
        let configuration = Realm.Configuration()
        #expect(configuration.fileURL?.lastPathComponent == "default.realm")
        #expect(configuration.fileURL?.deletingLastPathComponent().standardizedFileURL.path
            == Realm.Configuration.defaultDirectory.standardizedFileURL.path)
        #expect(configuration.inMemoryIdentifier == nil)
        #expect(!configuration.readOnly && configuration.schemaVersion == 0 && configuration.objectTypes == nil)
    }

    @Test func fileURLAndInMemoryIdentifierClearEachOther() {
        var configuration = Realm.Configuration(inMemoryIdentifier: "cache")
        #expect(configuration.fileURL == nil)
        configuration.fileURL = directory.file()
        #expect(configuration.inMemoryIdentifier == nil)
        configuration.inMemoryIdentifier = "again"
        #expect(configuration.fileURL == nil)
    }

    @Test func openingByFileURL() throws {
        let realm = try Realm(fileURL: directory.file("by-url.realm"))
        #expect(realm.configuration.fileURL?.lastPathComponent == "by-url.realm")
    }

    @Test func readOnlyOpenOfAMissingFileThrowsFileNotFound() {
        expectError(.fileNotFound) {
            try Realm(configuration: directory.configuration("missing.realm", readOnly: true))
        }
        #expect(!FileManager.default.fileExists(atPath: directory.file("missing.realm").path))
    }

    @Test func missingFolderThrowsFileNotFound() {
        let url = directory.url.appendingPathComponent("no/such/folder/x.realm")
        expectError(.fileNotFound) { try Realm(fileURL: url) }
    }

    @Test func readOnlyRealmsReadWhatWasWritten() throws {
        do {
            let realm = try directory.realm()
            try realm.write { realm.add(Dog(value: ["Rex", 1])) }
        }
        let readOnly = try Realm(configuration: directory.configuration(readOnly: true))
        #expect(readOnly.objects(Dog.self).first?.name == "Rex")
    }

    @Test func aFileThatIsNotBurrowsIsRejectedAndLeftUntouched() throws {
        let url = directory.file("notes.realm")
        let bytes = Data((0..<20_000).map { UInt8(truncatingIfNeeded: $0 * 7) })
        try bytes.write(to: url)
        expectError(.invalidDatabase) { try Realm(fileURL: url) }
        #expect(try Data(contentsOf: url) == bytes)
        #expect(!FileManager.default.fileExists(atPath: url.path + "-lock"))
    }

    @Test func anLMDBFileThatIsNotBurrowsIsRejectedAndLeftUntouched() throws {
        let url = directory.file("foreign.realm")
        try makeForeignLMDBFile(at: url.path)
        let before = try Data(contentsOf: url)
        expectError(.invalidDatabase) { try Realm(fileURL: url) }
        #expect(try Data(contentsOf: url) == before)
    }

    @Test func aNewerFormatVersionIsRefused() throws {
        let url = directory.file("future.realm")
        do {
            let realm = try Realm(fileURL: url)
            try realm.write { realm.add(Dog()) }
        }
        try rewriteHeader(at: url.path) { header in header[11] = 99 }
        expectError(.unsupportedFileFormatVersion) { try Realm(fileURL: url) }
    }

    @Test func schemaVersionIsStoredAndALowerOneIsRefused() throws {
        do {
            let realm = try Realm(configuration: directory.configuration(schemaVersion: 3))
            try realm.write { realm.add(Dog()) }
        }
        #expect(try Realm.schemaVersion(at: directory.file(), encryptionKey: TestDirectory.suiteKey) == 3)
        expectError(.schemaMismatch) {
            try Realm(configuration: directory.configuration(schemaVersion: 2))
        }
    }

    @Test func aChangedSchemaIsAMismatchWhenTheTypesAreListed() throws {
        do {
            let realm = try Realm(configuration: directory.configuration(objectTypes: [V1.Pet.self]))
            try realm.write { realm.add(V1.Pet(value: ["Tom"])) }
        }
        do {
            _ = try Realm(configuration: directory.configuration(objectTypes: [V2.Pet.self]))
            Issue.record("expected a schema mismatch")
        } catch let error as Realm.Error {
            #expect(error.code == .schemaMismatch)
            #expect(error.message.contains("Property 'Pet.legs' has been added."))
        }
    }

    @Test func theFileStoresEachClassAtItsFirstWrite() throws {
        let realm = try directory.realm()
        #expect(realm.fileSchema.objectSchema.isEmpty)
        try realm.write { realm.add(Dog()); realm.add(Person()) }
        #expect(realm.fileSchema.objectSchema.map(\.className) == ["Dog", "Person"])
        #expect(realm.fileSchema["Person"]?.primaryKeyProperty?.name == "id")
        #expect(realm.fileSchema["Dog"]?.properties.map(\.name) == ["name", "age"])
    }

    @Test func fileExistsAndDeleteFiles() throws {
        let configuration = directory.configuration("gone.realm")
        #expect(!Realm.fileExists(for: configuration))
        do {
            let realm = try Realm(configuration: configuration)
            try realm.write { realm.add(Dog()) }
            #expect(Realm.fileExists(for: configuration))
            expectError(.fileOperationFailed) { try Realm.deleteFiles(for: configuration) }
        }
        try Data("x".utf8).write(to: directory.file("gone.realm.note"))
        #expect(try Realm.deleteFiles(for: configuration))
        #expect(!Realm.fileExists(for: configuration))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).isEmpty)
        #expect(try !Realm.deleteFiles(for: configuration))
    }

    @Test(.plainFilesOnly("its child process opens the file with a configuration of its own")) func filesAnotherProcessHasOpenAreNotDeleted() async throws {
        let configuration = directory.configuration("shared.realm")
        let path = directory.file("shared.realm").path
        try Realm(configuration: configuration).write { try Realm(configuration: configuration).add(Dog()) }
        // The child keeps the file open until the parent removes the signal file.
        let signal = directory.file("release").path
        _ = FileManager.default.createFile(atPath: signal, contents: nil)
        let child = Task {
            _ = await #expect(processExitsWith: .success) { [path = path as String, signal = signal as String] in
                let realm = try! Realm(fileURL: URL(fileURLWithPath: path))
                _ = FileManager.default.createFile(atPath: path + ".opened", contents: nil)
                while FileManager.default.fileExists(atPath: signal) { usleep(10_000) }
                precondition(realm.objects(Dog.self).count == 1)
            }
        }
        while !FileManager.default.fileExists(atPath: path + ".opened") { try await Task.sleep(for: .milliseconds(10)) }
        expectError(.fileOperationFailed) { try Realm.deleteFiles(for: configuration) }
        #expect(FileManager.default.fileExists(atPath: path))
        unlink(signal)
        await child.value
        #expect(try Realm.deleteFiles(for: configuration))
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test func filePermissionsApplyToCreatedFiles() throws {
        var configuration = directory.configuration("private.realm")
        configuration.filePermissions = 0o600
        do { _ = try Realm(configuration: configuration) }
        let attributes = try FileManager.default.attributesOfItem(atPath: directory.file("private.realm").path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
    }

    @Test func theCreationHookSeesEveryNewFileOnce() throws {
        var configuration = directory.configuration("hooked.realm")
        let seen = LockedValue<[String]>([])
        configuration.fileCreationHook = { url in seen.set(seen.value + [url.lastPathComponent]) }
        do { _ = try Realm(configuration: configuration) }
        #expect(seen.value == ["hooked.realm", "hooked.realm-lock"])
        do { _ = try Realm(configuration: configuration) }
        #expect(seen.value.count == 2)
    }

    @Test func aThrowingCreationHookFailsTheOpenAndRemovesWhatItMade() throws {
        struct Refused: Error {}
        var configuration = directory.configuration("refused.realm")
        configuration.fileCreationHook = { _ in throw Refused() }
        #expect(throws: Refused.self) { try Realm(configuration: configuration) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).isEmpty)
        configuration.fileCreationHook = nil
        let realm = try Realm(configuration: configuration)
        try realm.write { realm.add(Dog()) }
        #expect(realm.objects(Dog.self).count == 1)
    }

    @Test func filePermissionsHoldWhateverTheUmask() async {
        await #expect(processExitsWith: .success) {
            umask(0o077)
            let directory = TestDirectory()
            var configuration = directory.configuration("shared.realm")
            configuration.filePermissions = 0o664
            do { _ = try! Realm(configuration: configuration) }
            for name in ["shared.realm", "shared.realm-lock"] {
                let mode = try! FileManager.default.attributesOfItem(atPath: directory.file(name).path)[.posixPermissions] as! Int
                precondition(mode == 0o664, "\(name) has mode \(String(mode, radix: 8))")
            }
        }
    }

    @Test(.enabled(if: getuid() != 0, "root reads every file whatever its mode"))
    func anUnreadableFileThrowsPermissionDenied() throws {
        let url = directory.file("locked.realm")
        do { _ = try Realm(fileURL: url) }
        chmod(url.path, 0)
        expectError(.filePermissionDenied) { try Realm(fileURL: url) }
        do {
            _ = try Realm(fileURL: url)
        } catch let error as Realm.Error {
            #expect(error.message == "Failed to open Realm file at path '\(url.path)': Permission denied. Please use a path where your app has read-write permissions.")
        }
    }

    @Test func openingErrorsReadAsRealmSwifts() throws {
        func failure(_ configuration: Realm.Configuration) -> Realm.Error? {
            do {
                _ = try Realm(configuration: configuration)
                return nil
            } catch {
                return error as? Realm.Error
            }
        }
        let throughAFile = failure(Realm.Configuration(fileURL: URL(fileURLWithPath: "/dev/null/foo")))
        #expect(throughAFile?.code == .fileOperationFailed)
        #expect(throughAFile?.message == "Failed to open file at path '/dev/null/foo': parent path is not a directory")
        let missing = directory.file("missing.realm")
        let readOnly = failure(Realm.Configuration(fileURL: missing, readOnly: true))
        #expect(readOnly?.code == .fileNotFound)
        #expect(readOnly?.message == "Failed to open Realm file at path '\(missing.path)': No such file or directory")
        #expect(readOnly?.fileURL == missing)
        let noFolder = directory.url.appendingPathComponent("none/x.realm")
        #expect(failure(Realm.Configuration(fileURL: noFolder))?.message == "Failed to open Realm file at path '\(noFolder.path)': No such file or directory")
        let foreign = directory.file("foreign.realm")
        #expect(FileManager.default.createFile(atPath: foreign.path, contents: Data("a".utf8)))
        let invalid = failure(Realm.Configuration(fileURL: foreign))
        #expect(invalid?.code == .invalidDatabase)
        #expect(invalid?.message.hasPrefix("Failed to open Realm file at path '\(foreign.path)': ") == true)
        do {
            _ = try Realm(configuration: Realm.Configuration(fileURL: URL(fileURLWithPath: "/dev/null/foo")))
            Issue.record("no error")
        } catch Realm.Error.fileOperationFailed {
        } catch {
            Issue.record("\(error)")
        }
    }

    @Test func inMemoryRealmsShareDataWhileAliveAndForgetItAfter() throws {
        let configuration = Realm.Configuration(inMemoryIdentifier: "memory-\(UUID().uuidString)")
        do {
            let realm = try Realm(configuration: configuration)
            try realm.write { realm.add(Dog(value: ["Rex", 1])) }
            #expect(Realm.fileExists(for: configuration))
            let seen = LockedValue(0)
            onAnotherThread {
                seen.set(try! Realm(configuration: configuration).objects(Dog.self).count)
            }
            #expect(seen.value == 1)
        }
        #expect(!Realm.fileExists(for: configuration))
        let again = try Realm(configuration: configuration)
        #expect(again.objects(Dog.self).isEmpty)
    }

    @Test func objectsAndResultsKeepTheThreadsInstance() throws {
        let configuration = directory.configuration("kept.realm")
        try Realm(configuration: configuration).write { try Realm(configuration: configuration).add(Dog(value: ["Rex", 1])) }
        var dog: Dog? = try Realm(configuration: configuration).objects(Dog.self).first
        var results: Results<Dog>? = try Realm(configuration: configuration).objects(Dog.self)
        // No `Realm` value is left, yet the thread's instance is the one they belong to.
        #expect(try Realm(configuration: configuration) == dog?.realm)
        dog = nil
        #expect(try Realm(configuration: configuration) == results?.realm)
        let rex = try #require(results?.first)  // an object read through the results
        results = nil
        #expect(try Realm(configuration: configuration) == rex.realm)
    }

    @Test func realmFilesCloseWhenTheLastInstanceGoes() throws {
        let configuration = directory.configuration("closing.realm")
        var dog: Dog?
        do {
            let realm = try Realm(configuration: configuration)
            dog = Dog()
            try realm.write { realm.add(dog!) }
        }
        #expect(Internals.isOpen(configuration))  // the managed object keeps its realm alive
        dog = nil
        #expect(!Internals.isOpen(configuration))
    }
}

/// A value shared between threads in tests.
final class LockedValue<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value
    init(_ value: Value) { stored = value }
    var value: Value { lock.withLock { stored } }
    func set(_ value: Value) { lock.withLock { stored = value } }
}

/// Carries a realm to another thread, which only a deliberate escape can do.
private final class RealmCarrier: @unchecked Sendable {
    var realm: Realm?
    init(_ realm: Realm) { self.realm = realm }
}

@Suite struct FileIdentityTests {
    @Test(.plainFilesOnly("it opens the file through paths with configurations of its own")) func everyPathToOneFileSharesOneCoordinator() throws {
        let directory = TestDirectory()
        let realm = try directory.realm()
        try realm.write { realm.add(Dog(value: ["name": "Rex"])) }
        let symlink = directory.file("link.realm")
        try FileManager.default.createSymbolicLink(at: symlink, withDestinationURL: directory.file())
        let hardLink = directory.file("hard.realm")
        try FileManager.default.linkItem(at: directory.file(), to: hardLink)
        let dotted = URL(fileURLWithPath: directory.url.path + "/./test.realm")
        for url in [symlink, hardLink, dotted] {
            let other = try Realm(configuration: Realm.Configuration(fileURL: url))
            #expect(other.internals.coordinator === realm.internals.coordinator, "\(url.path)")
            #expect(other.objects(Dog.self).map(\.name) == ["Rex"])
        }
    }

    @Test(.plainFilesOnly("it opens the file through paths with configurations of its own")) func aClassAddedThroughOnePathIsReadableThroughAnother() throws {
        let directory = TestDirectory()
        let realm = try directory.realm()
        let symlink = directory.file("link.realm")
        try FileManager.default.createSymbolicLink(at: symlink, withDestinationURL: directory.file())
        let viaLink = try Realm(configuration: Realm.Configuration(fileURL: symlink))
        // The table is created by the write through the link; the first realm sees it after refresh.
        try viaLink.write { viaLink.add(Person(value: ["id": 1, "name": "Jane"])) }
        realm.refresh()
        #expect(realm.object(ofType: Person.self, forPrimaryKey: 1)?.name == "Jane")
        try realm.write { realm.add(Person(value: ["id": 2, "name": "Joe"])) }
        viaLink.refresh()
        #expect(viaLink.objects(Person.self).count == 2)
    }
}
