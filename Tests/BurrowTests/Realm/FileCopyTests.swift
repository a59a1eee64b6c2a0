import Burrow
import Foundation
import Testing

@Suite struct FileCopyTests {
    let directory = TestDirectory()

    @Test(.plainFilesOnly("its copies are made without the key")) func aCopyHoldsTheDataWithoutTheFreePages() throws {
        let realm = try directory.realm()
        try realm.write {
            for id in 0..<3000 { realm.add(Person(value: ["id": id, "name": String(repeating: "n", count: 200)])) }
        }
        try realm.write { realm.delete(realm.objects(Person.self).filter("id >= 10")) }
        let copy = directory.file("copy.realm")
        try realm.writeCopy(toFile: copy)
        #expect(try fileSize(copy) < fileSize(directory.file()) / 4)
        let reopened = try Realm(configuration: directory.configuration("copy.realm"))
        #expect(reopened.objects(Person.self).count == 10)
        #expect(reopened.object(ofType: Person.self, forPrimaryKey: 9)?.name.count == 200)
        try reopened.write { reopened.add(Person(value: ["id": 10_000])) }
        #expect(realm.objects(Person.self).count == 10)
    }

    @Test func aCopyForAConfigurationIsWrittenWhereItSaysWithItsKey() throws {
        // RealmSwift's testWriteCopyForConfiguration, and an encrypted destination.
        let realm = try directory.realm()
        try realm.write { for id in 0..<50 { realm.add(Person(value: ["id": id, "name": "p\(id)"])) } }
        var destination = directory.configuration("destination.realm")
        destination.encryptionKey = Data((0..<64).map { UInt8($0) })
        try realm.writeCopy(configuration: destination)
        let copy = try Realm(configuration: destination)
        #expect(copy.objects(Person.self).count == 50 && copy.object(ofType: Person.self, forPrimaryKey: 7)?.name == "p7")
        #expect(copy.objects(Person.self).filter("name == 'p9'").count == 1)  // indexes rebuilt
        try copy.write { copy.add(Person(value: ["id": 50])) }
        #expect(copy.objects(Person.self).count == 51 && realm.objects(Person.self).count == 50)
        let frozen = copy.freeze()
        #expect(frozen.isFrozen && frozen.objects(Person.self).isFrozen)
        var withoutKey = destination
        withoutKey.encryptionKey = nil
        #expect(throws: Realm.Error.self) { try Realm(configuration: withoutKey) }
        #expect(try Realm.syncStatus(ofFileAt: destination.fileURL!, encryptionKey: destination.encryptionKey) == nil)
        expectError(.fileExists) { try realm.writeCopy(configuration: destination) }
    }

    @Test func aCopyForAConfigurationWithoutAFileTraps() async {
        await #expect(processExitsWith: .failure) {
            let directory = TestDirectory()
            let realm = try! directory.realm()
            try? realm.writeCopy(configuration: Realm.Configuration(inMemoryIdentifier: "copy"))
        }
    }

    @Test func anExistingFileIsNeverOverwritten() throws {
        let realm = try directory.realm()
        let existing = directory.file("existing.realm")
        try Data("keep".utf8).write(to: existing)
        expectError(.fileExists) { try realm.writeCopy(toFile: existing) }
        #expect(try Data(contentsOf: existing) == Data("keep".utf8))
        let missingFolder = directory.url.appendingPathComponent("nowhere/copy.realm")
        expectError(.fileNotFound) { try realm.writeCopy(toFile: missingFolder) }
    }

    @Test func anEncryptionKeyOfTheWrongLengthIsRefusedAndWritesNothing() throws {
        let realm = try directory.realm()
        let target = directory.file("secret.realm")
        expectError(.invalidDatabase) { try realm.writeCopy(toFile: target, encryptionKey: Data(count: 32)) }
        #expect(!FileManager.default.fileExists(atPath: target.path))
    }

    @Test func copyingInsideAWriteTraps() async {
        await #expect(processExitsWith: .failure) {
            let directory = TestDirectory()
            let realm = try! directory.realm()
            realm.beginWrite()
            try? realm.writeCopy(toFile: directory.file("copy.realm"))
        }
    }

    @Test(.plainFilesOnly("its copies are made without the key")) func aSeedFileIsCopiedInOnlyWhenTheFileIsMissing() throws {
        let seedRealm = try Realm(configuration: directory.configuration("seed.realm"))
        try seedRealm.write { seedRealm.add(Dog(value: ["Seed", 1])) }
        try seedRealm.writeCopy(toFile: directory.file("starter.realm"))
        var configuration = directory.configuration("app.realm")
        configuration.seedFilePath = directory.file("starter.realm")
        let realm = try Realm(configuration: configuration)
        #expect(realm.objects(Dog.self).map(\.name) == ["Seed"])
        try realm.write { realm.add(Dog(value: ["Mine", 2])) }
        // Once the file exists the seed is not copied again.
        var again = directory.configuration("app.realm")
        again.seedFilePath = directory.file("starter.realm")
        #expect(try Realm(configuration: again).objects(Dog.self).count == 2)
    }

    @Test func aMissingSeedThrowsAndCreatesNothing() throws {
        var configuration = directory.configuration("app.realm")
        configuration.seedFilePath = directory.file("absent.realm")
        expectError(.fileNotFound) { try Realm(configuration: configuration) }
        #expect(!FileManager.default.fileExists(atPath: directory.file("app.realm").path))
    }

    @Test func aTinyForeignFileIsReportedAsTooSmall() throws {
        try Data("a".utf8).write(to: directory.file())
        do {
            _ = try directory.realm()
            Issue.record("a one-byte file opened")
        } catch let error as Realm.Error {
            #expect(error.code == .invalidDatabase)
            #expect(error.localizedDescription.contains("file is non-empty but too small (1 bytes) to be a valid Realm."))
        }
        #expect(try Data(contentsOf: directory.file()) == Data("a".utf8))
    }
}
