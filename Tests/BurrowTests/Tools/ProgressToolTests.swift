import Burrow
import Foundation
import Testing

/// Long work draws a progress line on standard error when it is a terminal (export, import,
/// verify), never with --quiet, and never when standard error is not a terminal (the other
/// tool suites check that standard error stays empty).
@Suite(.enabled(if: BuildDirectory.product("burrow") != nil, "the burrow tool was not built beside the tests (run swift build --build-tests)"),
       .plainFilesOnly("the tool is run without BURROW_ENCRYPTION_KEY"))
struct ProgressToolTests {
    let directory = TestDirectory()

    @Test(.enabled(if: ShellTerminal.tmux != nil, "tmux is not installed (Scripts/bootstrap.sh --tests installs it)"),
          arguments: [false, true])
    func progressLinesOnATerminalUnlessQuiet(quiet: Bool) throws {
        let folder = directory.url.appendingPathComponent(quiet ? "quiet" : "shown")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let demo = folder.appendingPathComponent("demo.realm").path
        #expect(try BurrowToolRun(["demo", demo, "--people", "1500"]).status == 0)
        let burrow = BuildDirectory.product("burrow")!.path
        let flag = quiet ? " --quiet" : ""
        let export = folder.appendingPathComponent("all.jsonl").path
        let script = """
            '\(burrow)' export '\(demo)' --output '\(export)'\(flag) && \
            '\(burrow)' import '\(folder.appendingPathComponent("copy.realm").path)' '\(export)'\(flag) > /dev/null && \
            '\(burrow)' verify '\(demo)'\(flag) > /dev/null && echo finished
            """
        let terminal = try ShellTerminal(folder: folder, command: ["/bin/sh", "-c", script], environment: ["NO_COLOR": "1"])
        defer { terminal.stop() }
        try terminal.waitFor("finished", seconds: 60)
        let screen = try terminal.screen()
        // 1,500 people, 2,250 dogs and 1,125 visits; verify reads more records than objects.
        for line in ["exported 4875 objects", "imported 4875 objects", "verified "] {
            #expect(screen.contains(line) == !quiet, "\(line): \(screen)")
        }
    }
}
