import Burrow
import Foundation
@testable import LMDB
import Testing

/// Encrypted files: everything stored is sealed with the key, a wrong, missing or unexpected
/// key is refused without changing the file, and tampering is detected, never returned.
@Suite struct EncryptionTests {
    let directory = TestDirectory()

    private static let types: [ObjectBase.Type] = [Person.self, Owner.self, Puppy.self, Kennel.self, Club.self, Ledger.self]
    private static let key = Data((0..<64).map { UInt8(255 - $0) })
    private static let otherKey = Data((0..<64).map { UInt8($0) })

    private func configuration(key: Data? = EncryptionTests.key, readOnly: Bool = false) -> Realm.Configuration {
        var configuration = directory.configuration(objectTypes: Self.types, readOnly: readOnly)
        configuration.encryptionKey = key
        return configuration
    }

    /// A file holding a marker string in every kind of record: a row, an index, a primary key,
    /// a list, a set and a map.
    private func fill() throws {
        let realm = try Realm(configuration: configuration())
        try realm.write {
            for id in 0..<20 { realm.add(Person(value: ["id": id, "name": "secret-name-\(id)", "age": id])) }
            realm.add(Kennel(value: ["id": 1, "name": "secret-kennel", "tags": ["secret-tag", "b"], "dogs": [["name": "secret-dog", "age": 3]]]))
            realm.add(Club(value: ["id": 1, "languages": ["secret-language", "swift"]]))
            realm.add(Ledger(value: ["id": 1, "scores": ["secret-map-key": 7, "a": 1]]))
        }
    }

    private func fileBytes() throws -> Data {
        try Data(contentsOf: directory.file())
    }

    @Test func objectsRoundTripThroughAnEncryptedFile() throws {
        try fill()
        let realm = try Realm(configuration: configuration())
        #expect(realm.objects(Person.self).count == 20)
        #expect(realm.object(ofType: Person.self, forPrimaryKey: 7)?.name == "secret-name-7")
        let kennel = try #require(realm.object(ofType: Kennel.self, forPrimaryKey: 1))
        #expect(Array(kennel.tags) == ["secret-tag", "b"])
        #expect(kennel.dogs.first?.name == "secret-dog")
        #expect(kennel.dogs.first?.kennels.count == 1)
        let club = try #require(realm.object(ofType: Club.self, forPrimaryKey: 1))
        #expect(club.languages.contains("swift") && !club.languages.contains("rust"))
        #expect(Array(club.languages) == ["secret-language", "swift"])
        let ledger = try #require(realm.object(ofType: Ledger.self, forPrimaryKey: 1))
        #expect(ledger.scores["secret-map-key"] == 7)
        #expect(Array(ledger.scores.keys) == ["a", "secret-map-key"])
        try realm.write {
            ledger.scores["a"] = nil
            club.languages.remove("swift")
            kennel.tags.append("c")
        }
        #expect(Array(ledger.scores.keys) == ["secret-map-key"])
        #expect(Array(club.languages) == ["secret-language"])
        #expect(Array(kennel.tags) == ["secret-tag", "b", "c"])
    }

    @Test func nothingStoredIsReadableWithoutTheKey() throws {
        try fill()
        let bytes = try fileBytes()
        for marker in ["secret-name-7", "secret-kennel", "secret-tag", "secret-dog", "secret-language", "secret-map-key",
                       "Person", "Kennel", "nickname", "birthdate"] {
            #expect(bytes.range(of: Data(marker.utf8)) == nil, "'\(marker)' is readable in the file")
        }
        // The same file without encryption shows them: the check above can fail.
        let plain = TestDirectory()
        var unencrypted = plain.configuration(objectTypes: Self.types)
        unencrypted.encryptionKey = nil
        let realm = try Realm(configuration: unencrypted)
        try realm.write { realm.add(Person(value: ["id": 1, "name": "secret-name-7"])) }
        let plainBytes = try Data(contentsOf: plain.file())
        #expect(plainBytes.range(of: Data("secret-name-7".utf8)) != nil)
        #expect(plainBytes.range(of: Data("Person".utf8)) != nil)
    }

