import Foundation
import Testing

/// The layers of the sources hold: no file names a type of a layer above its own
/// (``SourceLayers``).
@Suite struct LayeringTests {
    /// Upward references allowed for now, each with what removes it; the list may only shrink
    /// (a reference that is gone must leave it). Empty: every arrow points down.
    static let remaining: Set<String> = []

    static let sources = PackageDirectory.sources("Burrow")

    @Test func noFileNamesATypeOfALayerAboveItsOwn() throws {
        let layers = try SourceLayers(root: Self.sources)
        #expect(layers.files.count > 200, "the sources were not found at \(Self.sources.path)")
        let found = layers.upwardReferences()
        let new = found.filter { !Self.remaining.contains("\($0.file) -> \($0.type)") }
        #expect(new.isEmpty, "files name types of a layer above their own:\n\(new.map(\.description).sorted().joined(separator: "\n"))")
        let gone = Self.remaining.subtracting(found.map { "\($0.file) -> \($0.type)" })
        #expect(gone.isEmpty, "these references are gone: remove them from LayeringTests.remaining:\n\(gone.sorted().joined(separator: "\n"))")
    }

    @Test func theCheckSeesAnUpwardReference() {
        // A file of Storage naming a Session type, and a Values file naming an API type in an
        // extension, are both found; a type declared inside another in an extension is
        // reached by its qualified name.
        let layers = SourceLayers(files: [
            "Storage/Table.swift": SourceLayers.code(of: "struct Table { let owner: Coordinator }"),
            "Session/Coordinator.swift": SourceLayers.code(of: "final class Coordinator { let t: Table }"),
            "Values/Realm+Error.swift": SourceLayers.code(of: "extension Realm {\n    public struct Error {}\n}"),
            "Realm/Realm.swift": SourceLayers.code(of: "public struct Realm { let c: Realm.Configuration }"),
            "Realm/Realm+Configuration.swift": SourceLayers.code(of: "extension Realm {\n    public struct Configuration {}\n}"),
            "Session/Opening.swift": SourceLayers.code(of: "// Realm in a comment\nlet s = \"Realm\"\nfunc f(_ e: Realm.Error, _ c: Realm.Configuration) {}"),
        ])
        #expect(Set(layers.upwardReferences().map(\.description)) == [
            "Storage/Table.swift -> Coordinator (Session/Coordinator.swift)",
            "Session/Opening.swift -> Realm.Configuration (Realm/Realm+Configuration.swift)",
        ])
    }

    /// Whether `path` (relative to the tests' folder) is one of the files tests reach Burrow's
    /// internals through: `Support/Internals.swift` and its parts, `Support/Internals+….swift`.
    static func isInternalsFile(_ path: String) -> Bool {
        let name = path.split(separator: "/").last ?? ""
        return path == "Support/\(name)" && name.hasPrefix("Internals") && name.hasSuffix(".swift")
    }

    @Test func onlyTheInternalsFilesOfTheTestsReachTheEngine() throws {
        let tests = PackageDirectory.url.appendingPathComponent("Tests/BurrowTests")
        let files = try SourceLayers(root: tests).files
        #expect(files.count > 50, "the tests were not found at \(tests.path)")
        let reaching = files.filter { path, code in
            !Self.isInternalsFile(path) && code.contains(try! Regex(#"\.core\b"#))
        }
        #expect(reaching.isEmpty, "reach the engine through Support/Internals*.swift instead: \(reaching.keys.sorted())")
    }

    /// The test files besides `Support/Internals*.swift` that still import Burrow's internals
    /// (`@testable`): unit tests of internal types (the storage codecs and index keys, decimals'
    /// stored forms, the change log, the file verifier's reads of damaged records, the key-path
    /// offset table), which call those types directly: going through Support would mean
    /// wrapping each type they test. Every other test uses the public API and
    /// Support/Internals*.swift; the list may only shrink.
    static let testsImportingInternals: Set<String> = [
        "Objects/KeyPathOffsetTableTests.swift",
        "Storage/ChangeLogTests.swift",
        "Storage/Decimal128StorageTests.swift",
        "Storage/FileVerificationTests.swift",
        "Storage/LongKeyCollisionTests.swift",
        "Storage/StorageCodecTests.swift",
    ]

    @Test func onlyListedTestFilesImportInternals() throws {
        let tests = PackageDirectory.url.appendingPathComponent("Tests/BurrowTests")
        let files = try SourceLayers(root: tests).files
        let importing = Set(files.filter { path, code in
            !Self.isInternalsFile(path) && code.contains(try! Regex("(?m)^@testable import Burrow"))
        }.keys)
        let new = importing.subtracting(Self.testsImportingInternals)
        #expect(new.isEmpty, "use the public API, or Support/Internals*.swift: \(new.sorted())")
        let gone = Self.testsImportingInternals.subtracting(importing)
        #expect(gone.isEmpty, "no longer import internals: remove them from the list: \(gone.sorted())")
    }
}
