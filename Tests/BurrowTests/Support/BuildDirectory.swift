import Foundation

/// The folder this test run's products were built in: the one holding `Modules/`, beside or
/// above the test binary; `nil` when it cannot be found.
enum BuildDirectory {
    static let url: URL? = {
        let binary = URL(fileURLWithPath: ProcessInfo.processInfo.arguments[0]).resolvingSymlinksInPath()
        var folder = binary.deletingLastPathComponent()
        // The test bundle may be a directory; the modules sit beside it.
        while folder.path != "/" && !FileManager.default.fileExists(atPath: folder.appendingPathComponent("Modules/Burrow.swiftmodule").path) {
            folder = folder.deletingLastPathComponent()
        }
        return folder.path == "/" ? nil : folder
    }()

    /// A built executable product, if this run built it.
    static func product(_ name: String) -> URL? {
        guard let executable = url?.appendingPathComponent(name), FileManager.default.isExecutableFile(atPath: executable.path) else { return nil }
        return executable
    }
}
