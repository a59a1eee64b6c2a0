import Burrow
import Foundation
import Testing

private final class RecoverItem: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var label = ""
}

private final class RecoverNote: Object {
    @Persisted var label = ""
}

/// `burrow copy` with the same key, a new one, or none; `burrow recover` on an intact file and
/// on damaged copies: it never dies, counts what it recovered against what the file held, and
/// writes a file that verifies intact.
@Suite(.enabled(if: BuildDirectory.product("burrow") != nil, "the burrow tool was not built beside the tests (run swift build --build-tests)"),
       .plainFilesOnly("the tool is run without BURROW_ENCRYPTION_KEY unless a test gives one"))
struct CopyRecoverToolTests {
    let directory = TestDirectory()

    private func demo(people: Int = 200) throws -> String {
        let path = directory.file("demo.realm").path
        #expect(try BurrowToolRun(["demo", path, "--people", "\(people)"]).status == 0)
        return path
    }

    private func keyFile(_ name: String, byte: UInt8) throws -> String {
        let url = directory.file(name)
        try Data(repeating: byte, count: 64).write(to: url)
        return url.path
    }

    @Test func copiesKeepChangeOrDropTheKey() throws {
        let source = try demo()
        let export = try BurrowToolRun(["export", source]).output
        let plainCopy = directory.file("plain.realm").path
        let copied = try BurrowToolRun(["copy", source, plainCopy])
        #expect(copied.status == 0 && copied.output.contains("(not encrypted)"), "\(copied.errors)")
        #expect(try BurrowToolRun(["export", plainCopy]).output == export)

        let key = try keyFile("new.key", byte: 7)
        let sealed = directory.file("sealed.realm").path
        let encrypted = try BurrowToolRun(["copy", source, sealed, "--new-key-file", key])
        #expect(encrypted.status == 0 && encrypted.output.contains("(encrypted with the new key)"), "\(encrypted.errors)")
        #expect(try BurrowToolRun(["export", sealed]).status == 2, "the copy opens without its key")
        #expect(try BurrowToolRun(["export", sealed, "--key-file", key]).output == export)

        // Re-keyed, then decrypted.
        let other = try keyFile("other.key", byte: 9)
        let rekeyed = directory.file("rekeyed.realm").path
        #expect(try BurrowToolRun(["copy", sealed, rekeyed, "--key-file", key, "--new-key-file", other]).status == 0)
        #expect(try BurrowToolRun(["export", rekeyed, "--key-file", key]).status == 2)
        let decrypted = directory.file("decrypted.realm").path
        let run = try BurrowToolRun(["copy", rekeyed, decrypted, "--key-file", other, "--decrypt"])
        #expect(run.status == 0 && run.output.contains("(decrypted)"), "\(run.errors)")
        #expect(try BurrowToolRun(["export", decrypted]).output == export)

        let exists = try BurrowToolRun(["copy", source, plainCopy])
        #expect(exists.status == 2 && exists.errors.contains("exists; copy writes a new file"))
        #expect(try BurrowToolRun(["copy", source, directory.file("x.realm").path, "--decrypt", "--new-key-file", key]).status == 2)
        #expect(try BurrowToolRun(["copy", sealed, directory.file("y.realm").path]).status == 2, "a copy without the source's key")
    }

    @Test func anIntactFileIsRecoveredWhole() throws {
        let source = try demo()
        let target = directory.file("recovered.realm").path
        let run = try BurrowToolRun(["recover", source, target])
        #expect(run.status == 0, "\(run.output) \(run.errors)")
        #expect(run.output.hasPrefix("recovered 650 of 650 objects of \(source) into \(target)\n  Dog: 300 of 300\n"), "\(run.output)")
        #expect(try BurrowToolRun(["export", target]).output == (try BurrowToolRun(["export", source]).output))
        #expect(try BurrowToolRun(["recover", source, target]).status == 2, "NEW exists")
        try Data("not a realm".utf8).write(to: directory.file("text.realm"))
        #expect(try BurrowToolRun(["recover", directory.file("text.realm").path, directory.file("t.realm").path]).status == 2)
    }

