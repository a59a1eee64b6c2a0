import Burrow
import Foundation
import Testing

/// `burrow shell`: lines piped in, and a session typed in a real terminal (tmux) with line
/// editing and a history that outlives it.
@Suite(.enabled(if: BuildDirectory.product("burrow") != nil, "the burrow tool was not built beside the tests (run swift build --build-tests)"),
       .plainFilesOnly("the tool is run without BURROW_ENCRYPTION_KEY"))
struct ShellToolTests {
    let directory = TestDirectory()

    private func demo() throws -> String {
        let path = directory.file("demo.realm").path
        #expect(try BurrowToolRun(["demo", path, "--people", "100"]).status == 0)
        return path
    }

    private func youngDogs(_ path: String) throws -> Int {
        try Realm(configuration: Realm.Configuration(fileURL: URL(fileURLWithPath: path), readOnly: true, objectTypes: []))
            .dynamicObjects("Dog").filter("age < 2").count
    }

    @Test func linesPipedInRunInTurnAndMistakesDoNotEndTheShell() throws {
        let path = try demo()
        let script = """
            Dog count where age < 2
            Dog where age < 2 sort -age,name limit 2
            -- a comment
            Dog wher age < 2
            Dog where agee < 2
            .mode csv
            Visit limit 1
            .schema Visit
            Address
            .frobnicate
            .quit
            Dog
            """
        let run = try BurrowToolRun(["shell", path], input: script)
        #expect(run.status == 0, "\(run.errors)")
        let lines = run.output.split(whereSeparator: \.isNewline).map(String.init)
        #expect(lines.first == "\(try youngDogs(path))")
        #expect(lines.count > 3 && lines[1].hasPrefix("{\"id\":") && lines[2].hasPrefix("{\"id\":"))
        #expect(lines[3] == "dog,at,note" && lines[4].hasPrefix("000000000000000000000001,"))
        #expect(run.output.contains("class Visit\n  dog   Dog?\n"))
        #expect(!run.output.contains("\"breed\":null,\"age\"") || lines.count < 40, "the lines after .quit ran")
        #expect(!(run.output + run.errors).contains("\u{1B}"), "colour where no terminal is")
        let errors = run.errors.split(separator: "\n").map(String.init)
        #expect(errors.contains { $0.hasPrefix("error: expected CLASS [count] [where PREDICATE]") }, "\(run.errors)")
        #expect(errors.contains("error: Invalid query at position 0: unknown property 'agee' on Dog; did you mean 'age'?"))
        #expect(errors.contains("error: unknown command .frobnicate; .help lists them"))
        #expect(errors.contains { $0.hasPrefix("error: Address is embedded") })
    }

    @Test(.enabled(if: ShellTerminal.tmux != nil, "tmux is not installed (Scripts/bootstrap.sh --tests installs it)"))
    func aSessionInATerminalEditsLinesAndKeepsItsHistory() throws {
        let path = try demo()
        let history = directory.file("history").path
        let terminal = try ShellTerminal(folder: directory.url, command: [BuildDirectory.product("burrow")!.path, "shell", path],
                                         environment: ["BURROW_HISTORY": history, "NO_COLOR": "1"])
        defer { terminal.stop() }
        // tmux drops the spaces that end a line.
        try terminal.waitFor("burrow>")
        let count = try youngDogs(path)
        // A typo corrected with the arrow keys and backspace before Enter.
        try terminal.type("Dog cout where age < 2")
        try terminal.keys("Left", "Left", "Left", "Left", "Left", "Left", "Left", "Left", "Left", "Left", "Left", "Left", "Left", "Left", "BSpace")
        try terminal.type("nt")
        try terminal.keys("Enter")
        try terminal.waitFor("\n\(count)\n")
        try terminal.type("Dog where age < 2 sort name limit 3")
        try terminal.keys("Enter")
        try terminal.waitFor("(3 objects)")
        let screen = try terminal.screen()
        #expect(screen.contains("id                        name"), "the table's header: \(screen)")
        // The history: up twice and Enter runs the count again.
        try terminal.keys("Up", "Up", "Enter")
        try terminal.waitFor("(3 objects)", then: "\n\(count)\n")
        try terminal.type(".quit")
        try terminal.keys("Enter")
        try terminal.waitForExit()
        // libedit keeps its history with spaces written as \\040.
        let kept = try String(contentsOfFile: history, encoding: .utf8).replacingOccurrences(of: "\\040", with: " ")
        #expect(kept.contains("Dog count where age < 2") && kept.contains("Dog where age < 2 sort name limit 3"), "\(kept)")
    }
}