    @Test func queriesSortsAndRangesWorkOnEncryptedFiles() throws {
        try fill()
        let realm = try Realm(configuration: configuration())
        let people = realm.objects(Person.self)
        // Equality through the hashed index and the primary key.
        #expect(people.filter("name == %@", "secret-name-3").map(\.id) == [3])
        #expect(people.filter("name IN %@", ["secret-name-3", "secret-name-5", "nobody"]).map(\.id).sorted() == [3, 5])
        #expect(people.filter("id == 11").first?.name == "secret-name-11")
        // Ranges, prefixes and sorts by scanning.
        #expect(people.filter("id >= 15").count == 5)
        #expect(people.filter("name BEGINSWITH 'secret-name-1'").count == 11)
        #expect(people.sorted(byKeyPath: "name").first?.name == "secret-name-0")
        #expect(people.sorted(byKeyPath: "id", ascending: false).first?.id == 19)
        #expect(people.filter("age > 10").sorted(byKeyPath: "age").map(\.id) == Array(11..<20))
        // Index entries follow updates.
        try realm.write { realm.object(ofType: Person.self, forPrimaryKey: 3)!.name = "renamed" }
        #expect(people.filter("name == 'secret-name-3'").isEmpty)
        #expect(people.filter("name == 'renamed'").map(\.id) == [3])
        try realm.write { realm.delete(people.filter("id < 5")) }
        #expect(people.count == 15)
        #expect(realm.object(ofType: Person.self, forPrimaryKey: 3) == nil)
    }

