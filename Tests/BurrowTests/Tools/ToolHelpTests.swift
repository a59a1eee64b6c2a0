import Foundation
import Testing

/// `burrow COMMAND --help` prints that command's usage and exits 0; an unknown command exits 2.
@Suite(.enabled(if: BuildDirectory.product("burrow") != nil, "the burrow tool was not built beside the tests (run swift build --build-tests)"))
struct ToolHelpTests {
    @Test(arguments: [("compact", "usage: burrow compact SRC [DST]"), ("dump", "usage: burrow dump FILE [CLASS]"), ("query", "usage: burrow query FILE CLASS"),
                      ("schema", "usage: burrow schema FILE"), ("info", "usage: burrow info FILE"), ("readers", "usage: burrow readers FILE"),
                      ("demo", "usage: burrow demo FILE"),
                      ("verify", "usage: burrow verify FILE"), ("sync", "burrow sync adopt CONNECTION [--follow]"),
                      ("stress", "usage: burrow stress")])
    func eachCommandHasItsOwnHelp(command: String, firstWords: String) throws {
        for flag in ["--help", "-h"] {
            let run = try BurrowToolRun([command, flag])
            #expect(run.status == 0 && run.errors.isEmpty, "\(command) \(flag): \(run.errors)")
            #expect(run.output.contains(firstWords), "\(command) \(flag): \(run.output)")
            #expect(!run.output.contains("commands:"), "\(command) \(flag) printed the general usage")
        }
        // Help wins wherever it stands among the arguments, and does nothing else.
        let late = try BurrowToolRun([command, "/nonexistent/file.realm", "--help"])
        #expect(late.status == 0 && late.output.contains(firstWords))
    }

    @Test func anUnknownCommandIsAMisuse() throws {
        let run = try BurrowToolRun(["frobnicate", "--help"])
        #expect(run.status == 2 && run.errors.contains("unknown command 'frobnicate'"))
        let general = try BurrowToolRun(["help"])
        #expect(general.status == 0 && general.output.contains("sync adopt CONNECTION"))
    }
}
