import Foundation
import Testing

/// The layers of the sources hold: no file names a type of a layer above its own
/// (``SourceLayers``), beyond the references listed here, which are the ones still to remove.
@Suite struct LayeringTests {
    /// Upward references that remain, each with what removes it. The list only shrinks: a
    /// reference that is gone must leave it too.
    static let remaining: Set<String> = [
        // The engine opens files from the public configuration; it will take the options it
        // needs as a value of its own.
        "Session/File/Coordinator+Opening.swift -> Realm.Configuration",
        "Session/File/CoordinatorRegistry.swift -> Realm.Configuration",
        "Session/RealmCore.swift -> Realm.Configuration",
        // Opening a file runs the schema migration the configuration asks for; the engine will
        // take it as a step handed down by the API.
        "Session/File/Coordinator+Opening.swift -> SchemaMigration",
        // The caches of model classes resolved against the file are stored by the engine's
        // realm, its write and its coordinator; they will be one cache owned above the engine.
        "Session/File/Coordinator.swift -> ClassInfo",
        "Session/RealmCore.swift -> ClassInfo",
        "Session/RealmCore.swift -> BoundClass",
        "Session/WriteState.swift -> BoundClass",
    ]

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

    @Test func onlyTheInternalsFileOfTheTestsReachesTheEngine() throws {
        let tests = PackageDirectory.url.appendingPathComponent("Tests/BurrowTests")
        let files = try SourceLayers(root: tests).files
        #expect(files.count > 50, "the tests were not found at \(tests.path)")
        let reaching = files.filter { path, code in
            path != "Support/Internals.swift" && code.contains(try! Regex(#"\.core\b"#))
        }
        #expect(reaching.isEmpty, "reach the engine through Support/Internals.swift instead: \(reaching.keys.sorted())")
    }
}
