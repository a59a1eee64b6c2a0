import Foundation

/// One run of the built `burrow` tool (or another program): its exit status and what it printed.
struct BurrowToolRun {
    let status: Int32
    /// Whether the tool was ended by a signal (`status` is then the signal's number).
    let wasSignalled: Bool
    let output: String
    let errors: String

    /// Runs `burrow` with `arguments` (and `environment` added to this process's) and waits
    /// for it.
    /// `input`, when given, is the tool's standard input.
    init(_ arguments: [String], environment: [String: String] = [:], input: String? = nil) throws {
        try self.init(executable: BuildDirectory.product("burrow"), arguments, environment: environment, input: input)
    }

    /// Runs another program the same way.
    static func external(_ executable: URL, _ arguments: [String]) throws -> BurrowToolRun {
        try BurrowToolRun(executable: executable, arguments, environment: [:])
    }

    private init(executable: URL?, _ arguments: [String], environment: [String: String], input: String? = nil) throws {
        let process = Process()
        process.executableURL = executable
        if let input {
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("burrow-input-\(UUID().uuidString)")
            try input.write(to: file, atomically: true, encoding: .utf8)
            defer { try? FileManager.default.removeItem(at: file) }
            process.standardInput = try FileHandle(forReadingFrom: file)
        }
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, added in added }
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        // Both pipes are drained at once: a tool that fills one while the other is read blocks.
        let errorData = LockedData()
        let drained = DispatchSemaphore(value: 0)
        Thread {
            errorData.set(errors.fileHandleForReading.readDataToEndOfFile())
            drained.signal()
        }.start()
        let out = output.fileHandleForReading.readDataToEndOfFile()
        drained.wait()
        process.waitUntilExit()
        status = process.terminationStatus
        wasSignalled = process.terminationReason == .uncaughtSignal
        self.output = String(decoding: out, as: UTF8.self)
        self.errors = String(decoding: errorData.data, as: UTF8.self)
    }
}

/// Bytes handed from a reading thread.
private final class LockedData: @unchecked Sendable {
    private let lock = NSLock()
    private var stored = Data()
    func set(_ data: Data) { lock.withLock { stored = data } }
    var data: Data { lock.withLock { stored } }
}
