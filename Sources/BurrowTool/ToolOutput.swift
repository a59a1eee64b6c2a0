import Foundation

/// Where a command writes: standard output or a file, in large pieces. A write that fails
/// (a full disk) is kept and reported by ``finish()``.
struct ToolOutput {
    private let handle: FileHandle
    private let path: String?
    private var pending: [UInt8] = []
    private var failure: String?

    /// Standard output.
    init() {
        self.init(handle: FileHandle.standardOutput, path: nil)
    }

    private init(handle: FileHandle, path: String?) {
        self.handle = handle
        self.path = path
    }

    /// The file at `path` (created, or emptied), or standard output for `nil` or `-`.
    ///
    /// - Throws: ``ToolFailure`` (status 2) when the file cannot be created.
    init(path: String?) throws(ToolFailure) {
        guard let path, path != "-" else {
            self.init()
            return
        }
        guard FileManager.default.createFile(atPath: path, contents: nil), let opened = FileHandle(forWritingAtPath: path) else {
            throw .input("\(path): cannot be created (\(String(cString: strerror(errno))))")
        }
        self.init(handle: opened, path: path)
    }

    mutating func write(_ text: String) {
        pending.append(contentsOf: text.utf8)
        if pending.count >= 1 << 16 { flush() }
    }

    /// Writes the bytes `body` appends: for text made by the million, with no `String` between.
    mutating func write(_ body: (inout [UInt8]) -> Void) {
        body(&pending)
        if pending.count >= 1 << 16 { flush() }
    }

    mutating func flush() {
        guard !pending.isEmpty else { return }
        if failure == nil {
            do {
                try handle.write(contentsOf: pending)
            } catch {
                failure = "\(path ?? "standard output"): \(error.localizedDescription)"
            }
        }
        pending.removeAll(keepingCapacity: true)
    }

    /// Writes what is pending and closes a file.
    ///
    /// - Throws: ``ToolFailure`` (status 1) when a write failed.
    mutating func finish() throws(ToolFailure) {
        flush()
        if path != nil { try? handle.close() }
        if let failure { throw .failed("writing \(failure)") }
    }
}

/// A count of work done, redrawn on standard error a few times a second, only when standard
/// error is a terminal (and not with `--quiet`).
struct Progress {
    private let label: String
    private let unit: String
    private let isShown: Bool
    private var count = 0
    private var lastDrawn = Date.distantPast

    init(label: String, unit: String = "objects", quiet: Bool) {
        self.label = label
        self.unit = unit
        isShown = !quiet && isatty(STDERR_FILENO) == 1
    }

    @inline(__always)
    mutating func step() {
        count += 1
        guard isShown, count & 1023 == 0 else { return }
        draw()
    }

    /// Sets the count to `total`, for work counted elsewhere (a child process, a file's size).
    mutating func advance(to total: Int) {
        count = total
        guard isShown else { return }
        draw()
    }

    private mutating func draw() {
        let now = Date()
        guard now.timeIntervalSince(lastDrawn) > 0.2 else { return }
        lastDrawn = now
        FileHandle.standardError.write(Data("\r\(label) \(count) \(unit)".utf8))
    }

    func finish() {
        guard isShown, lastDrawn != .distantPast else { return }
        FileHandle.standardError.write(Data("\r\(label) \(count) \(unit)\n".utf8))
    }
}
