import Foundation
import Testing

/// `burrow stress`, run as its own process the way `Scripts/stress.sh` runs it.
@Suite(.enabled(if: BuildDirectory.product("burrow") != nil, "the burrow tool was not built beside the tests (run swift build --build-tests)"))
struct StressToolTests {
    @Test func aShortRunWithKilledWorkersPasses() throws {
        let run = try BurrowToolRun(["stress", "--threads", "3", "--processes", "2", "--seconds", "5", "--kill-every", "2"])
        #expect(run.status == 0, "stderr: \(run.errors)")
        #expect(run.output.contains("result: passed"))
        #expect(run.output.contains("violations 0, crashed processes 0, deadlocks 0"))
        let killed = run.output.split(separator: "\n").first { $0.hasPrefix("killed ") }
        #expect(killed.map { !$0.hasPrefix("killed 0 ") } == true, "no worker was killed: \(run.output)")
        // A progress line a second.
        #expect(run.output.split(separator: "\n").filter { $0.hasPrefix("[") }.count >= 4)
        // The listeners heard commits, and every notification passed its checks.
        let heard = run.output.split(separator: "\n").first { $0.hasPrefix("notifications ") }?.split(separator: " ").dropFirst().first
        #expect(heard.flatMap { Int($0) }.map { $0 > 0 } == true, "no notification was heard: \(run.output)")
    }

    @Test func aBrokenInvariantIsCaught() throws {
        let run = try BurrowToolRun(["stress", "--threads", "2", "--processes", "1", "--seconds", "2", "--break-invariant"])
        #expect(run.status == 1)
        #expect(run.output.contains("result: FAILED"))
        #expect(run.errors.contains("violation"))
    }

    @Test func anExistingFileIsUsedAndKept() throws {
        let directory = TestDirectory()
        let path = directory.file("mine.realm").path
        let run = try BurrowToolRun(["stress", "--threads", "2", "--processes", "1", "--seconds", "2", "--file", path,
                                     "--kill-every", "0"])
        #expect(run.status == 0, "stderr: \(run.errors)")
        #expect(FileManager.default.fileExists(atPath: path))
    }

    @Test func aMisusedCommandLineExitsWithTwo() throws {
        for arguments in [["stress", "--threads", "0"], ["stress", "--bogus"], ["stress", "extra"], ["stress", "--seconds"]] {
            let run = try BurrowToolRun(arguments)
            #expect(run.status == 2, "\(arguments)")
            #expect(run.errors.contains("usage: burrow stress"), "\(arguments)")
        }
        let help = try BurrowToolRun(["stress", "--help"])
        #expect(help.status == 0 && help.output.contains("--kill-every"))
    }
}
