import Burrow
import Foundation
import Testing

/// What every command that reads a file does with bad input: a missing file, a file that is
/// not a Burrow file, a wrong, missing or malformed key. Each is exit status 2 with one line on
/// standard error naming the file and the cause, and nothing on standard output.
@Suite(.enabled(if: BuildDirectory.product("burrow") != nil, "the burrow tool was not built beside the tests (run swift build --build-tests)"))
struct ToolInputTests {
    let directory = TestDirectory()

    private static let key = Data((0..<64).map { UInt8(truncatingIfNeeded: $0 * 5 + 3) })
    private static var hexKey: String { key.map { String(format: "%02x", $0) }.joined() }

    /// Each reading command with FILE in place of the file.
    private static func commands(_ file: String) -> [[String]] {
        [["query", file, "Dog"], ["schema", file], ["info", file], ["readers", file], ["dump", file], ["verify", file], ["compact", file]]
    }

    private func expectInputError(_ run: BurrowToolRun, _ message: String, _ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(run.status == 2 && !run.wasSignalled, "\(arguments): status \(run.status)", sourceLocation: sourceLocation)
        #expect(run.output.isEmpty, "\(arguments): printed \(run.output)", sourceLocation: sourceLocation)
        #expect(run.errors.hasPrefix("burrow \(arguments[0]): ") && run.errors.contains(message), "\(arguments): \(run.errors)",
                sourceLocation: sourceLocation)
        #expect(run.errors.filter { $0 == "\n" }.count == 1, "\(arguments): more than one line: \(run.errors)", sourceLocation: sourceLocation)
    }

    @Test func aMissingOrForeignFileIsBadInput() throws {
        let missing = directory.file("absent.realm").path
        for arguments in Self.commands(missing) {
            expectInputError(try BurrowToolRun(arguments), "absent.realm: No such file or directory", arguments)
        }
        let text = directory.file("notes.txt")
        try Data("a shopping list\n".utf8).write(to: text)
        let empty = directory.file("empty.realm")
        try Data().write(to: empty)
        for arguments in Self.commands(text.path) {
            expectInputError(try BurrowToolRun(arguments), "notes.txt: not a Burrow file", arguments)
        }
        for arguments in Self.commands(empty.path) {
            expectInputError(try BurrowToolRun(arguments), "empty.realm: the file is empty, not a Burrow file", arguments)
        }
        expectInputError(try BurrowToolRun(["schema", directory.url.path]), "not a regular file", ["schema"])
        // Nothing was written to the foreign file.
        #expect(try Data(contentsOf: text) == Data("a shopping list\n".utf8))
        #expect(!FileManager.default.fileExists(atPath: text.path + "-lock"))
    }

    @Test func anEncryptedFileNeedsItsKeyFromTheEnvironmentOrAKeyFile() throws {
        let path = directory.file("secret.realm").path
        #expect(try BurrowToolRun(["demo", path, "--people", "10"], environment: ["BURROW_ENCRYPTION_KEY": Self.hexKey]).status == 0)
        for arguments in Self.commands(path) {
            expectInputError(try BurrowToolRun(arguments, environment: [:]),
                             "no encryption key was given", arguments)
            expectInputError(try BurrowToolRun(arguments, environment: ["BURROW_ENCRYPTION_KEY": String(repeating: "7", count: 128)]),
                             "the encryption key is not the file's", arguments)
        }
        // The key file holds the digits, or the 64 bytes themselves.
        let hexFile = directory.file("key.hex"), rawFile = directory.file("key.bin"), badFile = directory.file("key.bad")
        try Data((Self.hexKey + "\n").utf8).write(to: hexFile)
        try Self.key.write(to: rawFile)
        try Data("not a key".utf8).write(to: badFile)
        for keyFile in [hexFile, rawFile] {
            let run = try BurrowToolRun(["query", path, "Person", "--count", "--key-file", keyFile.path])
            #expect(run.status == 0 && run.output == "10\n", "\(run.errors)")
        }
        let verified = try BurrowToolRun(["verify", path, "--key-file", rawFile.path])
        #expect(verified.status == 0 && verified.output.hasSuffix("result: intact\n"), "\(verified.output) \(verified.errors)")
        expectInputError(try BurrowToolRun(["schema", path, "--key-file", badFile.path]), "must be 128 hexadecimal digits", ["schema"])
        expectInputError(try BurrowToolRun(["schema", path, "--key-file", directory.file("none").path]), "cannot be read", ["schema"])
        // A key given to a file that is not encrypted.
        let plain = directory.file("plain.realm").path
        #expect(try BurrowToolRun(["demo", plain, "--people", "3"]).status == 0)
        expectInputError(try BurrowToolRun(["schema", plain, "--key-file", hexFile.path]), "the file is not encrypted", ["schema"])
    }

    @Test func stressRefusesAFileWithClassesOfItsOwn() throws {
        let path = directory.file("mine.realm").path
        #expect(try BurrowToolRun(["demo", path, "--people", "3"]).status == 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let run = try BurrowToolRun(["stress", "--file", path, "--seconds", "1"])
        #expect(run.status == 2 && run.errors.contains("holds classes of its own (Address, Dog, Person, Visit)")
                && run.errors.contains("--force"), "\(run.errors)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test func theVersionIsTheChangelogsNewest() throws {
        let run = try BurrowToolRun(["--version"])
        let changelog = try String(contentsOf: PackageDirectory.url.appendingPathComponent("CHANGELOG.md"), encoding: .utf8)
        let newest = try #require(changelog.split(separator: "\n").first { $0.hasPrefix("## ") })
        let version = try #require(newest.dropFirst(3).split(separator: " ").first)
        #expect(run.status == 0 && run.output == "burrow \(version)\n", "\(run.output) vs \(newest)")
        #expect(version.split(separator: ".").count == 3 && version.split(separator: ".").allSatisfy { Int($0) != nil })
    }
}
