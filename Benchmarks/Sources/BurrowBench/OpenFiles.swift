import Foundation

/// The files this process has open, from `/proc/self/fd`.
enum OpenFiles {
    /// Whether a descriptor of this process refers to the file at `path`.
    static func processHolds(_ path: String) -> Bool {
        let target = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        let folder = "/proc/self/fd"
        guard let descriptors = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return false }
        return descriptors.contains { descriptor in
            (try? FileManager.default.destinationOfSymbolicLink(atPath: folder + "/" + descriptor)) == target
        }
    }
}