extension ShellToolTests {
    /// The table's header is bold and errors red on a terminal, unless NO_COLOR is set.
    @Test(.enabled(if: ShellTerminal.tmux != nil, "tmux is not installed (Scripts/bootstrap.sh --tests installs it)"),
          arguments: [false, true])
    func colourOnATerminalOnlyWithoutNoColor(noColor: Bool) throws {
        let path = try demo()
        let folder = directory.url.appendingPathComponent(noColor ? "plain" : "colour")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let terminal = try ShellTerminal(folder: folder, command: [BuildDirectory.product("burrow")!.path, "shell", path],
                                         environment: ["BURROW_HISTORY": "", "TERM": "xterm-256color"].merging(noColor ? ["NO_COLOR": "1"] : [:]) { $1 },
                                         unset: noColor ? [] : ["NO_COLOR"])
        defer { terminal.stop() }
        try terminal.waitFor("burrow>")
        try terminal.type("Dog limit 1")
        try terminal.keys("Enter")
        try terminal.type("Cat")
        try terminal.keys("Enter")
        try terminal.waitFor("(1 object)", then: "has no class 'Cat'")
        let screen = try terminal.screen(escapes: true)
        #expect(screen.contains("\u{1B}[1m") == !noColor, "bold header: \(screen.debugDescription)")
        #expect(screen.contains("\u{1B}[31m") == !noColor, "red error: \(screen.debugDescription)")
    }
}

/// A terminal of tmux's, on a server of its own, running one command.
struct ShellTerminal {
    static let tmux: String? = ["/usr/bin/tmux", "/usr/local/bin/tmux"].first { FileManager.default.isExecutableFile(atPath: $0) }

    private let socket: String
    private let exitMarker: URL

    /// `unset`: variables of this process the command must not see.
    init(folder: URL, command: [String], environment: [String: String], unset: [String] = []) throws {
        socket = folder.appendingPathComponent("tmux.socket").path
        exitMarker = folder.appendingPathComponent("exited")
        let variables = (unset.map { "-u \($0)" } + environment.map { "\($0.key)=\(Self.quoted($0.value))" }).joined(separator: " ")
        let line = "env \(variables) \(command.map(Self.quoted).joined(separator: " ")); echo done > \(Self.quoted(exitMarker.path)); sleep 30"
        let started = try run(["new-session", "-d", "-s", "shell", "-x", "160", "-y", "50", line])
        if !started.isEmpty { Issue.record("tmux new-session: \(started)") }
    }

    func type(_ text: String) throws { try run(["send-keys", "-t", "shell", "-l", text]) }
    func keys(_ names: String...) throws { try run(["send-keys", "-t", "shell"] + names) }

    /// What the terminal shows, with what scrolled off: captured into a buffer the server
    /// saves to a file.
    func screen(escapes: Bool = false) throws -> String {
        let saved = socket + ".screen"
        try run(["capture-pane"] + (escapes ? ["-e"] : []) + ["-t", "shell", "-S", "-200", ";", "save-buffer", saved])
        defer { unlink(saved) }
        return (try? String(contentsOfFile: saved, encoding: .utf8)) ?? ""
    }

    /// Waits until the screen shows `text` (after `earlier`, when given).
    func waitFor(_ earlier: String, then text: String? = nil, seconds: Double = 20) throws {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            let shown = try screen()
            if let first = shown.range(of: earlier) {
                guard let text else { return }
                if shown[first.upperBound...].contains(text) { return }
            }
            usleep(50_000)
        }
        Issue.record("the terminal never showed \(text ?? earlier); it shows:\n\(try screen())\nsessions: \(try run(["list-sessions"]))")
        throw CancellationError()
    }

    func waitForExit(seconds: Double = 20) throws {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if FileManager.default.fileExists(atPath: exitMarker.path) { return }
            usleep(50_000)
        }
        Issue.record("the shell did not end")
    }

    func stop() {
        _ = try? run(["kill-server"])
    }

    /// Runs tmux with `arguments` and returns what it printed. Spawned and waited for
    /// directly: the server a new session starts outlives the client, holding what it
    /// inherited.
    @discardableResult
    private func run(_ arguments: [String]) throws -> String {
        let capture = socket + "-\(UUID().uuidString).out"
        defer { unlink(capture) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, capture, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        // The server outlives the client: it must not hold the pipes of other tests' processes.
        let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        for descriptor in open.compactMap(Int32.init) where descriptor > 2 && fcntl(descriptor, F_GETFD) >= 0 {
            posix_spawn_file_actions_addclose(&actions, descriptor)
        }
        let argv = [Self.tmux!, "-S", socket, "-f", "/dev/null"] + arguments
        var cArguments = argv.map { strdup($0) } + [nil]
        defer { cArguments.forEach { free($0) } }
        // The test runner's threads block most signals, and a child inherits its thread's
        // mask: tmux, and the command in its pane, get the default mask and handlers, so that
        // kill-server's hang-up ends the command.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t(), all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, Self.tmux!, &actions, &attributes, &cArguments, environ)
        guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EIO) }
        var status: Int32 = 0
        var waited = waitpid(pid, &status, 0)
        while waited < 0 && errno == EINTR { waited = waitpid(pid, &status, 0) }
        // The test runner may reap children of its own accord: then wait for the process to go.
        if waited < 0 { while kill(pid, 0) == 0 { usleep(10_000) } }
        return (try? String(contentsOfFile: capture, encoding: .utf8)) ?? ""
    }

    private static func quoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
