import Foundation

/// The peak memory of each engine running every step of the workload, each in a process of
/// its own: the kernel's high-water mark of the process's resident memory (`VmHWM` in
/// `/proc/self/status`). It counts the pages of a memory map the process touched (LMDB's
/// file, for Burrow and raw LMDB) as well as its heap (SQLite's page cache, Burrow's objects).
///
///     BurrowBench --peak-memory 1000000 /tmp/bench
enum PeakMemoryRun {
    /// The flag that starts the benchmark as one engine's child: `--peak-memory-child ENGINE N FOLDER`.
    static let childFlag = "--peak-memory-child"
    static let engines = ["Burrow", "LMDB", "SQLite"]

    /// One engine's child: its memory before the workload and at its peak, in KiB.
    struct Measurement {
        let engine: String
        let startKiB: Int
        let peakKiB: Int
    }

    /// Runs each engine's workload in a child process of its own, one after another.
    ///
    /// - Throws: ``BenchmarkError`` when a child fails or prints no figures.
    static func measure(count: Int, in directory: URL) throws -> [Measurement] {
        let program = URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL.path
        return try engines.map { engine in
            let folder = directory.appendingPathComponent("memory-\(engine)", isDirectory: true)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let child = Process()
            child.executableURL = URL(fileURLWithPath: program)
            child.arguments = [childFlag, engine, String(count), folder.path]
            let output = Pipe()
            child.standardOutput = output
            child.standardError = FileHandle.nullDevice
            try child.run()
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            child.waitUntilExit()
            let figures = text.split(separator: " ").compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
            guard child.terminationStatus == 0, figures.count == 2 else {
                throw BenchmarkError("The peak-memory child for \(engine) failed (status \(child.terminationStatus)): \(text)")
            }
            return Measurement(engine: engine, startKiB: figures[0], peakKiB: figures[1])
        }
    }

    /// The child: runs every step of `engine`'s workload over `count` objects in `folder`, then
    /// prints the resident memory it started with and its peak, in KiB.
    ///
    /// - Throws: ``BenchmarkError`` for an unknown engine, or from the workload.
    static func runChild(_ arguments: [String]) throws {
        guard arguments.count == 3, let count = Int(arguments[1]) else { throw BenchmarkError("usage: \(childFlag) ENGINE N FOLDER") }
        let folder = URL(fileURLWithPath: arguments[2])
        let start = try statusKiB("VmRSS")
        let workload: any EngineWorkload
        switch arguments[0] {
        case "Burrow": workload = try BurrowWorkload(count: count, directory: folder)
        case "LMDB": workload = BaselineWorkload(.lmdb, count: count, directory: folder)
        case "SQLite": workload = BaselineWorkload(.sqlite, count: count, directory: folder)
        default: throw BenchmarkError("No engine '\(arguments[0])': \(engines.joined(separator: ", ")).")
        }
        for step in Step.allCases { _ = try workload.run(step) }
        print("\(start) \(try statusKiB("VmHWM"))")
    }

    /// A `kB` figure of this process's `/proc/self/status`.
    private static func statusKiB(_ field: String) throws -> Int {
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix(field + ":") }),
              let kiB = line.split(separator: " ").dropFirst().first.flatMap({ Int($0) }) else {
            throw BenchmarkError("/proc/self/status has no \(field).")
        }
        return kiB
    }

    static func summary(_ measurements: [Measurement], count: Int) -> String {
        func megabytes(_ kiB: Int) -> String { String(format: "%.0f MB", Double(kiB) / 1024) }
        let figures = measurements.map { "\($0.engine) \(megabytes($0.peakKiB))" }.joined(separator: ", ")
        let starts = measurements.map { megabytes($0.startKiB) }.joined(separator: " / ")
        var line = "Peak memory (VmHWM, each engine in a process of its own running every step, N = \(count)): \(figures)"
            + " (each process started at \(starts))"
        if let burrow = measurements.first(where: { $0.engine == "Burrow" }), let lmdb = measurements.first(where: { $0.engine == "LMDB" }) {
            line += String(format: ": Burrow %.2fx LMDB", Double(burrow.peakKiB) / Double(lmdb.peakKiB))
        }
        return line
    }
}
