import Burrow
import Foundation
import Testing

/// `burrow demo` and `burrow query`, run as processes: what a query prints in each format is
/// what the dynamic API reads, and every mistake is an exit status 2 with a one-line reason.
@Suite(.enabled(if: BuildDirectory.product("burrow") != nil, "the burrow tool was not built beside the tests (run swift build --build-tests)"),
       .plainFilesOnly("the tool is run without BURROW_ENCRYPTION_KEY (EncryptedToolTests runs it with one)"))
struct QueryToolTests {
    let directory = TestDirectory()

    /// A demo file of `people` people, written by the tool.
    private func demo(people: Int = 300) throws -> String {
        let path = directory.file("demo.realm").path
        let run = try BurrowToolRun(["demo", path, "--people", "\(people)"])
        #expect(run.status == 0 && run.output.hasPrefix("wrote \(path): \(people) people"), "\(run.errors)")
        return path
    }

    private func open(_ path: String) throws -> Realm {
        try Realm(configuration: Realm.Configuration(fileURL: URL(fileURLWithPath: path), readOnly: true, objectTypes: []))
    }

    private func jsonLines(_ text: String) throws -> [[String: Any]] {
        try text.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "not a JSON object: \(line)")
        }
    }

    @Test func aQueryPrintsWhatTheDynamicAPIReads() throws {
        let path = try demo()
        let realm = try open(path)
        let young = realm.dynamicObjects("Dog").filter("age < 3 AND breed != nil")
        #expect(young.count > 10)

        let counted = try BurrowToolRun(["query", path, "Dog", "age < 3 AND breed != nil", "--count"])
        #expect(counted.status == 0 && counted.output == "\(young.count)\n", "\(counted.errors)")

        // Without a terminal the default is JSON lines; --sort with - sorts descending.
        let run = try BurrowToolRun(["query", path, "Dog", "age < 3 AND breed != nil", "--sort", "-age,name"])
        #expect(run.status == 0, "\(run.errors)")
        let rows = try jsonLines(run.output)
        let expected = young.sorted(by: [SortDescriptor(keyPath: "age", ascending: false), SortDescriptor(keyPath: "name")])
        #expect(rows.count == expected.count)
        for (row, object) in zip(rows, expected) {
            #expect(row["id"] as? String == (object["id"] as? ObjectId)?.stringValue)
            #expect(row["age"] as? Int == object["age"] as? Int)
            #expect(row["name"] as? String == object["name"] as? String)
            #expect(row["tags"] as? [String] == (object["tags"] as? List<String>).map(Array.init))
        }

        // Links print as the target's primary key; embedded objects and maps inline.
        let person = try #require(try jsonLines(try BurrowToolRun(["query", path, "Person", "id == 1"]).output).first)
        let stored = try #require(realm.dynamicObject(ofType: "Person", forPrimaryKey: 1))
        let dogIDs = (stored["dogs"] as? List<DynamicObject>).map { $0.map { ($0["id"] as! ObjectId).stringValue } }
        #expect(person["dogs"] as? [String] == dogIDs)
        #expect(person["bestFriend"] as? Int == (stored["bestFriend"] as? DynamicObject)?["id"] as? Int)
        #expect((person["address"] as? [String: Any])?["city"] as? String == (stored["address"] as? DynamicObject)?["city"] as? String)
        #expect((person["scores"] as? [String: Any])?["chess"] as? Int != nil)
    }

    @Test func formatsLimitOffsetAndProperties() throws {
        let path = try demo(people: 40)
        let all = try BurrowToolRun(["query", path, "Person", "--sort", "id", "--properties", "id,name"]).output
        let names = try jsonLines(all).map { $0["name"] as! String }
        #expect(names.count == 40)
        #expect(try jsonLines(all).allSatisfy { $0.keys.sorted() == ["id", "name"] })

        let page = try BurrowToolRun(["query", path, "Person", "--sort", "id", "--properties", "name", "--limit", "3", "--offset", "5"])
        #expect(try jsonLines(page.output).map { $0["name"] as! String } == Array(names[5..<8]))

        let json = try BurrowToolRun(["query", path, "Person", "id < 3 SORT(id DESC)", "--format", "json", "--properties", "id"])
        #expect(json.output == "[\n{\"id\":2},\n{\"id\":1},\n{\"id\":0}\n]\n")
        // After --, words that start with a dash are arguments: here, the predicate.
        let dashed = try BurrowToolRun(["query", path, "Person", "--count", "--", "-1 < id"])
        #expect(dashed.status == 0 && dashed.output == "40\n", "\(dashed.errors)")
        let empty = try BurrowToolRun(["query", path, "Person", "id < 0", "--format=json"])
        #expect(empty.status == 0 && empty.output == "[]\n")

        let csv = try BurrowToolRun(["query", path, "Visit", "--format", "csv", "--limit", "2"])
        let lines = csv.output.components(separatedBy: "\r\n")
        #expect(lines[0] == "dog,at,note")
        #expect(lines[1] == "000000000000000000000001,2023-11-14T22:13:20Z,check-up")
        #expect(lines[2] == "000000000000000000000003,2023-11-15T00:13:20Z,\"vaccination, \"\"booster\"\"\"")

        let table = try BurrowToolRun(["query", path, "Person", "id < 2", "--format", "table", "--properties", "id,name,height"])
        let tableLines = table.output.split(separator: "\n").map(String.init)
        #expect(tableLines.count == 5, "\(table.output)")
        #expect(tableLines[0].hasPrefix("id  name") && tableLines[1].hasPrefix("--  ----"))
        #expect(tableLines.last == "(2 objects)")
    }

    @Test func everyKindOfValuePrintsExactly() throws {
        let objectId = try ObjectId(string: "5f1b2c3d4e5f60718293a4b5")
        do {
            let realm = try Realm(configuration: directory.configuration(objectTypes: [AllTypes.self]))
            try realm.write {
                realm.add(AllTypes(value: ["int": -7, "float": Float(0.1), "double": Double.infinity, "string": "Zoë \"q\"\n✓",
                                           "data": Data([0, 1, 254, 255]), "date": Date(timeIntervalSince1970: 1_700_000_000.5),
                                           "uuid": UUID(uuidString: "12345678-1234-1234-1234-123456789ABC")!, "objectId": objectId,
                                           "decimal": Decimal(string: "12.345")!, "optFloat": Float.nan]))
            }
        }
        let run = try BurrowToolRun(["query", directory.file().path, "AllTypes"])
        #expect(run.status == 0, "\(run.errors)")
        for fragment in ["\"int\":-7,", "\"float\":0.1,", "\"double\":\"inf\",", #""string":"Zoë \"q\"\n✓","#, "\"data\":\"AAH+/w==\"",
                         "\"date\":\"2023-11-14T22:13:20.5Z\"", "\"uuid\":\"12345678-1234-1234-1234-123456789ABC\"",
                         "\"objectId\":\"5f1b2c3d4e5f60718293a4b5\"", "\"decimal\":\"12.345\"", "\"optFloat\":\"nan\"", "\"optInt\":null"] {
            #expect(run.output.contains(fragment), "missing \(fragment) in \(run.output)")
        }
        #expect((try? JSONSerialization.jsonObject(with: Data(run.output.utf8))) != nil, "not JSON: \(run.output)")
    }

    @Test func mistakesExitTwoWithOneLine() throws {
        let path = try demo(people: 5)
        let malformed = try BurrowToolRun(["query", path, "Dog", "age >< 3"])
        #expect(malformed.status == 2 && malformed.output.isEmpty)
        #expect(malformed.errors == "burrow query: Invalid query at position 5: expected a property name or a value, found '<'.\n  age >< 3\n       ^\n",
                "\(malformed.errors)")
        let misspelt = try BurrowToolRun(["query", path, "Dog", "name == 'Rex' AND agee < 3"])
        #expect(misspelt.status == 2 && misspelt.errors.contains("did you mean 'age'?\n  name == 'Rex' AND agee < 3\n                    ^\n"),
                "\(misspelt.errors)")

        let cases: [([String], String)] = [
            (["query", path, "dog"], "has no class 'dog' (did you mean 'Dog'?); its classes: Address, Dog, Person, Visit"),
            (["query", path, "Dog", "--sort", "nme"], "--sort nme:"),
            (["query", path, "Address"], "Address is embedded: its objects are read through their owners (Person.address)"),
            (["query", path, "Dog", "--properties", "id,colour"], "Dog has no property 'colour'"),
            (["query", path, "Dog", "--format", "xml"], "--format must be one of table, json, jsonl, csv"),
            (["query", path, "Dog", "--limit", "-1"], "--limit must be a whole number"),
            (["query", path, "Dog", "--bogus"], "unknown option --bogus (see burrow query --help)"),
            (["query", path, "Dog", "--count=yes"], "--count takes no value"),
            (["query", path, "Dog", "--limit"], "--limit needs a value"),
            (["query", path, "Dog", "-x"], "unknown option -x"),
            (["query", path], "query takes FILE, CLASS and an optional PREDICATE"),
            (["query", directory.file("absent.realm").path, "Dog"], "absent.realm: No such file or directory"),
        ]
        for (arguments, message) in cases {
            let run = try BurrowToolRun(arguments)
            #expect(run.status == 2 && run.output.isEmpty, "\(arguments): \(run.status) \(run.output)")
            #expect(run.errors.hasPrefix("burrow query: ") && run.errors.contains(message), "\(arguments): \(run.errors)")
            #expect(run.errors.filter { $0 == "\n" }.count == 1, "\(arguments): more than one line: \(run.errors)")
        }
    }

    @Test func demoRefusesAnExistingFileAndRepeatsItself() throws {
        let path = try demo(people: 20)
        let again = try BurrowToolRun(["demo", path])
        #expect(again.status == 2 && again.errors.contains("exists"))
        let other = directory.file("other.realm").path
        #expect(try BurrowToolRun(["demo", other, "--people", "20"]).status == 0)
        let first = try BurrowToolRun(["query", path, "Person"]).output, second = try BurrowToolRun(["query", other, "Person"]).output
        #expect(first == second && !first.isEmpty)
        let counts = try open(path)
        #expect(counts.dynamicObjects("Dog").count == 30 && counts.dynamicObjects("Visit").count == 15)
    }
}
