@testable import BurrowTool
import Testing

/// The tool's option parser: `--name value` and `--name=value`, flags, positional words, `--`,
/// a lone `-`, negative numbers as values, and each misuse with its message.
@Suite struct CommandLineOptionsTests {
    private func parse(_ arguments: [String], valued: Set<String> = ["format", "limit", "class"], flags: Set<String> = ["quiet", "yes"])
        throws(CommandLineOptions.UsageError) -> CommandLineOptions {
        try CommandLineOptions(arguments, valued: valued, flags: flags)
    }

    private func message(_ arguments: [String]) -> String? {
        do {
            _ = try parse(arguments)
            return nil
        } catch {
            return error.message
        }
    }

    @Test func valuesFlagsAndPositionalWordsInAnyOrder() throws {
        let options = try parse(["app.realm", "--format", "csv", "Dog", "--quiet", "--limit=5", "age < 2"])
        #expect(options.positional == ["app.realm", "Dog", "age < 2"])
        #expect(options.string("format") == "csv" && options.string("limit") == "5" && options.string("class") == nil)
        #expect(options.flags == ["quiet"])
    }

    @Test func aValueMayLookLikeAnythingButIsTakenAsGiven() throws {
        // The next argument is the value, whatever it looks like; after `=`, the rest is.
        let options = try parse(["--class", "--quiet", "--format=a=b", "--limit", "-3"])
        #expect(options.string("class") == "--quiet" && options.flags.isEmpty)
        #expect(options.string("format") == "a=b" && options.string("limit") == "-3")
        // An empty value is a value; the last of a repeated option wins.
        let repeated = try parse(["--format=", "--limit", "1", "--limit", "2"])
        #expect(repeated.string("format") == "" && repeated.string("limit") == "2")
    }

    @Test func aLoneDashNegativeNumbersAndWordsAfterDoubleDashArePositional() throws {
        let options = try parse(["-", "-12", "--", "--quiet", "-x", "--format"])
        #expect(options.positional == ["-", "-12", "--quiet", "-x", "--format"])
        #expect(options.flags.isEmpty && options.string("format") == nil)
        #expect(try parse(["--"]).positional.isEmpty)
        #expect(try parse([]).positional.isEmpty)
        // Unicode words pass through untouched.
        #expect(try parse(["Zoë ✓", "名前 == 'x'"]).positional == ["Zoë ✓", "名前 == 'x'"])
    }

    @Test func misusesSayWhatIsWrong() {
        #expect(message(["--colour"]) == "unknown option --colour")
        #expect(message(["--colour=red"]) == "unknown option --colour")
        #expect(message(["-q"]) == "unknown option -q")
        #expect(message(["-1.5"]) == "unknown option -1.5", "only whole negative numbers are values")
        #expect(message(["--format"]) == "--format needs a value")
        #expect(message(["--quiet=yes"]) == "--quiet takes no value")
    }

    @Test func integersAndChoicesAreChecked() throws {
        let options = try parse(["--limit", "12", "--format", "csv"])
        #expect(try options.integer("limit", default: 0, in: 0...100) == 12)
        #expect(try options.integer("class", default: 7, in: 0...100) == 7, "absent: the default")
        #expect(try options.choice("format", of: ["csv", "json"], default: "json") == "csv")
        #expect(try options.choice("class", of: ["a"], default: "a") == "a")
        #expect(throws: CommandLineOptions.UsageError.self) { try options.integer("limit", default: 0, in: 0...10) }
        do {
            _ = try parse(["--limit", "x"]).integer("limit", default: 0, in: 0...10)
            Issue.record("a word is no number")
        } catch {
            #expect(error.message == "--limit must be a whole number from 0 to 10, not 'x'")
        }
        do {
            _ = try options.choice("format", of: ["json", "jsonl"], default: "json")
            Issue.record("csv is not a choice here")
        } catch {
            #expect(error.message == "--format must be one of json, jsonl, not 'csv'")
        }
    }

    @Test func aCommandsMisuseBecomesAUsageFailureNamingIt() {
        do {
            _ = try CommandLineOptions(["--nope"], command: "export", valued: [], flags: [])
            Issue.record("an unknown option is a misuse")
        } catch {
            #expect(error.status == 2 && error.message == "unknown option --nope (see burrow export --help)")
        }
    }
}
