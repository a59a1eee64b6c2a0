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
    /// The child's descriptor for its progress: a line with the count of records read so far,
    /// as the check begins and every 1,024 records.
    private static let progressDescriptor: Int32 = 3
    /// How long the check may read no record before it is taken to be caught in damaged
    /// pages that loop (LMDB follows page numbers without checking), and stopped; while
    /// another process holds the file exclusively (compacting it), its open waits and that is
    /// no stall. `BURROW_VERIFY_STALL_SECONDS` sets it (tests shorten it).
    static let stallSeconds: Int32 = ProcessInfo.processInfo.environment["BURROW_VERIFY_STALL_SECONDS"].flatMap(Int32.init).map { max(1, $0) } ?? 60

    static func run(_ arguments: [String]) -> Int32 {
        BurrowTool.running("verify") { () throws(ToolFailure) in
            let options = try CommandLineOptions(arguments, command: "verify", valued: ["key-file"], flags: [String(inProcessFlag.dropFirst(2)), "quiet"])
            guard options.positional.count == 1 else { throw .usage("verify takes one FILE", command: "verify") }
            // A missing or foreign file, or a malformed key, is bad input, not damage.
            let file = try ToolFile(options.positional[0], options: options)
            if options.flags.contains(String(inProcessFlag.dropFirst(2))) { return try check(file) }
            return checkInChild(file.path, keyFile: options.string("key-file"), quiet: options.flags.contains("quiet"))
        }
    }

    /// Runs the check in a child process, following its progress, and reports how it ended.
    private static func checkInChild(_ path: String, keyFile: String?, quiet: Bool) -> Int32 {
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
        let arguments = [executable, "verify", inProcessFlag, path] + (keyFile.map { ["--key-file", $0] } ?? [])
        var argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else {
            BurrowTool.printError("burrow verify: cannot start the checking process: \(String(cString: strerror(errno)))")
            return 1
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addclose(&actions, ends[0])
        posix_spawn_file_actions_adddup2(&actions, ends[1], progressDescriptor)
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, &actions, nil, &argv, environ)
        close(ends[1])
        defer { close(ends[0]) }
        guard spawned == 0 else {
            BurrowTool.printError("burrow verify: cannot start the checking process: \(String(cString: strerror(spawned)))")
            return 1
        }
        let stalled = follow(ends[0], path: path, progress: Progress(label: "verified", unit: "records", quiet: quiet))
        if stalled { kill(pid, SIGKILL) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        if stalled {
            print("""
                the check of \(path) read no record for \(stallSeconds) s and was stopped: LMDB's B-tree pages are \
                damaged so that they loop, which LMDB does not check
                result: damaged
                """)
            return 1
        }
        let signal = status & 0x7f
        if signal == 0 { return (status >> 8) & 0xff }
        print("""
            the check of \(path) stopped with signal \(signal) (\(signalName(signal))): the file is damaged inside \
            LMDB's B-tree pages, which LMDB reads without checking
            result: damaged
            """)
        return 1
    }

    /// Reads the child's progress from `descriptor` until it closes it (it ended); `true` when
    /// it read nothing for ``stallSeconds`` while nobody held `path` exclusively.
    private static func follow(_ descriptor: Int32, path: String, progress: Progress) -> Bool {
        var progress = progress
        var buffer = [UInt8](repeating: 0, count: 4096)
        var pending: [UInt8] = []
        defer { progress.finish() }
        while true {
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, stallSeconds * 1000)
            if ready == 0 {
                if FileCompaction.isHeldExclusivelyElsewhere(path) { continue }
                return true
            }
            if ready < 0 { if errno == EINTR { continue } else { return false } }
            let count = read(descriptor, &buffer, buffer.count)
            if count <= 0 { return false }
            pending += buffer[0..<count]
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                if let records = Int(String(decoding: pending[..<newline], as: UTF8.self)) { progress.advance(to: records) }
                pending.removeSubrange(...newline)
            }
        }
    }

    /// Does the check in this process and prints what it found.
    private static func check(_ file: ToolFile) throws(ToolFailure) -> Int32 {
        let path = file.path
        let verification: Realm.FileVerification
        do {
            // The parent follows the count of records read on the progress descriptor.
            let reportsProgress = fcntl(progressDescriptor, F_GETFD) != -1
            verification = try Realm.verifyFile(at: file.url, encryptionKey: file.key) { records in
                guard reportsProgress else { return }
                let line = Array("\(records)\n".utf8)
                _ = line.withUnsafeBytes { write(progressDescriptor, $0.baseAddress, $0.count) }
            }
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
