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
