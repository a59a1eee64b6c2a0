import Burrow
import Foundation
import Testing

/// `burrow compact`, run as its own process the way `Scripts/compact.sh` runs it.
@Suite(.enabled(if: BuildDirectory.product("burrow") != nil, "the burrow tool was not built beside the tests (run swift build --build-tests)"), .plainFilesOnly("the tool is run without BURROW_ENCRYPTION_KEY (EncryptedToolTests runs it with one)"))
struct CompactToolTests {
    let directory = TestDirectory()

    private func burrow(_ arguments: String...) throws -> BurrowToolRun {
        try BurrowToolRun(arguments)
    }

    /// 2,000 people, of which the even ones are deleted; the file is closed again.
    private func halfDeletedFile(_ name: String = "test.realm") throws -> [Int: String] {
        let realm = try Realm(configuration: directory.configuration(name))
        try realm.write {
            for id in 0..<2000 { realm.add(Person(value: ["id": id, "name": "person \(id) " + String(repeating: "é", count: id % 50)])) }
        }
        try realm.write { realm.delete(realm.objects(Person.self).filter("id IN %@", Array(stride(from: 0, to: 2000, by: 2)))) }
        return Dictionary(uniqueKeysWithValues: realm.objects(Person.self).map { ($0.id, $0.name) })
    }

    private func contents(_ name: String) throws -> [Int: String] {
        let realm = try Realm(configuration: directory.configuration(name))
        return Dictionary(uniqueKeysWithValues: realm.objects(Person.self).map { ($0.id, $0.name) })
    }

    private func attributes(_ name: String) throws -> [FileAttributeKey: Any] {
        try FileManager.default.attributesOfItem(atPath: directory.file(name).path)
    }

    @Test func compactingInPlaceShrinksTheFileAndKeepsEveryObjectAndTheMode() throws {
        let expected = try halfDeletedFile()
        chmod(directory.file().path, 0o640)
        let before = try #require(try attributes("test.realm")[.size] as? Int)
        let run = try burrow("compact", directory.file().path)
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.output.contains("compacted \(directory.file().path) in place: \(before) -> "))
        let after = try #require(try attributes("test.realm")[.size] as? Int)
        #expect(after < before)
        #expect(try attributes("test.realm")[.posixPermissions] as? Int == 0o640)
        #expect(try contents("test.realm") == expected)
        #expect(try !FileManager.default.contentsOfDirectory(atPath: directory.url.path).contains { $0.contains("compacting") })
    }

    @Test func compactingIntoAnotherFileLeavesTheSourceAlone() throws {
        let expected = try halfDeletedFile()
        let before = try #require(try attributes("test.realm")[.size] as? Int)
        let run = try burrow("compact", directory.file().path, directory.file("small.realm").path)
        #expect(run.status == 0, "\(run.errors)")
        #expect(try attributes("test.realm")[.size] as? Int == before)
        #expect(try contents("small.realm") == expected && contents("test.realm") == expected)
        // The destination is never overwritten.
        let again = try burrow("compact", directory.file().path, directory.file("small.realm").path)
        #expect(again.status == 1 && again.errors.contains("File exists"))
    }

    @Test func aFileAnotherProcessHasOpenIsRefused() throws {
        _ = try halfDeletedFile()
        let before = try #require(try attributes("test.realm")[.size] as? Int)
        let realm = try directory.realm()
        let run = try burrow("compact", directory.file().path)
        #expect(run.status == 1 && run.errors.contains("another process has it open"))
        #expect(try attributes("test.realm")[.size] as? Int == before)
        #expect(realm.objects(Person.self).count == 1000)
    }

    @Test func misuseAndBadFilesAreReported() throws {
        let none = try burrow()
        #expect(none.status == 2 && none.errors.contains("usage: burrow <command>"))
        #expect(try burrow("compact").status == 2)
        #expect(try burrow("frobnicate").status == 2)
        #expect(try burrow("help").output.contains("compact SRC [DST]"))
        let missing = try burrow("compact", directory.file("absent.realm").path)
        #expect(missing.status == 2 && missing.errors.contains("No such file or directory"))
        try Data(repeating: 7, count: 20_000).write(to: directory.file("foreign.realm"))
        let foreign = try burrow("compact", directory.file("foreign.realm").path)
        #expect(foreign.status == 2 && foreign.errors.contains("not a Burrow file"))
        #expect(try Data(contentsOf: directory.file("foreign.realm")) == Data(repeating: 7, count: 20_000))
    }
}
