import Burrow
import Foundation
import Testing

/// LMDB checks no keys: a damaged byte in the key of an object's entry leaves the entry among
/// keys it no longer sorts with, and a lookup of that object finds nothing. A primary-key
/// lookup that finds nothing checks the entries beside the place it looked, so that such
/// damage stops the read with a message naming it instead of reading the object as absent.
@Suite struct DamagedKeyTests {
    let directory = TestDirectory()

    /// The offset of the one place `needle` is the whole key of a node of an LMDB page in
    /// the file at `url`: the node's header ends with the key's size (16 bits, little-endian).
    private func onlyNodeKeyOffset(of needle: [UInt8], in url: URL) throws -> Int {
        let bytes = [UInt8](try Data(contentsOf: url))
        var found: [Int] = []
        var start = 2
        while let first = bytes[start...].firstIndex(of: needle[0]), first + needle.count <= bytes.count {
            if Array(bytes[first..<first + needle.count]) == needle,
               Int(bytes[first - 2]) | Int(bytes[first - 1]) << 8 == needle.count {
                found.append(first)
            }
            start = first + 1
        }
        try #require(found.count == 1, "the key is the key of \(found.count) nodes in the file")
        return found[0]
    }

    /// Flips the lowest bit of the byte at `offset`.
    private func flipBit(at offset: Int, in url: URL) throws {
        var bytes = try Data(contentsOf: url)
        bytes[offset] ^= 0x01
        try bytes.write(to: url)
    }

    @Test func absentPrimaryKeysOfAnIntactFileReadAsAbsent() throws {
        let realm = try directory.realm()
        #expect(realm.object(ofType: StringKeyed.self, forPrimaryKey: "none") == nil)
        #expect(realm.object(ofType: Person.self, forPrimaryKey: 5) == nil)
        try realm.write {
            for id in [10, 20, 30] {
                realm.create(StringKeyed.self, value: ["key": "key-\(id)"])
                realm.add(Person(value: ["id": id, "name": "p\(id)"]))
            }
        }
        for absent in ["", "key-0", "key-15", "key-99", "zzz", "ключ"] {
            #expect(realm.object(ofType: StringKeyed.self, forPrimaryKey: absent) == nil)
        }
        for absent in [Int.min, -1, 0, 15, 25, 31, Int.max] {
            #expect(realm.object(ofType: Person.self, forPrimaryKey: absent) == nil)
        }
        #expect(realm.object(ofType: StringKeyed.self, forPrimaryKey: "key-20")?.key == "key-20")
        #expect(realm.object(ofType: Person.self, forPrimaryKey: 20)?.name == "p20")
    }

