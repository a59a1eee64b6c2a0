import Foundation
import LMDB

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Compacting a file in place: a compacted copy, staged beside the file and renamed over it
/// while no other process has it open. ``FileCompaction`` and `shouldCompactOnLaunch` use it.
enum FileCompactor {
    /// For `shouldCompactOnLaunch`: compacts when `decide` asks for it. Returns whether
    /// `environment` must be closed and opened again: after a compaction, and after an
    /// attempt that took the lock file's lock.
    static func compactIfAsked(_ environment: Environment, path: String, decide: (Int, Int) -> Bool) -> Bool {
        guard let figures = try? figures(of: environment, path: path), decide(figures.total, figures.used) else { return false }
        // Skipped when another process has the file open; the original stays on failure.
        let outcome = replaceWithCompactedCopy(environment, path: path)
        Logger.log(.detail, "DB: \(getpid()) Compact on launch (\(figures.total) bytes, \(figures.used) used): \(outcome): \(path)")
        return true
    }

    /// The file's size, and the bytes of the pages its data uses: pages up to the last one
    /// written, less those on LMDB's free list.
    static func figures(of environment: Environment, path: String) throws -> (total: Int, used: Int) {
        let free = try environment.freePageCount() * environment.pageSize
        return (try size(of: path), max(0, environment.usedBytes - free))
    }

    enum Replacement {
        case replaced, openElsewhere, failed(String)
    }

    /// Replaces the file with a compacted copy when no other process has it open, written by
    /// `copy` (LMDB's compacting copy unless given). Whatever the outcome, `environment` must be
    /// closed next (see ``Environment/lockExclusively()``).
    static func replaceWithCompactedCopy(_ environment: Environment, path: String,
                                         copy: ((String) throws -> Void)? = nil) -> Replacement {
        guard let lock = environment.lockExclusively() else { return .openElsewhere }
        defer { close(lock) }
        let staging = CopyStaging.compactingPath(for: path)
        unlink(staging)
        do {
            if let copy { try copy(staging) } else { try environment.copy(to: staging, compact: true) }
        } catch {
            unlink(staging)
            return .failed("the copy failed: \(error)")
        }
        var original = stat()
        guard stat(path, &original) == 0, chmod(staging, original.st_mode & 0o7777) == 0, rename(staging, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(staging)
            return .failed(reason)
        }
        syncFolder(of: path)
        return .replaced
    }

    static func size(of path: String) throws -> Int {
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw Realm.Error(.fileAccess, "Cannot read the size of '\(path)': \(String(cString: strerror(errno)))",
                              fileURL: URL(fileURLWithPath: path))
        }
        return Int(info.st_size)
    }

    /// Makes the rename durable.
    private static func syncFolder(of path: String) {
        let folder = open(URL(fileURLWithPath: path).deletingLastPathComponent().path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard folder >= 0 else { return }
        fsync(folder)
        close(folder)
    }
}
