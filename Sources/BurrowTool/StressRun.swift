import Burrow
import Foundation

/// One `burrow stress` run: starts the worker processes, kills and replaces some, watches for
/// stalls, prints progress, and checks the file at the end.
final class StressRun {
    struct Outcome {
        var passed: Bool
    }

    private let options: StressCommand.Options
    private let path: String
    private var running: [StressChild] = []
    /// The last reports of processes that ended.
    private var ended = StressReport()
    private var killed = 0
    private var crashed = 0

    init(options: StressCommand.Options, path: String) {
        self.options = options
        self.path = path
    }

    func execute() -> Outcome {
        let started = Date()
        let end = started.addingTimeInterval(TimeInterval(options.seconds))
        for _ in 0..<options.processes { spawn(until: end) }
        var previous = StressReport()
        var lastActivity = (work: 0, at: started)
        var nextKill = started.addingTimeInterval(TimeInterval(options.killEvery))
        var deadlocked = false
        var second = 0
        while !running.isEmpty || Date() < end {
            Thread.sleep(forTimeInterval: 1)
            second += 1
            let now = Date()
            reapEnded(before: end)
            let total = currentTotal
            print(progressLine(second: second, total: total, previous: previous))
            fflush(nil)  // one line a second, even into a pipe or a file
            previous = total
            let work = total.transactions + total.reads
            if work > lastActivity.work {
                lastActivity = (work, now)
            } else if now.timeIntervalSince(lastActivity.at) >= TimeInterval(options.watchdog) {
                BurrowTool.printError("burrow stress: deadlock: nothing committed or read for \(options.watchdog) s")
                deadlocked = true
                break
            }
            // Workers end on their own by the deadline; one Foundation has not seen end a few
            // seconds later is stopped (and reaped) below.
            if now.timeIntervalSince(end) > 5 { break }
            if options.killEvery > 0, now >= nextKill, end.timeIntervalSince(now) > 2, let victim = running.randomElement() {
                victim.kill()
                killed += 1
                spawn(until: end)
                nextKill = now.addingTimeInterval(TimeInterval(options.killEvery))
            }
        }
        running.forEach { $0.kill() }
        reapEnded(before: .distantPast)
        let total = currentTotal
        let finalProblem = finalCheck()
        let seconds = max(Date().timeIntervalSince(started), 1)
        let violations = total.violations + (finalProblem == nil ? 0 : 1)
        let passed = violations == 0 && crashed == 0 && !deadlocked
        print(summary(total: total, seconds: seconds, violations: violations, deadlocked: deadlocked, passed: passed))
        return Outcome(passed: passed)
    }

    // MARK: Processes

    private func spawn(until end: Date) {
        let seconds = max(1, Int(end.timeIntervalSinceNow.rounded(.up)))
        var arguments = ["stress-worker", "--file", path, "--threads", "\(options.threads)", "--seconds", "\(seconds)"]
        if options.breakInvariant { arguments.append("--break-invariant") }
        do {
            running.append(try StressChild(arguments: arguments))
        } catch {
            BurrowTool.printError("burrow stress: cannot start a worker process: \(error.localizedDescription)")
            crashed += 1
        }
    }

    /// Retires the processes that ended, counting those that failed on their own.
    private func reapEnded(before end: Date) {
        for child in running where child.hasEnded {
            if !child.wasKilled, !child.succeeded {
                crashed += 1
                BurrowTool.printError("burrow stress: worker process \(child.pid) ended badly (\(child.ending))")
            }
            ended = ended.adding(child.latest)
        }
        running.removeAll { $0.hasEnded }
    }

    private var currentTotal: StressReport {
        running.reduce(ended) { $0.adding($1.latest) }
    }

    /// The invariants over the whole file, read afresh once every process is gone.
    private func finalCheck() -> String? {
        do {
            let realm = try Realm(configuration: StressLedger.configuration(path))
            let problem = StressLedger.problem(in: realm)
            if let problem { BurrowTool.printError("burrow stress: violation in the final file: \(problem)") }
            return problem
        } catch {
            let problem = "cannot open the file at the end: \(error.localizedDescription)"
            BurrowTool.printError("burrow stress: \(problem)")
            return problem
        }
    }

    // MARK: Output

    private func progressLine(second: Int, total: StressReport, previous: StressReport) -> String {
        let transactions = total.transactions - previous.transactions
        let reads = total.reads - previous.reads
        return "[\(String(format: "%4d", second)) s] \(transactions) tx/s, \(reads) reads/s, "
            + "violations \(total.violations), processes \(running.count), killed \(killed)"
    }

    private func summary(total: StressReport, seconds: Double, violations: Int, deadlocked: Bool, passed: Bool) -> String {
        func rate(_ count: Int) -> String { String(format: "%.0f/s", Double(count) / seconds) }
        func milliseconds(_ microseconds: Int) -> String { String(format: "%.2f ms", Double(microseconds) / 1_000) }
        let waits = total.waits
        return """
            transactions \(total.transactions) (\(rate(total.transactions))), reads \(total.reads) (\(rate(total.reads)))
            notifications \(total.notifications) (\(rate(total.notifications))), each checked for order and continuity
            write wait: p50 \(milliseconds(waits.percentile(0.5))), p99 \(milliseconds(waits.percentile(0.99))), \
            max \(milliseconds(waits.maximumMicroseconds)) over \(waits.total) writes
            killed \(killed) processes; violations \(violations), crashed processes \(crashed), deadlocks \(deadlocked ? 1 : 0)
            result: \(passed ? "passed" : "FAILED")
            """
    }
}

/// A worker process and what it last reported.
final class StressChild {
    private let process = Process()
    private let reports = LockedValue(StressReport())
    private let reader: Thread
    private(set) var wasKilled = false

    init(arguments: [String]) throws {
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.standardError
        let reports = self.reports
        let handle = output.fileHandleForReading
        reader = Thread {
            var pending = Data()
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { return }
                pending.append(chunk)
                while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = String(decoding: pending[..<newline], as: UTF8.self)
                    pending.removeSubrange(...newline)
                    if let report = StressReport(line: line[...]) { reports.update { $0 = report } }
                }
            }
        }
        try process.run()
        reader.start()
    }

    var pid: Int32 { process.processIdentifier }
    var latest: StressReport { reports.value }
    /// Set when ``kill()`` reaped the process itself.
    private var reaped = false
    var hasEnded: Bool { reaped || !process.isRunning }
    var succeeded: Bool { process.terminationReason == .exit && process.terminationStatus == 0 }
    var ending: String {
        process.terminationReason == .exit ? "exit status \(process.terminationStatus)" : "signal \(process.terminationStatus)"
    }

    /// Kills the process with SIGKILL and waits for it. Foundation notices a child's end from
    /// SIGCHLD, which it can miss when several children end at once; after a second without
    /// its word, the process is reaped here.
    func kill() {
        guard !hasEnded else { return }
        wasKilled = true
        Foundation.kill(process.processIdentifier, SIGKILL)
        let deadline = Date(timeIntervalSinceNow: 1)
        while process.isRunning, Date() < deadline { usleep(1_000) }
        guard process.isRunning else { return }
        var status: Int32 = 0
        while waitpid(process.processIdentifier, &status, 0) < 0, errno == EINTR {}
        reaped = true
    }
}