    @Test func duplicatePrimaryKeysAreStillRefused() throws {
        let folder = TestDirectory()
        var configuration = folder.configuration(objectTypes: [Person.self])
        configuration.encryptionKey = Data(repeating: 1, count: 64)
        let realm = try Realm(configuration: configuration)
        try realm.write { realm.add(Person(value: ["id": 1, "name": "a"])) }
        let error = try #require(throws: Realm.Error.self) {
            try realm.write { _ = realm.create(Person.self, value: ["id": 1, "name": "b"]) }
        }
        #expect(error.code == .primaryKeyExists && error.message.contains("existing primary key"))
        #expect(realm.objects(Person.self).map(\.name) == ["a"])
    }

    @Test func aWrongMissingOrUnexpectedKeyIsRefusedAndChangesNothing() throws {
        try fill()
        let before = try fileBytes()
        for (key, words) in [(Self.otherKey, "not the file's"), (nil, "no encryption key was given")] as [(Data?, String)] {
            let error = #expect(throws: Realm.Error.self) { try Realm(configuration: configuration(key: key)) }
            #expect(error?.code == .invalidDatabase)
            #expect(error?.localizedDescription.contains(words) == true, "\(String(describing: error))")
        }
        #expect(throws: Realm.Error.self) { try Realm.schemaVersion(at: directory.file(), encryptionKey: Self.otherKey) }
        #expect(try Realm.schemaVersion(at: directory.file(), encryptionKey: Self.key) == 0)
        #expect(try fileBytes() == before)

        let plain = TestDirectory()
        var unencrypted = plain.configuration(objectTypes: Self.types)
        unencrypted.encryptionKey = nil
        _ = try Realm(configuration: unencrypted)
        var keyed = unencrypted
        keyed.encryptionKey = Self.key
        let error = #expect(throws: Realm.Error.self) { try Realm(configuration: keyed) }
        #expect(error?.code == .invalidDatabase)
        #expect(error?.localizedDescription.contains("not encrypted") == true)
    }

    @Test func aKeyOfTheWrongLengthThrows() throws {
        for length in [0, 32, 63, 65] {
            let error = #expect(throws: Realm.Error.self) { try Realm(configuration: configuration(key: Data(count: length))) }
            #expect(error?.localizedDescription.contains("exactly 64 bytes") == true)
        }
        #expect(!FileManager.default.fileExists(atPath: directory.file().path))
    }

    @Test func anotherKeyForAFileOpenInThisProcessIsRefused() throws {
        let realm = try Realm(configuration: configuration())
        for key in [Self.otherKey, nil] as [Data?] {
            let error = #expect(throws: Realm.Error.self) { try Realm(configuration: configuration(key: key)) }
            #expect(error?.code == .invalidDatabase)
        }
        #expect(try Realm(configuration: configuration()).configuration.fileURL == realm.configuration.fileURL)
    }

    /// Overwrites one sealed value of `database` in the closed file with `change`'s result.
    private func tamper(database name: String, skipping skipped: Int = 0, _ change: (inout [UInt8]) -> Void) throws {
        #expect(!Internals.isOpen(configuration()))
        let environment = try Environment.open(path: directory.file().path)
        let txn = try environment.beginTransaction()
        let database = try txn.openDatabase(named: name)
        let cursor = try txn.openCursor(database)
        var entry = try cursor.first()
        for _ in 0..<skipped { entry = try cursor.next() }
        let (key, value) = try #require(entry)
        var bytes = Array(value)
        change(&bytes)
        try txn.put(Array(key), bytes, in: database)
        try txn.commit()
    }

    /// The file the tamper test's child process reads: named by the test process's id, which
    /// the child finds as its parent's.
    private static func tamperedFile(ofProcess id: pid_t) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("burrow-tampered-\(id).realm")
    }

    @Test func aTamperedRowIsDetectedOnRead() async throws {
        try fill()
        try tamper(database: "t1") { $0[$0.count / 2] ^= 0x01 }
        let shared = Self.tamperedFile(ofProcess: getpid())
        try? FileManager.default.removeItem(at: shared)
        try FileManager.default.copyItem(at: directory.file(), to: shared)
        defer {
            try? FileManager.default.removeItem(at: shared)
            unlink(shared.path + "-lock")
        }
        let child = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            var configuration = Realm.Configuration(fileURL: EncryptionTests.tamperedFile(ofProcess: getppid()),
                                                    objectTypes: EncryptionTests.types)
            configuration.encryptionKey = EncryptionTests.key
            let realm = try! Realm(configuration: configuration)
            for person in realm.objects(Person.self) { _ = person.name }
        }
        let message = String(decoding: child?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("Person") && message.contains("authentication"), "\(message)")
    }

    /// A copy of the test's file where a child process finds it (by its path, passed in the exit
    /// test's capture list), named for this process and `name`.
    private func sharedCopy(named name: String) throws -> URL {
        let shared = FileManager.default.temporaryDirectory.appendingPathComponent("burrow-tampered-\(getpid())-\(name).realm")
        try? FileManager.default.removeItem(at: shared)
        try FileManager.default.copyItem(at: directory.file(), to: shared)
        return shared
    }

    private static func removeSharedCopy(_ shared: URL) {
        try? FileManager.default.removeItem(at: shared)
        unlink(shared.path + "-lock")
    }

    /// How a child process opens the copy at `path`.
    static func configuration(ofCopyAt path: String) -> Realm.Configuration {
        var configuration = Realm.Configuration(fileURL: URL(fileURLWithPath: path), objectTypes: types)
        configuration.encryptionKey = key
        return configuration
    }

    /// Scans and sorts read every row once, each decrypted into a cursor's own buffer: a row that
    /// does not open stops them as it stops any read.
    @Test(arguments: ["scan", "sort"]) func aTamperedRowStopsAQueryThatReadsEveryRow(_ read: String) async throws {
        try fill()
        try tamper(database: "t1", skipping: 7) { $0[$0.count / 2] ^= 0x01 }
        let shared = try sharedCopy(named: read)
        defer { Self.removeSharedCopy(shared) }
        let child = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) { [path = shared.path as String, read = read as String] in
            let configuration = EncryptionTests.configuration(ofCopyAt: path)
            let realm = try! Realm(configuration: configuration)
            let people = realm.objects(Person.self)
            // Both read past the tampered row whatever it holds.
            _ = read == "scan" ? people.filter("age > 100").count : people.sorted(byKeyPath: "name").count
        }
        let message = String(decoding: child?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("Person") && message.contains("authentication"), "\(message)")
    }

    @Test func sortsAndScansOfEveryRowReadEachRowAsAPointReadDoes() throws {
        try fill()
        let realm = try Realm(configuration: configuration())
        let people = realm.objects(Person.self)
        // Sort keys read by one walk of the table, against each object read on its own.
        let byName = people.sorted(byKeyPath: "name")
        let expected = (0..<20).map { "secret-name-\($0)" }.sorted()
        #expect(byName.map(\.name) == expected)
        #expect(people.sorted(byKeyPath: "age", ascending: false).map(\.id) == Array((0..<20).reversed()))
        // Keys that do not rise, and keys of deleted objects, in a filtered, sorted, distinct chain.
        try realm.write { realm.delete(people.filter("id IN {4, 9}")) }
        let chained = people.filter("age < 15").sorted(byKeyPath: "name", ascending: false).distinct(by: ["age"])
        #expect(chained.map(\.id) == [8, 7, 6, 5, 3, 2, 14, 13, 12, 11, 10, 1, 0])
        #expect(people.filter("name ENDSWITH '1'").sorted(byKeyPath: "id").map(\.id) == [1, 11])
        #expect(Array(people.sorted(byKeyPath: "name").value(forKey: "age") as! [Int]).count == 18)
    }

    @Test func countsOfALoneEqualityOnAnEncryptedIndexMatchWhatIsRead() throws {
        let realm = try Realm(configuration: configuration())
        let long = String(repeating: "ü", count: 150)  // 300 bytes: its index key hashes a truncated value
        try realm.write {
            for id in 0..<30 {
                realm.add(Person(value: ["id": id, "name": id % 3 == 0 ? "fizz" : id % 5 == 0 ? long + "\(id % 2)" : "p\(id)"]))
            }
        }
        let people = realm.objects(Person.self)
        for name in ["fizz", "p1", "p29", "nobody", "", long + "0", long + "1", long] {
            let read = people.filter { $0.name == name }.count
            #expect(people.filter("name == %@", name).count == read, "\(name.prefix(8))")
            #expect(people.where { $0.name == name }.count == read)
        }
        #expect(people.filter("name == 'fizz'").count == 10)
        // Counts follow writes, in the write and after it.
        try realm.write {
            realm.delete(people.filter("id IN {0, 3}"))
            people.filter("id == 1").first!.name = "fizz"
            #expect(people.filter("name == 'fizz'").count == 9)
        }
        #expect(people.filter("name == 'fizz'").count == 9)
        #expect(people.filter("name == 'p1'").count == 0)
    }

    /// A count of a lone equality on an encrypted index counts its entries: the rows of the
    /// matches are not read (here they do not open, and a read would stop the process), while
    /// reading the matches as objects checks each row.
    @Test func aCountOfALoneEqualityReadsNoRow() async throws {
        try fill()
        for skipped in [3, 4, 5] { try tamper(database: "t1", skipping: skipped) { $0[$0.count / 2] ^= 0x01 } }
        let shared = try sharedCopy(named: "count")
        defer { Self.removeSharedCopy(shared) }
        await #expect(processExitsWith: .success) { [path = shared.path as String] in
            let configuration = EncryptionTests.configuration(ofCopyAt: path)
            let people = try! Realm(configuration: configuration).objects(Person.self)
            let counts = [people.filter("name == 'secret-name-4'").count, people.where { $0.name == "secret-name-3" }.count,
                          people.filter("name == 'nobody'").count]
            exit(counts == [1, 1, 0] ? 0 : 1)
        }
        let child = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) { [path = shared.path as String] in
            let configuration = EncryptionTests.configuration(ofCopyAt: path)
            let people = try! Realm(configuration: configuration).objects(Person.self)
            _ = people.filter("name == 'secret-name-4'").first
        }
        let message = String(decoding: child?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("Person") && message.contains("authentication"), "\(message)")
    }

    @Test func aValueMovedToAnotherObjectDoesNotOpen() throws {
        try fill()
        var stolen: [UInt8] = []
        try tamper(database: "t1") { stolen = $0 }
        try tamper(database: "t1", skipping: 1) { $0 = stolen }
        let report = try Realm.verifyFile(at: directory.file(), encryptionKey: Self.key)
        #expect(!report.isIntact)
        // The moved row is named, and the check goes on past it.
        #expect(report.problems.contains { $0.hasPrefix("Person: object ") && $0.contains("authentication") }, "\(report.problems)")
        #expect(report.objectCounts["Person"] == 19)  // the other objects, all read
    }

    @Test func anIntactEncryptedFileVerifies() throws {
        try fill()
        let report = try Realm.verifyFile(at: directory.file(), encryptionKey: Self.key)
        #expect(report.isIntact, "\(report.problems)")
        #expect(throws: Realm.Error.self) { try Realm.verifyFile(at: directory.file(), encryptionKey: Self.otherKey) }
    }

    @Test func notificationsAndTheChangeLogWorkOnEncryptedFiles() throws {
        let realm = try Realm(configuration: configuration())
        var changes: [(deletions: [Int], insertions: [Int], modifications: [Int])] = []
        let token = realm.objects(Person.self).sorted(byKeyPath: "id").observe { change in
            if case .update(_, let deletions, let insertions, let modifications) = change { changes.append((deletions, insertions, modifications)) }
        }
        defer { token.invalidate() }
        realm.refresh()
        try realm.write { realm.add(Person(value: ["id": 1, "name": "a"])); realm.add(Person(value: ["id": 2, "name": "b"])) }
        try realm.write { realm.object(ofType: Person.self, forPrimaryKey: 2)!.name = "c" }
        // Another realm on another thread writes: its commit reaches this one through the log.
        let thread = ConfinedThread()
        defer { thread.stop() }
        try thread.run {
            let other = try Realm(configuration: configuration())
            try other.write { other.delete(other.object(ofType: Person.self, forPrimaryKey: 1)!) }
        }
        realm.refresh()
        #expect(changes.count == 3)
        #expect(changes.first?.insertions == [0, 1])
        #expect(changes.dropFirst().first?.modifications == [1])
        #expect(changes.last?.deletions == [0])
    }

    @Test func compactedCopiesKeepTheKey() throws {
        try fill()
        let realm = try Realm(configuration: configuration())
        let copy = directory.file("copy.realm")
        try realm.writeCopy(toFile: copy, encryptionKey: Self.key)
        var copied = configuration()
        copied.fileURL = copy
        #expect(try Realm(configuration: copied).objects(Person.self).count == 20)
        copied.encryptionKey = nil
        #expect(throws: Realm.Error.self) { try Realm(configuration: copied) }
    }
}

