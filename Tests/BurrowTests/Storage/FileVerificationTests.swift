@testable import Burrow
import Foundation
@testable import LMDB
import Testing

/// `Realm.verifyFile(at:)`: an intact file of every kind of record verifies, and damage that
/// Burrow decodes (rows, indexes, links, collections, the change log) is named, not trusted.
@Suite(.plainFilesOnly("it damages records of the unencrypted file in place and opens it with configurations of its own")) struct FileVerificationTests {
    let directory = TestDirectory()

    private static let types: [ObjectBase.Type] = [Person.self, Owner.self, Puppy.self, Kennel.self, Contact.self, Address.self, Geo.self,
                                                    Club.self, Ledger.self, Setting.self]

    /// A file with objects of every shape, closed again; returns the class id of each class.
    @discardableResult
    private func file() throws -> [String: UInt32] {
        let realm = try Realm(configuration: directory.configuration(objectTypes: Self.types))
        let token = realm.objects(Person.self).observe { _ in }  // so that commits log their changes
        defer { token.invalidate() }
        realm.refresh()
        try realm.write {
            for id in 0..<50 { realm.add(Person(value: ["id": id, "name": "person \(id) ✓"])) }
            let owner = Owner(value: ["id": 1, "name": "Ann"])
            realm.add(Puppy(value: ["name": "Rex", "owner": owner]))
            realm.add(Kennel(value: ["id": 1, "dogs": [["name": "a"], ["name": "b"]], "tags": ["x", "y"], "scores": [1, nil]]))
            realm.add(Contact(value: ["id": 1, "address": ["street": "Main", "geo": ["latitude": 1.5]], "previous": [["city": "Oslo"]]]))
            realm.add(Club(value: ["id": 1, "members": [owner], "languages": ["swift", String(repeating: "long ", count: 200)]]))
            realm.add(Ledger(value: ["id": 1, "scores": ["a": 1, "ключ": 2], "pets": ["rex": realm.objects(Puppy.self).first!]]))
            realm.add(Setting(value: ["name": "s", "value": AnyRealmValue.fromArray([.object(owner), .fromDictionary(["k": .int(1)])])]))
        }
        try realm.write { realm.delete(realm.objects(Person.self).filter("id < 10")) }
        return realm.internals.catalog.layouts.mapValues(\.classID)
    }

    /// Changes the closed file with LMDB directly, as damage would, but keeping each record's
    /// checksum whole (databases opened `sealed`): the checks behind the checksums are tested,
    /// which a file of the format before checksums meets (``RowChecksumTests`` test those).
    private func damage(_ change: (Transaction) throws -> Void) throws {
        #expect(!CoordinatorRegistry.isOpen(directory.configuration(objectTypes: Self.types)))
        var options = Environment.Options()
        options.sealer = RecordChecksums(active: true)
        let environment = try Environment.open(path: directory.file().path, options: options)
        let txn = try environment.beginTransaction()
        try change(txn)
        try txn.commit()
    }

    /// Deletes the row of the object whose integer primary key is `primaryKey`, and nothing else.
    private func deleteRow(of className: String, primaryKey: Int64, ids: [String: UInt32]) throws {
        try damage { txn in
            let rows = try txn.openDatabase(named: FileHeader.rowsName(classID: ids[className]!))
            try txn.delete(ObjectKeyBytes.primaryKey(primaryKey), in: rows)
        }
    }

    private func key(_ raw: UInt64) -> [UInt8] { withUnsafeBytes(of: raw.bigEndian, Array.init) }

    @Test func anIntactFileVerifies() throws {
        try file()
        let verification = try Realm.verifyFile(at: directory.file())
        #expect(verification.isIntact, "\(verification.problems)")
        #expect(verification.objectCounts["Person"] == 40)
        #expect(verification.objectCounts["Address"] == 2)
        #expect(verification.objectCounts["Geo"] == 1)
        #expect(verification.objectCounts["Puppy"] == 3)
        #expect(verification.recordsRead > 100)
    }

    @Test func anEmptyFileVerifies() throws {
        _ = try Realm(configuration: directory.configuration(objectTypes: []))
        let verification = try Realm.verifyFile(at: directory.file())
        #expect(verification.isIntact)
        #expect(verification.objectCounts.isEmpty)
    }

    @Test func aDamagedRowIsNamed() throws {
        let ids = try file()
        try damage { txn in
            let rows = try txn.openDatabase(named: FileHeader.rowsName(classID: ids["Person"]!), sealed: true)
            // Person 20 (its object key is its primary key's bits): a row claiming 7 columns in 9 bytes.
            try txn.put(ObjectKeyBytes.primaryKey(20), [7, 0, 0, 0, 0, 0, 0, 0, 0], in: rows)
        }
        let verification = try Realm.verifyFile(at: directory.file())
        #expect(!verification.isIntact)
        #expect(verification.problems.contains { $0.hasPrefix("Person object") && $0.contains("too short for its header") }, "\(verification.problems)")
    }

    @Test func aDamagedColumnIsNamedWithItsProperty() throws {
        let ids = try file()
        try damage { txn in
            let rows = try txn.openDatabase(named: FileHeader.rowsName(classID: ids["Person"]!), sealed: true)
            var row = try #require(try txn.value(for: ObjectKeyBytes.primaryKey(20), in: rows))
            // The first column's end offset points far past the row.
            let offsetsStart = 2 + (Int(row[0]) + 7) / 8
            row.replaceSubrange(offsetsStart..<offsetsStart + 4, with: [0xff, 0xff, 0, 0])
            try txn.put(ObjectKeyBytes.primaryKey(20), row, in: rows)
        }
        let verification = try Realm.verifyFile(at: directory.file())
        #expect(verification.problems.contains { $0.contains("Person object") && $0.contains("property 'id'") }, "\(verification.problems)")
    }

    @Test func aMissingIndexEntryAndAForeignOneAreFound() throws {
        let ids = try file()
        let nameProperty = try #require(Realm(configuration: directory.configuration(objectTypes: Self.types))
            .internals.catalog.layouts["Person"]?.storedClass.properties.first { $0.name == "name" }?.id)
        try damage { txn in
            let index = try txn.openDatabase(named: FileHeader.indexName(classID: ids["Person"]!, propertyID: nameProperty))
            let cursor = try txn.openCursor(index)
            _ = try cursor.first()
            try cursor.deleteCurrent()
        }
        let verification = try Realm.verifyFile(at: directory.file())
        #expect(verification.problems.contains { $0.contains("the index of 'name' has no entry for its value") }, "\(verification.problems)")
        #expect(verification.problems.contains { $0.contains("Person.name: the index holds 39 entries for 40 objects") }, "\(verification.problems)")
    }

    @Test func aLinkToADeletedObjectIsFound() throws {
        try deleteRow(of: "Owner", primaryKey: 1, ids: try file())
        let verification = try Realm.verifyFile(at: directory.file())
        #expect(verification.problems.contains { $0.contains("Puppy object") && $0.contains("links to Owner object") }, "\(verification.problems)")
        #expect(verification.problems.contains { $0.contains("Club.members of object") }, "\(verification.problems)")
        #expect(verification.problems.contains { $0.contains("Setting object") }, "\(verification.problems)")
        #expect(verification.problems.contains { $0.hasPrefix("the backlink index: Owner object") }, "\(verification.problems)")
    }

    @Test func anEmbeddedObjectWithoutItsOwnerIsFound() throws {
        try deleteRow(of: "Contact", primaryKey: 1, ids: try file())
        let verification = try Realm.verifyFile(at: directory.file())
        #expect(verification.problems.contains { $0.contains("Address object") && $0.contains("0 owners") }, "\(verification.problems)")
    }

    @Test func damagedCollectionEntriesAndChangeLogRecordsAreFound() throws {
        let ids = try file()
        let layout = try #require(Realm(configuration: directory.configuration(objectTypes: Self.types)).internals.catalog.layouts["Kennel"])
        let tags = try #require(layout.storedClass.properties.first { $0.name == "tags" }?.id)
        try damage { txn in
            let list = try txn.openDatabase(named: FileHeader.collectionName(classID: ids["Kennel"]!, propertyID: tags), sealed: true)
            let cursor = try txn.openCursor(list)
            let first = try #require(try cursor.first())
            try txn.put(Array(first.key), [9, 1, 2], in: list)
            let metadata = try txn.openDatabase(named: FileHeader.metadataDatabaseName)
            try txn.put(Array("changes/".utf8) + key(999_999), [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f], in: metadata)
        }
        let verification = try Realm.verifyFile(at: directory.file())
        #expect(verification.problems.contains { $0.hasPrefix("Kennel.tags of object") && $0.contains("no valid tag") }, "\(verification.problems)")
        #expect(verification.problems.contains { $0.hasPrefix("the change log: the record of version 999999") }, "\(verification.problems)")
    }

    @Test func manyProblemsAreCountedAndTheFirstListed() throws {
        let ids = try file()
        try damage { txn in
            let rows = try txn.openDatabase(named: FileHeader.rowsName(classID: ids["Person"]!))
            for id in 10..<50 { try txn.put(ObjectKeyBytes.primaryKey(Int64(id)), [1], in: rows) }
            for id in 1000..<1100 { try txn.put(ObjectKeyBytes.primaryKey(Int64(id)), [1], in: rows) }
        }
        let verification = try Realm.verifyFile(at: directory.file())
        #expect(verification.problemCount >= 140)
        #expect(verification.problems.count == Realm.FileVerification.listedProblemLimit)
    }

    /// A damaged name in LMDB's list of databases leaves a class's database unfound: opening,
    /// and checking, say the file is damaged and which database it lacks, for each kind.
    @Test(arguments: ["rows", "index", "collection"]) func aDatabaseTheFileLacksIsNamedAsDamage(kind: String) throws {
        try file()
        let name: String, what: String
        do {
            let layouts = try Realm(configuration: directory.configuration(objectTypes: Self.types)).internals.catalog.layouts
            func property(_ name: String, of className: String) -> UInt32 {
                layouts[className]!.storedClass.properties.first { $0.name == name }!.id
            }
            switch kind {
            case "rows": (name, what) = (FileHeader.rowsName(classID: layouts["Puppy"]!.classID), "the objects of 'Puppy'")
            case "index":
                (name, what) = (FileHeader.indexName(classID: layouts["Person"]!.classID, propertyID: property("name", of: "Person")),
                                "the 'name' index of 'Person'")
            default:
                (name, what) = (FileHeader.collectionName(classID: layouts["Kennel"]!.classID, propertyID: property("tags", of: "Kennel")),
                                "the 'tags' values of 'Kennel'")
            }
        }
        try damage { txn in try txn.drop(txn.openDatabase(named: name), delete: true) }
        let opening = try #require(throws: Realm.Error.self) { try Realm(configuration: directory.configuration(objectTypes: Self.types)) }
        #expect(opening.code == .invalidDatabase)
        #expect(opening.localizedDescription.contains("database of \(what) is missing"), "\(opening.localizedDescription)")
        let checking = try #require(throws: Realm.Error.self) { try Realm.verifyFile(at: directory.file()) }
        #expect(checking.code == .invalidDatabase)
    }

    @Test func aFileThatIsNotARealmThrows() throws {
        try Data("not a realm file at all".utf8).write(to: directory.file())
        #expect(throws: Realm.Error.self) { try Realm.verifyFile(at: directory.file()) }
        let missing = directory.file("missing.realm")
        let error = try #require(throws: Realm.Error.self) { try Realm.verifyFile(at: missing) }
        #expect(error.code == .fileNotFound)
    }
}

/// Object-key bytes of integer primary keys, as Burrow stores them.
enum ObjectKeyBytes {
    static func primaryKey(_ value: Int64) -> [UInt8] {
        withUnsafeBytes(of: (UInt64(bitPattern: value) ^ (1 << 63)).bigEndian, Array.init)
    }
}
