import Burrow
import Foundation
import Testing

/// `burrow verify`, `dump` and `compact` on an encrypted file, whose key they take from
/// `BURROW_ENCRYPTION_KEY`.
@Suite(.enabled(if: BuildDirectory.product("burrow") != nil, "the burrow tool was not built beside the tests (run swift build --build-tests)"))
struct EncryptedToolTests {
    let directory = TestDirectory()

    private static let key = Data((0..<64).map { UInt8(truncatingIfNeeded: $0 * 3 + 1) })
    private static var hexKey: String { key.map { String(format: "%02x", $0) }.joined() }

    private func file() throws -> URL {
        var configuration = directory.configuration(objectTypes: [Owner.self, Puppy.self])
        configuration.encryptionKey = Self.key
        let realm = try Realm(configuration: configuration)
        try realm.write {
            for id in 0..<50 { realm.add(Owner(value: ["id": id, "name": "owner \(id) ✓"])) }
        }
        return directory.file()
    }

    @Test func toolsReadAnEncryptedFileWithItsKey() throws {
        let url = try file()
        let keyed = ["BURROW_ENCRYPTION_KEY": Self.hexKey]
        let verified = try BurrowToolRun(["verify", url.path], environment: keyed)
        #expect(verified.status == 0 && verified.output.contains("Owner: 50 objects"), "\(verified.output) \(verified.errors)")
        // Upper-case digits read the same.
        let dumped = try BurrowToolRun(["dump", url.path, "Owner"], environment: ["BURROW_ENCRYPTION_KEY": Self.hexKey.uppercased()])
        #expect(dumped.status == 0 && dumped.output.contains("name: owner 7 ✓"), "\(dumped.errors)")
        let copy = directory.file("small.realm")
        let compacted = try BurrowToolRun(["compact", url.path, copy.path], environment: keyed)
        #expect(compacted.status == 0, "\(compacted.errors)")
        var configuration = directory.configuration("small.realm", objectTypes: [Owner.self, Puppy.self])
        configuration.encryptionKey = Self.key
        #expect(try Realm(configuration: configuration).objects(Owner.self).count == 50)
    }

    @Test func withoutTheKeyTheToolsRefuseTheFile() throws {
        let url = try file()
        for arguments in [["verify", url.path], ["dump", url.path]] {
            let run = try BurrowToolRun(arguments, environment: ["BURROW_ENCRYPTION_KEY": String(repeating: "ab", count: 64)])
            #expect(run.status == 2, "\(run.output) \(run.errors)")
            #expect((run.output + run.errors).contains("encryption key is not the file's"))
        }
        let unkeyed = try BurrowToolRun(["dump", url.path])
        #expect(unkeyed.status == 2 && unkeyed.errors.contains("no encryption key was given"), "\(unkeyed.errors)")
        let malformed = try BurrowToolRun(["verify", url.path], environment: ["BURROW_ENCRYPTION_KEY": "12zz"])
        #expect(malformed.status == 2 && malformed.errors.contains("128 hexadecimal digits"))
    }
}