/// `writeCopy(toFile:encryptionKey:)` with another key than the file's: encryption added,
/// changed and removed, every object, element, index and key kept.
@Suite struct ReencryptedCopyTests {
    let directory = TestDirectory()

    private static let types: [ObjectBase.Type] = [Person.self, Owner.self, Puppy.self, Kennel.self, Club.self, Ledger.self]
    private static let firstKey = Data((0..<64).map { UInt8(100 + $0) })
    private static let secondKey = Data((0..<64).map { UInt8(200 - $0) })

    private func configuration(_ name: String, key: Data?) -> Realm.Configuration {
        var configuration = directory.configuration(name, objectTypes: Self.types)
        configuration.encryptionKey = key
        return configuration
    }

    /// Everything the file holds, as text, in an order that does not depend on storage.
    private func contents(of realm: Realm) -> [String] {
        var lines = realm.objects(Person.self).sorted(byKeyPath: "id").map { "person \($0.id) \($0.name) \($0.age ?? -1)" }
        for kennel in realm.objects(Kennel.self) {
            lines.append("kennel \(kennel.id) \(Array(kennel.tags)) \(kennel.dogs.map { "\($0.name)/\($0.owner?.name ?? "-")" })")
        }
        for club in realm.objects(Club.self) { lines.append("club \(club.id) \(Array(club.languages)) \(club.members.map(\.id).sorted())") }
        for ledger in realm.objects(Ledger.self) {
            lines.append("ledger \(ledger.id) \(ledger.scores.keys.map { "\($0)=\(ledger.scores[$0]!)" }) \(ledger.pets.keys.map { "\($0)=\(ledger.pets[$0]??.name ?? "-")" })")
        }
        // Indexed and primary-key lookups, and backlinks.
        lines.append("by name \(realm.objects(Person.self).filter("name == 'p-7'").map(\.id))")
        lines.append("by key \(realm.object(ofType: Owner.self, forPrimaryKey: 2)?.name ?? "-") \(realm.object(ofType: Owner.self, forPrimaryKey: 2)?.puppies.count ?? -1)")
        return lines
    }

