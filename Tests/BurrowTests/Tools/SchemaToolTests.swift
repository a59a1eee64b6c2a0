import Burrow
import Foundation
import Testing

/// `burrow schema`: the stored schema as text and JSON, and Swift model source that compiles
/// and opens the file as it is.
@Suite(.enabled(if: BuildDirectory.product("burrow") != nil && BuiltModule.compiler != nil,
                "the burrow tool, the Burrow module or swiftc is missing (run swift build --build-tests)"),
       .plainFilesOnly("the tool is run without BURROW_ENCRYPTION_KEY (EncryptedToolTests runs it with one)"))
struct SchemaToolTests {
    let directory = TestDirectory()

    private func demo() throws -> String {
        let path = directory.file("demo.realm").path
        #expect(try BurrowToolRun(["demo", path, "--people", "50"]).status == 0)
        return path
    }

    @Test func theSchemaAsTextAndJSON() throws {
        let path = try demo()
        let text = try BurrowToolRun(["schema", path])
        #expect(text.status == 0, "\(text.errors)")
        for line in ["schema version 0, 4 classes", "class Address (embedded)", "class Dog (primary key id)", "  id          object id     primary key",
                     "  name        string        indexed", "  tags        List<string>", "  extra       mixed", "  dogs        List<Dog>",
                     "  bestFriend  Person?", "  nicknames   Set<string>", "  scores      Map<string, int>", "class Visit"] {
            #expect(text.output.contains(line + "\n"), "missing '\(line)' in\n\(text.output)")
        }
        let json = try BurrowToolRun(["schema", path, "--json"])
        let root = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
        let classes = try #require(root["classes"] as? [[String: Any]])
        #expect(classes.map { $0["name"] as? String } == ["Address", "Dog", "Person", "Visit"])
        let person = try #require(classes.first { $0["name"] as? String == "Person" })
        #expect(person["primaryKey"] as? String == "id" && person["embedded"] as? Bool == false)
        let dogs = try #require((person["properties"] as? [[String: Any]])?.first { $0["name"] as? String == "dogs" })
        #expect(dogs["collection"] as? String == "list" && dogs["objectClass"] as? String == "Dog" && dogs["type"] as? String == "object")
        #expect(try BurrowToolRun(["schema", path, "--json", "--swift"]).status == 2)
    }

    /// The generated classes compile with a program that opens the file read-only with exactly
    /// them (any difference from the stored schema would ask for a migration) and reads it.
    @Test(arguments: ["demo", "test models"])
    func theSwiftSourceOpensTheFileAsItIs(file: String) throws {
        let path: String, expected: String
        if file == "demo" {
            path = try demo()
            expected = "Dog:75 Person:50 Visit:38"
        } else {
            path = directory.file("models.realm").path
            let realm = try Realm(configuration: directory.configuration("models.realm", objectTypes: [AllTypes.self, Kennel.self, Puppy.self, Owner.self,
                                                                                                       Contact.self, Address.self, Geo.self, Ledger.self]))
            try realm.write {
                realm.add(AllTypes())
                realm.add(Kennel(value: ["id": 1, "dogs": [["name": "Rex", "owner": ["id": 3, "name": "Ann"]]]]))
                realm.add(Contact(value: ["id": 1, "address": ["street": "Main", "geo": ["latitude": 1.5]]]))
                realm.add(Ledger(value: ["id": 2, "scores": ["x": 5]]))
            }
            expected = "AllTypes:1 Contact:1 Kennel:1 Ledger:1 Owner:1 Puppy:1"
        }
        let source = try BurrowToolRun(["schema", path, "--swift"])
        #expect(source.status == 0 && source.output.contains("@Persisted"), "\(source.errors)")
        let schemas = try Realm(configuration: Realm.Configuration(fileURL: URL(fileURLWithPath: path), readOnly: true, objectTypes: []))
            .fileSchema.objectSchema.sorted { $0.className < $1.className }
        let classNames = schemas.map(\.className)
        let counted = schemas.filter { !$0.isEmbedded }.map { "\\(\($0.className).className()):\\(realm.objects(\($0.className).self).count)" }
        let models = directory.file("Models.swift"), main = directory.file("main.swift"), program = directory.file("reader")
        try source.output.write(to: models, atomically: true, encoding: .utf8)
        try """
            import Burrow
            import Foundation
            let types: [ObjectBase.Type] = [\(classNames.map { "\($0).self" }.joined(separator: ", "))]
            let realm = try Realm(configuration: Realm.Configuration(fileURL: URL(fileURLWithPath: CommandLine.arguments[1]), readOnly: true,
                                                                     objectTypes: types))
            print([\(counted.map { "\"\($0)\"" }.joined(separator: ", "))].joined(separator: " "))
            """.write(to: main, atomically: true, encoding: .utf8)
        let compiled = try BuiltModule.compileProgram([main.path, models.path], into: program.path)
        #expect(compiled.status == 0, "the generated source does not compile:\n\(compiled.output)\n\(source.output)")
        guard compiled.status == 0 else { return }
        let run = try BurrowToolRun.external(program, [path])
        #expect(run.status == 0 && run.output == expected + "\n", "\(run.output) \(run.errors)")
    }
}
