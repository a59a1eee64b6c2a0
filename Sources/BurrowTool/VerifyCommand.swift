import Burrow
import Foundation

/// `burrow verify FILE`: checks every record of a realm file (``Realm/verifyFile(at:)``) in a
/// child process, so that damage LMDB itself trips over (it trusts its B-tree pages, and
/// aborts or faults on a damaged one) is reported as damage instead of ending the tool.
///
/// Exit status: 0 intact, 1 damaged or not a readable realm file, 2 misused.
enum VerifyCommand {
    /// The argument that makes the process the child that does the check.
    static let inProcessFlag = "--in-process"

    static func run(_ arguments: [String]) -> Int32 {
        let inProcess = arguments.contains(inProcessFlag)
        let paths = arguments.filter { $0 != inProcessFlag }
        guard paths.count == 1, !paths[0].hasPrefix("-") else {
            BurrowTool.printError("burrow: verify takes one FILE\n\n\(BurrowTool.usage)")
            return 2
        }
        guard let key = ToolEncryptionKey.read(for: "verify") else { return 2 }
        return inProcess ? check(paths[0], key: key) : checkInChild(paths[0])
    }

    /// Runs the check in a child process and reports how it ended.
    private static func checkInChild(_ path: String) -> Int32 {
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
        let arguments = [executable, "verify", inProcessFlag, path]
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
    private static func check(_ path: String, key: Data?) -> Int32 {
        let verification: Realm.FileVerification
        do {
            verification = try Realm.verifyFile(at: URL(fileURLWithPath: path), encryptionKey: key)
        } catch {
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
