import Burrow
import Foundation
import Testing

/// Every command of the tool on an encrypted demo file, its key in a file: each works with the
/// key, and each refuses the file without it (exit status 2, one line).
@Suite(.enabled(if: BuildDirectory.product("burrow") != nil, "the burrow tool was not built beside the tests (run swift build --build-tests)"))
struct EncryptedEndToEndToolTests {
    let directory = TestDirectory()

    @Test func everyCommandReadsAnEncryptedFileWithItsKeyFileAndRefusesItWithout() throws {
        let keyFile = directory.file("app.key")
        try Data((0..<64).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ 5) }).write(to: keyFile)
        let key = ["--key-file", keyFile.path]
        let path = directory.file("sealed.realm").path
        #expect(try BurrowToolRun(["demo", path, "--people", "30"] + key).status == 0)
        let file = { (name: String) in directory.file(name).path }
        let commands: [(arguments: [String], output: String)] = [
            (["info", path], "Person"),
            (["readers", path], "reader slots hold a version"),
            (["schema", path], "class Dog (primary key id)"),
            (["query", path, "Dog", "age < 5", "--count"], ""),
            (["dump", path, "Visit"], "Visit: 23 objects"),
            (["export", path, "--output", file("all.jsonl")], ""),
            (["verify", path], "result: intact"),
            (["report", path, "-o", file("report.html")], "wrote "),
            (["set", path, "Dog", "age < 2", "name=Tiny", "--yes"], "changed "),
            (["delete", path, "Visit", "note == 'check-up'", "--yes"], "deleted "),
            (["copy", path, file("copy.realm")], "encrypted with the same key"),
            (["recover", path, file("recovered.realm")], "recovered 86 of 86 objects"),
            (["compact", path], "compacted"),
        ]
        for (arguments, output) in commands {
            let refused = try BurrowToolRun(arguments)
            #expect(refused.status == 2 && refused.errors.contains("no encryption key was given"), "\(arguments) without the key: \(refused.status) \(refused.errors)")
            #expect(refused.errors.filter { $0 == "\n" }.count == 1, "\(arguments): \(refused.errors)")
            let run = try BurrowToolRun(arguments + key)
            #expect(run.status == 0 && (output.isEmpty || run.output.contains(output)), "\(arguments): \(run.status) \(run.output.prefix(300)) \(run.errors)")
        }
        // The export imports into a new file encrypted with the same key, and the shell reads it.
        let imported = file("imported.realm")
        #expect(try BurrowToolRun(["import", imported, file("all.jsonl")] + key).status == 0)
        #expect(try BurrowToolRun(["query", imported, "Person", "--count"]).status == 2)
        let shell = try BurrowToolRun(["shell", imported] + key, input: "Person count\n")
        #expect(shell.status == 0 && shell.output == "30\n", "\(shell.output) \(shell.errors)")
    }
}
