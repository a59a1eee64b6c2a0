import Foundation

/// The folder the engines write to: the one given, or a fresh temporary one that is removed
/// when the run ends.
struct Workspace {
    let directory: URL
    /// Whether the folder was made for this run (and is removed by ``cleanUp()``).
    let isTemporary: Bool

    /// Uses `directory`, creating it if missing, or makes a temporary folder when `nil`.
    init(directory: URL?) throws {
        let fileManager = FileManager.default
        if let directory {
            try fileManager.createDirectory(at: directory, withIntermediateDirectories: true)
            self.directory = directory.standardizedFileURL
            isTemporary = false
        } else {
            let name = "burrow-bench-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)"
            let folder = fileManager.temporaryDirectory.appendingPathComponent(name, isDirectory: true)
            try fileManager.createDirectory(at: folder, withIntermediateDirectories: true)
            self.directory = folder
            isTemporary = true
        }
    }

    /// Removes a temporary folder and everything in it; leaves a given folder as it is.
    func cleanUp() {
        guard isTemporary else { return }
        try? FileManager.default.removeItem(at: directory)
    }
}
