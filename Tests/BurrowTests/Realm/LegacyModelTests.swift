import Foundation
import Testing

/// A model whose properties are all plain stored ones (RealmSwift's legacy `@objc dynamic var`
/// declarations, with the attribute taken off) would store nothing: using it traps, naming the
/// properties, instead of losing every value written to it. The model lives in a program of its
/// own, built here, since this test binary's every model class is part of its default schema.
@Suite(.enabled(if: BuiltModule.compiler != nil && BuildDirectory.url != nil, "no swiftc or no built Burrow module beside the test binary"))
struct LegacyModelTests {
    let directory = TestDirectory()

    private func run(_ program: String) throws -> BurrowToolRun {
        let source = directory.file("main.swift"), binary = directory.file("legacy")
        try program.write(to: source, atomically: true, encoding: .utf8)
        let compiled = try BuiltModule.compileProgram([source.path], into: binary.path)
        try #require(compiled.status == 0, "\(compiled.output)")
        return try BurrowToolRun.external(binary, [directory.url.path])
    }

    @Test func aModelWithOnlyPlainPropertiesTraps() throws {
        let run = try run("""
            import Burrow
            import Foundation
            final class Toy: Object {
                @Persisted var name = ""
            }
            final class Kennel: Object {
                var name = ""
                dynamic var size = 0
                let toys = List<Toy>()
            }
            // The default schema leaves the class out: the other classes work.
            let realm = try Realm(configuration: Realm.Configuration(fileURL: URL(fileURLWithPath: CommandLine.arguments[1] + "/a.realm")))
            try realm.write { realm.add(Toy()) }
            let line = "toys \\(realm.objects(Toy.self).count) \\(realm.schema.objectSchema.map { $0.className }.sorted())\\n"
            FileHandle.standardOutput.write(Data(line.utf8))  // unbuffered: the program then traps
            try realm.write { realm.add(Kennel()) }
            print("stored", realm.objects(Kennel.self).count)
            """)
        #expect(run.wasSignalled, "\(run.output)")
        #expect(run.output == "toys 1 [\"Toy\"]\n", "\(run.output)")
        #expect(run.errors.contains("Class 'Kennel' has stored properties (name, size, toys) but none is @Persisted"), "\(run.errors)")
        #expect(run.errors.contains("('@objc dynamic var', and collections declared with 'let', as 'let dogs = List<Dog>()') are not supported"), "\(run.errors)")
    }

    @Test func plainPropertiesBesidePersistedOnesOrIgnoredOnesAreFine() throws {
        let run = try run("""
            import Burrow
            import Foundation
            final class Kennel: Object {
                @Persisted var name = ""
                var scratch = 0
            }
            final class Marker: Object {
                var note = ""
                override static func ignoredProperties() -> [String] { ["note"] }
            }
            final class Empty: Object {}
            let realm = try Realm(configuration: Realm.Configuration(fileURL: URL(fileURLWithPath: CommandLine.arguments[1] + "/b.realm")))
            try realm.write { realm.add(Kennel(value: ["name": "Rex"])); realm.add(Marker()); realm.add(Empty()) }
            print("stored", realm.objects(Kennel.self).first!.name, realm.objects(Marker.self).count, realm.objects(Empty.self).count)
            """)
        #expect(run.status == 0 && !run.wasSignalled, "\(run.errors)")
        #expect(run.output == "stored Rex 1 1\n", "\(run.output)")
    }
}
