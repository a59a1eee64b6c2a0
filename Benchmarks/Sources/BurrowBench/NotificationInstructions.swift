import Baselines
import Burrow
import Foundation

/// The instructions the insert and update-all steps of ``NotificationStep`` execute without an
/// observer and with one, counted by valgrind's callgrind: a figure that, unlike their times on
/// this machine, is the same from run to run, so that the change log's cost can be read
/// within a percent.
///
/// The benchmark starts itself again under callgrind (``childFlag``); the child counts each
/// write on the writing thread alone (the observer's delivery runs on its queue's thread,
/// after the write), dumping one profile part per write, which the parent reads.
enum NotificationInstructions {
    struct Measurement {
        var count = 0
        var insertWithout = 0, insertWith = 0, updateWithout = 0, updateWith = 0
    }

    /// The most objects counted: callgrind runs the writes some fifty times slower.
    static let countedObjects = 100_000

    /// The flag that starts this program as the counting child.
    static let childFlag = "--notification-instructions"

    /// Counts the four writes over `count` objects in a child under callgrind; `nil`, with the
    /// reason, when valgrind is not installed or was not found when the benchmark was built.
    static func measure(count: Int, in directory: URL) throws -> Result<Measurement, BenchmarkError> {
        guard let valgrind = ["/usr/bin/valgrind", "/usr/local/bin/valgrind"].first(where: FileManager.default.isExecutableFile) else {
            return .failure(BenchmarkError("valgrind is not installed (apt-get install valgrind)"))
        }
        guard let objcopy = ["/usr/bin/objcopy", "/usr/local/bin/objcopy"].first(where: FileManager.default.isExecutableFile) else {
            return .failure(BenchmarkError("objcopy is not installed (apt-get install binutils)"))
        }
        let folder = directory.appendingPathComponent("instructions", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // valgrind 3.19 gives up on the debug information the Swift compiler writes: the child
        // is a copy of this program without it.
        let program = folder.appendingPathComponent("BurrowBench").path
        try run(objcopy, ["--strip-debug", URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL.path, program])
        let child = Process()
        child.executableURL = URL(fileURLWithPath: valgrind)
        child.arguments = ["--tool=callgrind", "--separate-threads=yes", "--callgrind-out-file=\(folder.path)/profile",
                           program, childFlag, String(count), folder.path]
        child.standardOutput = FileHandle.nullDevice
        child.standardError = FileHandle.nullDevice
        try child.run()
        child.waitUntilExit()
        guard child.terminationStatus == 0 else {
            if child.terminationStatus == 3 { return .failure(BenchmarkError("the benchmark was built without valgrind's headers")) }
            throw BenchmarkError("The instruction-counting child failed with status \(child.terminationStatus).")
        }
        let parts = try writerParts(in: folder)
        func part(_ label: String) throws -> Int {
            guard let instructions = parts[label] else { throw BenchmarkError("callgrind wrote no profile part '\(label)'.") }
            return instructions
        }
        return .success(Measurement(count: count, insertWithout: try part("bare insert"), insertWith: try part("observed insert"),
                                    updateWithout: try part("bare update-all"), updateWith: try part("observed update-all")))
    }

    private static func run(_ tool: String, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw BenchmarkError("\(tool) failed with status \(process.terminationStatus).") }
    }

    /// The child: each write of the step between a restart and a dump of callgrind's counters.
    /// Exits with status 3 when it does not run under callgrind with client requests.
    static func runChild(count: Int, directory: URL) throws {
        guard instructions_counted() != 0 else { exit(3) }
        for observing in [false, true] {
            var configuration = try NotificationStep.freshConfiguration("instructions-\(observing).realm", in: directory)
            // valgrind cannot reserve the default map's 64 GiB of address space.
            configuration.maximumFileSize = 1 << 31
            let realm = try Realm(configuration: configuration)
            let counted: NotificationStep.Measure = { step, write in
                instructions_restart()
                try write()
                instructions_dump("\(observing ? "observed" : "bare") \(step)")
                return 0
            }
            if observing {
                let observer = try NotificationStep.ResultsObserver(of: realm)
                _ = try NotificationStep.insertAndUpdate(count, in: realm, measure: counted, settle: observer.settle)
                observer.invalidate()
            } else {
                _ = try NotificationStep.insertAndUpdate(count, in: realm, measure: counted)
            }
        }
    }

    /// The instructions of the writing (main) thread in each profile part, by the label the
    /// child gave its dump.
    private static func writerParts(in folder: URL) throws -> [String: Int] {
        var parts: [String: Int] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where name.hasPrefix("profile") {
            let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
            var label: String?, thread: Int?, instructions: Int?
            for line in text.split(separator: "\n", omittingEmptySubsequences: true).prefix(40) {
                if line.hasPrefix("desc: Trigger: Client Request: ") { label = String(line.dropFirst("desc: Trigger: Client Request: ".count)) }
                if line.hasPrefix("thread: ") { thread = Int(line.dropFirst("thread: ".count)) }
            }
            if let totals = text.split(separator: "\n").last(where: { $0.hasPrefix("totals: ") || $0.hasPrefix("summary: ") }) {
                instructions = Int(totals.split(separator: " ")[1])
            }
            if let label, thread == 1, let instructions { parts[label] = instructions }
        }
        return parts
    }

    static func summary(_ result: Result<Measurement, BenchmarkError>) -> String {
        switch result {
        case .failure(let reason):
            return "Notifications, instructions counted: skipped: \(reason.description)"
        case .success(let m):
            func change(_ with: Int, _ without: Int) -> Double { (Double(with) / Double(without) - 1) * 100 }
            return String(format: "Notifications, instructions of the writing thread (callgrind, N = %d): insert %.1f M without an observer, %.1f M with one (%+.1f%%); update-all %.1f M, %.1f M (%+.1f%%)",
                          m.count, Double(m.insertWithout) / 1e6, Double(m.insertWith) / 1e6, change(m.insertWith, m.insertWithout),
                          Double(m.updateWithout) / 1e6, Double(m.updateWith) / 1e6, change(m.updateWith, m.updateWithout))
        }
    }
}
