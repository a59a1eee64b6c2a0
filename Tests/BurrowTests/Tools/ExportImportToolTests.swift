import Burrow
import Foundation
import Testing

/// `burrow export` and `burrow import`, run as processes: an export imported into a new file
/// exports byte for byte the same, in every format; a value that does not fit aborts the whole
/// import with its line and property, and nothing is written.
@Suite(.enabled(if: BuildDirectory.product("burrow") != nil, "the burrow tool was not built beside the tests (run swift build --build-tests)"),
       .plainFilesOnly("the tool is run without BURROW_ENCRYPTION_KEY unless a test gives one"))
struct ExportImportToolTests {
    let directory = TestDirectory()

    private func demo(_ name: String = "demo.realm", people: Int = 300, environment: [String: String] = [:]) throws -> String {
        let path = directory.file(name).path
        let run = try BurrowToolRun(["demo", path, "--people", "\(people)"], environment: environment)
        #expect(run.status == 0, "\(run.errors)")
        return path
    }

    private func write(_ text: String, to name: String) throws -> String {
        let url = directory.file(name)
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    private func count(_ path: String, _ className: String) throws -> Int {
        try Realm(configuration: Realm.Configuration(fileURL: URL(fileURLWithPath: path), readOnly: true, objectTypes: []))
            .dynamicObjects(className).count
    }

    @Test(arguments: [false, true])
    func aWholeFileExportImportsIntoANewFileThatExportsTheSame(encrypted: Bool) throws {
        let environment = encrypted ? ["BURROW_ENCRYPTION_KEY": String(repeating: "5a", count: 64)] : [:]
        let source = try demo(environment: environment)
        let exported = try BurrowToolRun(["export", source], environment: environment)
        #expect(exported.status == 0 && exported.errors.isEmpty, "\(exported.errors)")
        #expect(exported.output.hasPrefix("{\"burrow-export\":1,\"schemaVersion\":0,\"classes\":[{\"name\":\"Address\""))
        #expect(exported.output.split(separator: "\n").count == 1 + 300 + 450 + 225)
        let data = try write(exported.output, to: "all.jsonl")

        let copy = directory.file("copy.realm").path
        let imported = try BurrowToolRun(["import", copy, data], environment: environment)
        #expect(imported.status == 0 && imported.output == "imported 975 objects into \(copy)\n", "\(imported.errors)")
        #expect(imported.errors.isEmpty, "every link target had a line of its own: \(imported.errors)")
        let again = try BurrowToolRun(["export", copy], environment: environment)
        #expect(again.output == exported.output, "the export of the import differs")
        // A new file is committed in pieces: links to objects of a later piece still resolve.
        let pieces = directory.file("pieces.realm").path
        var small = environment
        small["BURROW_IMPORT_COMMIT_SIZE"] = "7"
        let staged = try BurrowToolRun(["import", pieces, data], environment: small)
        #expect(staged.status == 0 && staged.errors.isEmpty, "\(staged.errors)")
        #expect(try BurrowToolRun(["export", pieces], environment: environment).output == exported.output, "the import in pieces differs")
        let verified = try BurrowToolRun(["verify", copy], environment: environment)
        #expect(verified.status == 0 && verified.output.hasSuffix("result: intact\n"), "\(verified.output)")
        // The same classes and objects through the schema the file records.
        let schema = try BurrowToolRun(["schema", copy], environment: environment)
        #expect(schema.output == (try BurrowToolRun(["schema", source], environment: environment)).output)
    }

    /// Each class exported alone, in each format, and imported class by class into a file
    /// holding only the schema, makes the same file.
    @Test func classByClassInEveryFormatMakesTheSameFile() throws {
        let source = try demo(people: 120)
        let whole = try BurrowToolRun(["export", source]).output
        let target = directory.file("target.realm").path
        let schemaOnly = try write(String(whole.prefix { $0 != "\n" }) + "\n", to: "schema.jsonl")
        let empty = try BurrowToolRun(["import", target, schemaOnly])
        #expect(empty.status == 0 && empty.output == "imported 0 objects into \(target)\n", "\(empty.errors)")
        for (className, format) in [("Dog", "csv"), ("Person", "json"), ("Visit", "jsonl")] {
            let exported = try BurrowToolRun(["export", source, "--class", className, "--format", format])
            #expect(exported.status == 0, "\(exported.errors)")
            let data = try write(exported.output, to: "\(className).\(format)")
            let imported = try BurrowToolRun(["import", target, className, data])
            #expect(imported.status == 0, "\(className) as \(format): \(imported.errors)")
            // A class exported again in the same format reads the same.
            #expect(try BurrowToolRun(["export", target, "--class", className, "--format", format]).output == exported.output, "\(className) as \(format)")
        }
        #expect(try BurrowToolRun(["export", target]).output == whole)
    }

    @Test func aValueThatDoesNotFitAbortsTheWholeImport() throws {
        let path = try demo(people: 10)
        let before = try BurrowToolRun(["export", path]).output
        let cases: [(name: String, data: String, arguments: [String], message: String)] = [
            ("bad-int.jsonl", "{\"id\":1000,\"name\":\"A\"}\n{\"id\":1001}\n{\"id\":\"x\"}\n", ["Person"],
             "bad-int.jsonl:3: id: expected a whole number, found \"x\"; nothing was imported"),
            ("unknown.jsonl", "{\"id\":1000,\"colour\":\"red\"}\n", ["Person"], "unknown.jsonl:1: colour: Person has no property 'colour'"),
            ("date.jsonl", "{\"id\":1000,\"born\":\"2026-02-30T00:00:00Z\"}\n", ["Person"], "date.jsonl:1: born: expected a date in ISO 8601"),
            ("nil.jsonl", "{\"id\":1000,\"name\":null}\n", ["Person"], "nil.jsonl:1: name: nil for a property that requires a value"),
            ("base64.jsonl", "{\"id\":1000,\"photo\":\"***\"}\n", ["Person"], "base64.jsonl:1: photo: expected base64 text"),
            ("broken.jsonl", "{\"id\":1000}\n{\"id\":1001,\n", ["Person"], "broken.jsonl:3: expected a member name in quotes"),
            ("twice.jsonl", "{\"id\":1000}\n{\"id\":1000}\n", ["Person"], "twice.jsonl:2: id: Person has an object with primary key 1000 already (--update modified or all replaces it)"),
            ("fields.csv", "id,name\n1000,A\n1001\n", ["Person"], "fields.csv:3: 1 fields, where the header has 2"),
            ("header.csv", "id,nom\n1000,A\n", ["Person"], "header.csv:1: the header names 'nom', which Person does not have"),
            ("quote.csv", "id,name\n1000,\"A\n", ["Person"], "quote.csv:2: a quoted field is not closed"),
            ("array.json", "[{\"id\":1000},{\"id\":1001} {\"id\":1002}]", ["Person"], "array.json:1: expected ']' to close the array of objects"),
            ("embedded.jsonl", "{}\n", ["Address"], "Address is embedded"),
            ("header.jsonl", "{\"id\":1000}\n", [], "header.jsonl:1: the first line is not the header of a whole-file export"),
        ]
        for (name, data, arguments, message) in cases {
            let file = try write(data, to: name)
            let run = try BurrowToolRun(["import", path] + arguments + [file])
            #expect(run.status == 2 && run.output.isEmpty, "\(name): \(run.status) \(run.output)")
            #expect(run.errors.contains(message) && run.errors.filter { $0 == "\n" }.count == 1, "\(name): \(run.errors)")
        }
        #expect(try BurrowToolRun(["export", path]).output == before, "a failed import changed the file")

        // An existing primary key is replaced with --update.
        let update = try write("{\"id\":3,\"name\":\"Renamed ✓\"}\n", to: "update.jsonl")
        let updated = try BurrowToolRun(["import", path, "Person", update, "--update", "modified"])
        #expect(updated.status == 0 && updated.output.contains("imported 1 object into") && updated.output.contains("(1 updated)"), "\(updated.errors)")
        let renamed = try Realm(configuration: Realm.Configuration(fileURL: URL(fileURLWithPath: path), readOnly: true, objectTypes: []))
            .dynamicObject(ofType: "Person", forPrimaryKey: 3)
        #expect(renamed?["name"] as? String == "Renamed ✓" && (renamed?["dogs"] as? List<DynamicObject>)?.count == 2)
    }

    @Test func aFailedWholeFileImportLeavesNoFileAndAMismatchedFileIsRefused() throws {
        let source = try demo(people: 5)
        let lines = try BurrowToolRun(["export", source]).output.split(separator: "\n").map(String.init)
        let broken = try write((lines.dropLast() + ["{\"class\":\"Dog\",\"object\":{\"id\":\"not an object id\"}}"]).joined(separator: "\n") + "\n",
                               to: "broken.jsonl")
        let target = directory.file("never.realm").path
        let run = try BurrowToolRun(["import", target, broken])
        #expect(run.status == 2 && run.errors.contains("broken.jsonl:\(lines.count): id: expected an object id"), "\(run.errors)")
        #expect(!FileManager.default.fileExists(atPath: target) && !FileManager.default.fileExists(atPath: target + "-lock"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).allSatisfy { !$0.contains("importing") },
                "the staging file is removed")

        // A file with a class of the same name and other properties.
        let other = directory.file("other.realm")
        _ = try Realm(configuration: Realm.Configuration(fileURL: other, objectTypes: [Person.self, Dog.self]))
        let whole = try write(lines.joined(separator: "\n") + "\n", to: "whole.jsonl")
        let refused = try BurrowToolRun(["import", other.path, whole])
        #expect(refused.status == 2 && refused.errors.contains("has a class Dog unlike the export's"), "\(refused.errors)")
        #expect(try count(other.path, "Person") == 0)
        // No class to import into, and no file.
        #expect(try BurrowToolRun(["import", directory.file("absent.realm").path, "Person", whole]).status == 2)
    }