    /// A branch page whose key for one leaf is damaged upwards leads a lookup of the leaf's
    /// first objects to the leaf before, where they are not. The miss is searched again with a
    /// cursor, whose path shows the key sought outside the range of the branch node it followed:
    /// the lookup reports the damaged page, instead of reading the object as absent.
    @Test(.plainFilesOnly("a plain file's rows are keyed by their integer primary keys, which its branch pages name"))
    func aLookupADamagedBranchPageLeadsAstrayIsReportedNotReadAsAbsent() async throws {
        let url = directory.file()
        let ids = 1_000_000_000..<1_000_003_000
        var rowKeys: [[UInt8]: Int] = [:]
        do {
            let realm = try directory.realm()
            try realm.write {
                for id in ids { realm.add(Person(value: ["id": id, "name": "p\(id)"])) }
            }
            for id in ids {
                rowKeys[try realm.internals.primaryKeyLookupKey(of: realm.object(ofType: Person.self, forPrimaryKey: id)!).bytes] = id
            }
        }
        // The second entry of the rows' branch page names its leaf by that leaf's first key.
        var bytes = [UInt8](try Data(contentsOf: url))
        let pageSize = 4_096
        func u16(_ offset: Int) -> Int { Int(bytes[offset]) | Int(bytes[offset + 1]) << 8 }
        var damaged: (offset: Int, id: Int)?
        for page in stride(from: 2 * pageSize, to: bytes.count, by: pageSize) where u16(page + 10) & 0x01 != 0 {
            let node = page + u16(page + 18)
            guard u16(node + 6) == 8, let id = rowKeys[Array(bytes[node + 8..<node + 16])] else { continue }
            damaged = (node + 8, id)
        }
        let (offset, firstID) = try #require(damaged, "no branch page of the rows found")
        let higher = try #require(rowKeys.first { $0.value == firstID + 5 }?.key)
        bytes.replaceSubrange(offset..<offset + 8, with: higher)
        try Data(bytes).write(to: url)
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            [path = url.path as String, sought = (firstID + 1) as Int] in
            let realm = try Realm(configuration: Realm.Configuration(fileURL: URL(fileURLWithPath: path)))
            precondition(realm.object(ofType: Person.self, forPrimaryKey: 1_000_000_000)?.name == "p1000000000")
            _ = realm.object(ofType: Person.self, forPrimaryKey: sought)
        }
        expectMessage(result, "a page holding the objects of 'Person' does not have the shape of a sound page")
    }

    /// Where in a key a byte is damaged: near its start, or its last byte (in an encrypted
    /// file, and for long strings, the object key a primary-key entry's key ends with).
    enum Place: CaseIterable { case start, end }

    private func offset(_ place: Place, ofKeyAt start: Int, count: Int) -> Int {
        place == .start ? start + 1 : start + count - 1
    }

    @Test(arguments: Place.allCases)
    func aDamagedPrimaryKeyIndexEntryIsReportedNotReadAsAbsent(_ place: Place) async throws {
        let url = directory.file()
        let indexKey: [UInt8]
        do {
            let realm = try directory.realm()
            try realm.write {
                for id in 0..<40 { realm.create(StringKeyed.self, value: ["key": String(format: "key-%03d", id), "value": id]) }
            }
            indexKey = try realm.internals.primaryKeyLookupKey(of: realm.object(ofType: StringKeyed.self, forPrimaryKey: "key-017")!).bytes
        }
        try flipBit(at: offset(place, ofKeyAt: try onlyNodeKeyOffset(of: indexKey, in: url), count: indexKey.count), in: url)
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) { [path = url.path as String] in
            var configuration = Realm.Configuration(fileURL: URL(fileURLWithPath: path))
            configuration.encryptionKey = TestDirectory.suiteKey
            let realm = try Realm(configuration: configuration)
            // The neighbours still read, and so does a key absent from another part of the index.
            precondition(realm.object(ofType: StringKeyed.self, forPrimaryKey: "key-016")?.value == 16)
            precondition(realm.object(ofType: StringKeyed.self, forPrimaryKey: "key-018")?.value == 18)
            _ = realm.object(ofType: StringKeyed.self, forPrimaryKey: "key-017")
        }
        expectDamage(result, in: "the primary-key index of 'StringKeyed'", entry: "holds a damaged entry for object")
        expectMessage(result, url.path)
    }

    @Test(arguments: Place.allCases)
    func aDamagedIntegerKeyIsReportedNotReadAsAbsent(_ place: Place) async throws {
        let url = directory.file()
        let lookupKey: (bytes: [UInt8], isRowKey: Bool)
        let firstID = 1_000_000_000
        do {
            let realm = try directory.realm()
            try realm.write {
                for id in firstID..<firstID + 40 { realm.add(Person(value: ["id": id, "name": "p\(id)"])) }
            }
            lookupKey = try realm.internals.primaryKeyLookupKey(of: realm.object(ofType: Person.self, forPrimaryKey: firstID + 17)!)
        }
        // An unencrypted file finds the object by its row's key, an encrypted one through the
        // primary-key index (its object keys are not its primary keys).
        #expect(lookupKey.isRowKey == (TestDirectory.suiteKey == nil))
        let start = try onlyNodeKeyOffset(of: lookupKey.bytes, in: url)
        try flipBit(at: offset(place, ofKeyAt: start, count: lookupKey.bytes.count), in: url)
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) { [path = url.path as String] in
            var configuration = Realm.Configuration(fileURL: URL(fileURLWithPath: path))
            configuration.encryptionKey = TestDirectory.suiteKey
            let realm = try Realm(configuration: configuration)
            precondition(realm.object(ofType: Person.self, forPrimaryKey: 1_000_000_018)?.name == "p1000000018")
            _ = realm.object(ofType: Person.self, forPrimaryKey: 1_000_000_017)
        }
        if lookupKey.isRowKey {
            expectDamage(result, in: "the objects of 'Person'", entry: "does not match its checksum")
        } else {
            expectDamage(result, in: "the primary-key index of 'Person'", entry: "holds a damaged entry for object")
        }
    }

    /// How a query reads an index: its count alone, or its objects.
    enum QueryRead: String, CaseIterable, Codable, Sendable { case count, objects }

    // The object key that ends an index entry is not checked by the count of a lone equality,
    // which counts the index's entries without reading rows: damage there leaves the count
    // right (an encrypted file's, below) and leads the objects read to another object
    // (verifyFile reports it). An encrypted file's equality reads the rows of the objects it
    // returns, and checks the entries of those that do not match.
    @Test(arguments: [(Place.start, QueryRead.count), (.start, .objects)]
                     + (TestDirectory.suiteKey == nil ? [] : [(.end, .objects)]))
    func aDamagedIndexEntryIsReportedNotCountedOut(_ place: Place, _ read: QueryRead) async throws {
        let url = try damagedIndexEntry(at: place)
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) { [path = url.path as String, read] in
            var configuration = Realm.Configuration(fileURL: URL(fileURLWithPath: path))
            configuration.encryptionKey = TestDirectory.suiteKey
            let realm = try Realm(configuration: configuration)
            let named = realm.objects(Person.self).filter("name == %@", "name-017")
            switch read {
            case .count: _ = named.count
            case .objects: _ = Array(named)
            }
        }
        expectDamage(result, in: "the index of 'name' of 'Person'", entry: "holds a damaged entry for object")
    }

    @Test(.disabled(if: TestDirectory.suiteKey == nil, "an unencrypted file's objects are read from the entry, not checked against rows"))
    func aCountOfAnEncryptedIndexWhoseEntryLeadsToAnotherObjectIsStillRight() async throws {
        let url = try damagedIndexEntry(at: .end)
        await #expect(processExitsWith: .success) { [path = url.path as String] in
            var configuration = Realm.Configuration(fileURL: URL(fileURLWithPath: path))
            configuration.encryptionKey = TestDirectory.suiteKey
            let realm = try Realm(configuration: configuration)
            exit(realm.objects(Person.self).filter("name == %@", "name-017").count == 1 ? 0 : 1)
        }
    }

    @Test(.disabled(if: TestDirectory.suiteKey == nil, "an unencrypted file's objects are read from the entry, not checked against rows"))
    func anEncryptedIndexEntryLeadingToNoObjectIsReportedNotLeftOut() async throws {
        let (url, entryKey) = try peopleWithIndexEntryKey()
        // The entry's object key (its last 8 bytes) now names object 5000, which does not exist;
        // the hashed value before it keeps the entry in its place.
        let end = try onlyNodeKeyOffset(of: entryKey, in: url) + entryKey.count
        var bytes = try Data(contentsOf: url)
        bytes.replaceSubrange(end - 8..<end, with: withUnsafeBytes(of: UInt64(5000).bigEndian) { Data($0) })
        try bytes.write(to: url)
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) { [path = url.path as String] in
            var configuration = Realm.Configuration(fileURL: URL(fileURLWithPath: path))
            configuration.encryptionKey = TestDirectory.suiteKey
            let realm = try Realm(configuration: configuration)
            let named = realm.objects(Person.self).filter("name == %@", "name-017")
            precondition(named.count == 1)
            _ = Array(named)
        }
        expectDamage(result, in: "the index of 'name' of 'Person'", entry: "holds a damaged entry for object 5000: no such object has a row")
    }

    /// A file of 40 people whose index entry for `name-017` has a bit flipped at `place`.
    private func damagedIndexEntry(at place: Place) throws -> URL {
        let (url, entryKey) = try peopleWithIndexEntryKey()
        try flipBit(at: offset(place, ofKeyAt: try onlyNodeKeyOffset(of: entryKey, in: url), count: entryKey.count), in: url)
        return url
    }

    /// A closed file of 40 people named `name-000`…, and the key of the index entry of `name-017`.
    private func peopleWithIndexEntryKey() throws -> (URL, [UInt8]) {
        let realm = try directory.realm()
        try realm.write {
            for id in 0..<40 { realm.add(Person(value: ["id": id, "name": String(format: "name-%03d", id)])) }
        }
        let entryKey = try realm.internals.indexEntryKey(of: realm.object(ofType: Person.self, forPrimaryKey: 17)!, property: "name")
        #expect(realm.objects(Person.self).filter("name == %@", "name-017").count == 1)
        #expect(realm.objects(Person.self).filter("name == %@", "absent").count == 0)
        return (directory.file(), entryKey)
    }

    /// Checks that the child stopped on damage to `structure`: at the damaged entry (its
    /// message ends with `entry`), or, when the flipped bit broke the order of the page's keys,
    /// at the page holding it, found before the entry was reached.
    private func expectDamage(_ result: ExitTest.Result?, in structure: String, entry: String,
                              sourceLocation: SourceLocation = #_sourceLocation) {
        let output = result.map { String(decoding: $0.standardErrorContent, as: UTF8.self) } ?? ""
        let atPage = output.contains("The file is damaged: a page holding \(structure) does not have the shape of a sound page")
        let atEntry = output.contains("The file is damaged: ") && output.contains(entry)
            && (output.contains(structure) || structure.hasPrefix("the objects of") && output.contains("of '\(structure.split(separator: "'")[1])'"))
        #expect(atPage || atEntry, "child process printed: \(output)", sourceLocation: sourceLocation)
    }
}