    /// A damaged page of rows costs only the objects on it, in a class whose integer primary
    /// key is the row's key and in one without a primary key: the rows are read in key order,
    /// a seek at a time, and seeks past the damage find the objects after it.
    @Test func aDamagedPageOfRowsCostsOnlyTheObjectsOnIt() throws {
        let source = directory.file("rows.realm")
        do {
            let realm = try Realm(configuration: directory.configuration("rows.realm", objectTypes: [RecoverItem.self, RecoverNote.self]))
            try realm.write {
                for index in 0..<3000 {
                    let padding = String(repeating: "x", count: 80)
                    realm.add(RecoverItem(value: ["id": index * 3 - 4000, "label": "item-\(index)-\(padding)"]))
                    realm.add(RecoverNote(value: ["label": "note-\(index)-\(padding)"]))
                }
            }
        }
        var bytes = [UInt8](try Data(contentsOf: source))
        let pageSize = 4096
        var lost: [String: Set<String>] = [:]
        for (marker, className) in [("item-1500-", "RecoverItem"), ("note-1500-", "RecoverNote")] {
            let page = try #require((2..<(bytes.count / pageSize)).first { page in
                let start = page * pageSize
                // A leaf page (flags 0x02 at offset 10) holding the marker.
                return bytes[start + 10] == 0x02 && Self.labels(in: bytes[start..<(start + pageSize)]).contains { $0.hasPrefix(marker) }
            }, "no leaf page holds \(marker)")
            let start = page * pageSize
            lost[className] = Set(Self.labels(in: bytes[start..<(start + pageSize)]))
            bytes.replaceSubrange(start..<(start + pageSize), with: repeatElement(0, count: pageSize))
        }
        let damaged = directory.file("damaged.realm")
        try Data(bytes).write(to: damaged)
        let target = directory.file("recovered.realm")
        let run = try BurrowToolRun(["recover", damaged.path, target.path, "--quiet"])
        #expect(run.status == 1, "\(run.output) \(run.errors)")
        let recovered = try Realm(configuration: Realm.Configuration(fileURL: target, readOnly: true, objectTypes: []))
        for className in ["RecoverItem", "RecoverNote"] {
            let labels = Set(recovered.dynamicObjects(className).map { $0["label"] as! String })
            let expected = Set((0..<3000).map { "\(className == "RecoverItem" ? "item" : "note")-\($0)-\(String(repeating: "x", count: 80))" })
            #expect(labels == expected.subtracting(lost[className] ?? []), "\(className): \(labels.count) recovered, \(lost[className]?.count ?? 0) on the page")
            #expect((lost[className]?.count ?? 0) > 10 && labels.count == 3000 - (lost[className]?.count ?? 0), "\(run.output)")
        }
        #expect(run.output.contains("RecoverItem: \(3000 - (lost["RecoverItem"]?.count ?? 0)) of 3000"), "\(run.output)")
        #expect(try Realm.verifyFile(at: target).isIntact)
    }

    /// The labels (`item-N-xxx…`, `note-N-xxx…`) whose bytes are whole in `page`.
    private static func labels(in page: ArraySlice<UInt8>) -> [String] {
        let text = String(decoding: page.map { (0x20..<0x7F).contains($0) ? $0 : UInt8(ascii: " ") }, as: UTF8.self)
        return text.matches(of: /(item|note)-[0-9]+-x{80}/).map { String($0.output.0) }
    }

    /// Copies with bytes of data pages overwritten at random places: each recovery ends on its
    /// own terms, counts at most what the file held, and writes a file that verifies intact.
    @Test func damagedCopiesAreRecoveredAsFarAsTheyCanBeRead() throws {
        let source = try demo(people: 300)
        let original = try Data(contentsOf: URL(fileURLWithPath: source))
        let pageSize = 4096, pages = original.count / pageSize
        var generator = SplitMix64(seed: 11)
        var lostSome = 0
        for round in 0..<10 {
            var bytes = original
            for _ in 0..<3 {
                let length = [8, 64, pageSize][Int.random(in: 0..<3, using: &generator)]
                let start = Int.random(in: 2..<pages, using: &generator) * pageSize + Int.random(in: 0..<(pageSize - length + 1), using: &generator)
                for offset in start..<start + length { bytes[offset] = UInt8.random(in: 0...255, using: &generator) }
            }
            let damaged = directory.file("damaged-\(round).realm"), target = directory.file("recovered-\(round).realm")
            try bytes.write(to: damaged)
            let run = try BurrowToolRun(["recover", damaged.path, target.path, "--quiet"])
            #expect(!run.wasSignalled && [0, 1].contains(run.status), "round \(round): \(run.status) \(run.errors)")
            guard run.output.hasPrefix("recovered ") else {
                // Only a file whose schema could not be read recovers nothing.
                #expect(run.errors.contains("its schema cannot be read"), "round \(round): \(run.output) \(run.errors)")
                continue
            }
            let counts = run.output.split(separator: " ").prefix(4)
            let recovered = Int(counts[1]) ?? -1, held = Int(counts[3]) ?? -1
            #expect(recovered >= 0 && recovered <= held, "round \(round): \(run.output)")
            if recovered < held { lostSome += 1 }
            let verified = try BurrowToolRun(["verify", target.path])
            #expect(verified.status == 0, "round \(round): the recovered file: \(verified.output)")
        }
        print("recover on 10 damaged copies: \(lostSome) of them lost objects")
    }
}