    @Test func standardInputAndOutputStream() throws {
        let path = try demo(people: 30)
        let out = directory.file("people.csv").path
        let exported = try BurrowToolRun(["export", path, "--class", "Person", "--format", "csv", "--output", out])
        #expect(exported.status == 0 && exported.output.isEmpty)
        let csv = try String(contentsOfFile: out, encoding: .utf8)
        #expect(csv.hasPrefix("id,name,email,born,height,balance,token,photo,address,dogs,bestFriend,nicknames,scores\r\n"))
        #expect(csv.components(separatedBy: "\r\n").count == 32)
        let cases = try BurrowToolRun(["export", path, "--format", "csv"])
        #expect(cases.status == 2 && cases.errors.contains("a whole-file export is JSON lines"))
    }

    /// Objects of plain values are written as rows, the bulk way; the rows that way cannot take
    /// (no primary key, one already taken, a name given twice) import or fail as any other.
    @Test func plainRowsMissingOrRepeatingTheirKeyImportOrFailAsAnyOther() throws {
        func property(_ name: String, _ type: String, optional: Bool = false, primaryKey: Bool = false) -> String {
            "{\"name\":\"\(name)\",\"type\":\"\(type)\",\"optional\":\(optional),\"collection\":null,\"objectClass\":null,"
                + "\"originProperty\":null,\"indexed\":false,\"primaryKey\":\(primaryKey)}"
        }
        let schema = "{\"burrow-export\":1,\"schemaVersion\":0,\"classes\":["
            + "{\"name\":\"Row\",\"embedded\":false,\"primaryKey\":\"id\",\"properties\":[\(property("id", "int", primaryKey: true)),"
            + "\(property("name", "string")),\(property("email", "string", optional: true))]},"
            + "{\"name\":\"Tag\",\"embedded\":false,\"primaryKey\":\"code\",\"properties\":[\(property("code", "string", optional: true, primaryKey: true)),"
            + "\(property("label", "string"))]}]}\n"
        let path = directory.file("rows.realm").path
        #expect(try BurrowToolRun(["import", path, try write(schema, to: "schema.jsonl")]).status == 0)
        let loaded = try BurrowToolRun(["import", path, "Row", try write("id,name\r\n1,a\r\n2,\"b, c\"\r\n", to: "rows.csv")])
        #expect(loaded.status == 0 && loaded.output.hasPrefix("imported 2 objects"), "\(loaded.errors)")

        let cases: [(name: String, data: String, className: String, message: String)] = [
            ("nokey.csv", "name,email\nx,y\n", "Row", "nokey.csv:2: id: the primary key is missing"),
            ("taken.csv", "id,name\n3,c\n1,again\n", "Row", "taken.csv:3: id: Row has an object with primary key 1 already"),
            ("again.csv", "id,name\n3,c\n3,c\n", "Row", "again.csv:3: id: Row has an object with primary key 3 already"),
            ("nokey.jsonl", "{\"name\":\"x\"}\n", "Row", "nokey.jsonl:1: id: the primary key is missing"),
            ("twice.jsonl", "{\"id\":4,\"name\":\"a\",\"name\":\"b\"}\n", "Row", "twice.jsonl:1: name: given twice"),
            ("nilkey.csv", "code,label\nk,first\n,second\n", "Tag", "nilkey.csv:3: code: the primary key is missing"),
            ("nilkey.jsonl", "{\"code\":null,\"label\":\"x\"}\n", "Tag", "nilkey.jsonl:1: code: the primary key is missing"),
        ]
        for (name, data, className, message) in cases {
            let run = try BurrowToolRun(["import", path, className, try write(data, to: name)])
            #expect(run.status == 2 && run.errors.contains(message), "\(name): \(run.errors)")
        }
        #expect(try count(path, "Row") == 2 && count(path, "Tag") == 0, "a failed import wrote nothing")

        // With --update, a taken key updates the object; the others are added as rows.
        let updated = try BurrowToolRun(["import", path, "Row", try write("id,email\n2,b@example.com\n5,e@example.com\n", to: "update.csv"), "--update", "modified"])
        #expect(updated.status == 0 && updated.output.contains("imported 2 objects") && updated.output.contains("(1 updated)"), "\(updated.errors)")
        let exported = try BurrowToolRun(["export", path, "--class", "Row", "--format", "csv"])
        #expect(exported.output == "id,name,email\r\n1,a,\r\n2,\"b, c\",b@example.com\r\n5,,e@example.com\r\n")
    }
}
