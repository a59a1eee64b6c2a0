import Burrow
import Foundation

/// `burrow verify FILE`: checks every record of a realm file (``Realm/verifyFile(at:)``) in a
/// child process, so that damage LMDB itself trips over (it trusts its B-tree pages, and
/// aborts or faults on a damaged one) is reported as damage instead of ending the tool.
///
/// Exit status: 0 intact, 1 damaged, 2 misused or bad input (a missing file, not a Burrow
/// file, a wrong or missing key).
enum VerifyCommand {
    /// The argument that makes the process the child that does the check.
    static let inProcessFlag = "--in-process"

    static func run(_ arguments: [String]) -> Int32 {
        BurrowTool.running("verify") { () throws(ToolFailure) in
            let options = try CommandLineOptions(arguments, command: "verify", valued: ["key-file"], flags: [String(inProcessFlag.dropFirst(2))])
            guard options.positional.count == 1 else { throw .usage("verify takes one FILE", command: "verify") }
            // A missing or foreign file, or a malformed key, is bad input, not damage.
            let file = try ToolFile(options.positional[0], options: options)
            if options.flags.contains(String(inProcessFlag.dropFirst(2))) { return try check(file) }
            return checkInChild(file.path, keyFile: options.string("key-file"))
        }
    }

    /// Runs the check in a child process and reports how it ended.
    private static func checkInChild(_ path: String, keyFile: String?) -> Int32 {
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
        let arguments = [executable, "verify", inProcessFlag, path] + (keyFile.map { ["--key-file", $0] } ?? [])
        var argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, nil, nil, &argv, environ)
        guard spawned == 0 else {
            BurrowTool.printError("burrow verify: cannot start the checking process: \(String(cString: strerror(spawned)))")
            return 1
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        let signal = status & 0x7f
        if signal == 0 { return (status >> 8) & 0xff }
        print("""
            the check of \(path) stopped with signal \(signal) (\(signalName(signal))): the file is damaged inside \
            LMDB's B-tree pages, which LMDB reads without checking
            result: damaged
            """)
        return 1
    }

    /// Does the check in this process and prints what it found.
    private static func check(_ file: ToolFile) throws(ToolFailure) -> Int32 {
        let path = file.path
        let verification: Realm.FileVerification
        do {
            verification = try Realm.verifyFile(at: file.url, encryptionKey: file.key)
        } catch {
            if ToolFile.isKeyProblem(error) { throw .input(ToolFile.describe(error, path: path)) }
            print("\(path) cannot be opened: \(error.localizedDescription)\nresult: damaged")
            return 1
        }
        let objects = verification.objectCounts.values.reduce(0, +)
        var lines = ["verified \(path): \(verification.objectCounts.count) classes, \(objects) objects, \(verification.recordsRead) records read"]
        for (name, count) in verification.objectCounts.sorted(by: { $0.key < $1.key }) {
            lines.append("  \(name): \(count) objects")
        }
        if !verification.isIntact {
            lines.append("problems: \(verification.problemCount)")
            lines += verification.problems.map { "  \($0)" }
            if verification.problemCount > verification.problems.count {
                lines.append("  and \(verification.problemCount - verification.problems.count) more")
            }
        }
        lines.append("result: \(verification.isIntact ? "intact" : "damaged")")
        print(lines.joined(separator: "\n"))
        return verification.isIntact ? 0 : 1
    }

    private static func signalName(_ signal: Int32) -> String {
        switch signal {
        case SIGABRT: "SIGABRT, an LMDB assertion"
        case SIGBUS: "SIGBUS"
        case SIGSEGV: "SIGSEGV"
        case SIGILL, SIGTRAP: "a trap"
        default: "signal \(signal)"
        }
    }
}