    @Test func copiesAddChangeAndRemoveEncryption() throws {
        let realm = try Realm(configuration: configuration("plain.realm", key: nil))
        try realm.write {
            for id in 0..<30 { realm.add(Person(value: ["id": id, "name": "p-\(id)", "age": id % 7])) }
            let ann = Owner(value: ["id": 2, "name": "Ann"])
            realm.add(Kennel(value: ["id": 1, "tags": ["x", "ключ", String(repeating: "long", count: 80)],
                                     "dogs": [["name": "rex", "owner": ann], ["name": "bo"]]]))
            realm.add(Club(value: ["id": 1, "members": [ann], "languages": ["swift", "c", String(repeating: "é", count: 300)]]))
            realm.add(Ledger(value: ["id": 1, "scores": ["b": 2, "a": 1, String(repeating: "k", count: 300): 3],
                                     "pets": ["rex": realm.objects(Puppy.self).filter("name == 'rex'").first!]]))
        }
        let expected = contents(of: realm)
        let steps: [(from: Realm, name: String, key: Data?)] = [(realm, "first.realm", Self.firstKey)]
        var previous = realm
        for (name, key) in steps.map({ ($0.name, $0.key) }) + [("second.realm", Self.secondKey), ("plain-again.realm", nil)] {
            try previous.writeCopy(toFile: directory.file(name), encryptionKey: key)
            let copy = try Realm(configuration: configuration(name, key: key))
            #expect(contents(of: copy) == expected, "\(name)")
            #expect(try Realm.verifyFile(at: directory.file(name), encryptionKey: key).isIntact)
            // The copy takes writes: its counters, indexes and set and map keys carried over.
            try copy.write { copy.add(Person(value: ["id": 100, "name": "new"])) }
            #expect(copy.objects(Person.self).filter("name == 'new'").count == 1)
            try copy.write { copy.delete(copy.object(ofType: Person.self, forPrimaryKey: 100)!) }
            previous = copy
        }
        let error = #expect(throws: Realm.Error.self) { try realm.writeCopy(toFile: directory.file("first.realm"), encryptionKey: Self.secondKey) }
        #expect(error?.code == .fileExists)
        #expect(throws: Realm.Error.self) { try realm.writeCopy(toFile: directory.file("short.realm"), encryptionKey: Data(count: 10)) }
        #expect(!FileManager.default.fileExists(atPath: directory.file("short.realm").path))
    }
}
