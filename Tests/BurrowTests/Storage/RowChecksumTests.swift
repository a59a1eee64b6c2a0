import Burrow
import CRC32C
import Foundation
import Testing

/// Rows and collection entries of an unencrypted file end with a CRC-32C of their database,
/// key and bytes (format 4): a changed byte is damage that is reported, never a different
/// value read. Files of format 3, written before, keep opening; copies and compaction write
/// the new format.
@Suite(.plainFilesOnly("checksums are the unencrypted file's (an encrypted file's values are authenticated)"))
struct RowChecksumTests {
    let directory = TestDirectory()

    @Test func theChecksumIsCRC32C() {
        // The check value of CRC-32C (RFC 3720, B.4), and 32 bytes of zeros.
        #expect(burrow_crc32c(0, Array("123456789".utf8), 9) == 0xE306_9283)
        #expect(burrow_crc32c(0, [UInt8](repeating: 0, count: 32), 32) == 0x8A91_36AA)
        // Computed in pieces as in one go.
        let text = Array("The quick brown fox jumps over the lazy dog, twice over".utf8)
        let whole = burrow_crc32c(0, text, text.count)
        let split = burrow_crc32c(burrow_crc32c(0, text, 13), Array(text[13...]), text.count - 13)
        #expect(whole == split)
        // Every length and alignment against a bit-by-bit CRC-32C: the tail after the last
        // whole word is taken 4, 2 and 1 bytes at a time.
        let bytes = (0..<64).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
        for start in 0..<8 {
            for length in 0...(bytes.count - start) {
                let piece = Array(bytes[start..<start + length])
                #expect(burrow_crc32c(0, piece, length) == Self.bitwiseCRC32C(piece), "\(start), \(length)")
            }
        }
    }

    /// CRC-32C one bit at a time (reflected polynomial 0x82F63B78).
    private static func bitwiseCRC32C(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0x82F6_3B78 : crc >> 1 }
        }
        return ~crc
    }

    /// A file of people whose names hold `marker`, closed again.
    private func file(named name: String = "test.realm", marker: String) throws -> URL {
        let url = directory.file(name)
        let realm = try Realm(fileURL: url)
        try realm.write {
            for id in 0..<50 { realm.add(Person(value: ["id": id, "name": id == 17 ? marker : "person \(id)", "age": id])) }
            let kennel = realm.create(Kennel.self, value: ["id": 1, "tags": [marker + " tag"]])
            kennel.scores.append(5)
        }
        return url
    }

    /// Flips one bit of the first place `text` appears in the file.
    private func flipABit(of text: String, in url: URL) throws {
        var bytes = try Data(contentsOf: url)
        let needle = Data(text.utf8)
        let found = try #require(bytes.range(of: needle), "\(text) is not in the file")
        bytes[found.lowerBound + 2] ^= 0x04
        try bytes.write(to: url)
    }

    @Test func aChangedByteInARowIsReportedNotRead() async throws {
        let url = try file(marker: "Zebedee Quixote")
        #expect(try Realm.fileReport(at: url).formatVersion == 4)
        try flipABit(of: "Zebedee Quixote", in: url)
        // Every other object reads; the damaged one is named.
        let realm = try Realm(fileURL: url)
        #expect(realm.object(ofType: Person.self, forPrimaryKey: 16)?.name == "person 16")
        let verification = try Realm.verifyFile(at: url)
        #expect(!verification.isIntact)
        #expect(verification.problems.contains { $0.contains("object") && $0.contains("does not match its checksum") }, "\(verification.problems)")
        // A property read, which cannot throw, stops, naming the object.
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) { [path = url.path as String] in
            let realm = try Realm(fileURL: URL(fileURLWithPath: path))
            _ = realm.object(ofType: Person.self, forPrimaryKey: 17)?.name
        }
        expectMessage(result, "The file is damaged: object")
        expectMessage(result, "of 'Person' does not match its checksum")
    }

    @Test func aChangedByteInAListIsReportedNotRead() async throws {
        let url = try file(marker: "Pomegranate")
        try flipABit(of: "Pomegranate tag", in: url)
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) { [path = url.path as String] in
            let realm = try Realm(fileURL: URL(fileURLWithPath: path))
            _ = Array(realm.object(ofType: Kennel.self, forPrimaryKey: 1)!.tags)
        }
        expectMessage(result, "The file is damaged: an element of 'Kennel.tags' of object")
        expectMessage(result, "does not match its checksum")
        #expect(try Realm.verifyFile(at: url).problems.contains { $0.contains("Kennel.tags") && $0.contains("does not match its checksum") })
    }

    /// A file of format 3: its header is written before any table, so its rows have no checksums.
    private func formatThreeFile() throws -> URL {
        let url = directory.file("old.realm")
        _ = try Realm(configuration: Realm.Configuration(fileURL: url, objectTypes: []))
        try rewriteHeader(at: url.path) { header in header[11] = 3 }
        let realm = try Realm(fileURL: url)
        try realm.write {
            for id in 0..<30 { realm.add(Person(value: ["id": id, "name": "old \(id)", "age": id])) }
            realm.create(Kennel.self, value: ["id": 1, "tags": ["a", "b"], "scores": [1, nil]])
        }
        return url
    }

    @Test func filesOfTheFormatBeforeChecksumsOpenAndAreUpgradedByCopiesAndCompaction() throws {
        let url = try formatThreeFile()
        #expect(try Realm.fileReport(at: url).formatVersion == 3)
        do {
            let realm = try Realm(fileURL: url)
            #expect(realm.objects(Person.self).count == 30)
            #expect(realm.object(ofType: Person.self, forPrimaryKey: 7)?.name == "old 7")
            try realm.write { realm.add(Person(value: ["id": 30, "name": "new", "age": 1])) }
            #expect(realm.objects(Person.self).filter("name == 'new'").count == 1)
            expectIntact(url)

            let copy = directory.file("copy.realm")
            try realm.writeCopy(toFile: copy)
            #expect(try Realm.fileReport(at: copy).formatVersion == 4)
            expectIntact(copy)
            let copied = try Realm(fileURL: copy)
            #expect(copied.objects(Person.self).count == 31)
            #expect(Array(copied.object(ofType: Kennel.self, forPrimaryKey: 1)!.tags) == ["a", "b"])
            #expect(Array(copied.object(ofType: Kennel.self, forPrimaryKey: 1)!.scores) == [1, nil])
        }
        // The copy's rows now carry checksums: a changed byte is caught.
        try flipABit(of: "old 12", in: directory.file("copy.realm"))
        #expect(try Realm.verifyFile(at: directory.file("copy.realm")).problems.contains { $0.contains("does not match its checksum") })

        _ = try FileCompaction.compact(url)
        #expect(try Realm.fileReport(at: url).formatVersion == 4)
        expectIntact(url)
        let compacted = try Realm(fileURL: url)
        #expect(compacted.objects(Person.self).count == 31)
        #expect(compacted.object(ofType: Person.self, forPrimaryKey: 30)?.name == "new")
    }
}
