import Burrow
import Foundation
import Testing

/// A 0-byte file at a realm's path (made by `touch`, or by a tool that created the file and
/// stopped) is taken as a new, empty realm, as realm-core and SQLite take it: there is nothing
/// in it to lose.
@Suite struct EmptyFileTests {
    let directory = TestDirectory()

    @Test func aZeroByteFileOpensAsANewRealm() throws {
        let configuration = directory.configuration()
        let url = try #require(configuration.fileURL)
        #expect(FileManager.default.createFile(atPath: url.path, contents: Data()))
        let realm = try Realm(configuration: configuration)
        #expect(realm.isEmpty)
        try realm.write { realm.add(Dog(value: ["name": "Rex"])) }
        #expect(try fileSize(url) > 0)
        let report = try Realm.verifyFile(at: url, encryptionKey: configuration.encryptionKey)
        #expect(report.problems.isEmpty && report.objectCounts["Dog"] == 1, "\(report.problems)")
    }
}
