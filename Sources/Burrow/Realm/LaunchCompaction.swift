import Foundation
import LMDB

/// `Realm.Configuration.shouldCompactOnLaunch`: at the first open of a file in the process,
/// asks the block with the file's size and the bytes its data uses, and when it says yes and
/// no other process has the file open, replaces the file with a compacted copy.
///
/// The copy is LMDB's own (`mdb_env_copyfd2` with `MDB_CP_COMPACT`), written beside the file
/// and renamed over it only once complete, with the original's mode: a failure at any step
/// leaves the original as it was. Another process is detected by LMDB's lock on the lock
/// file's first byte, which every process with the file open holds (``Environment/lockExclusively()``);
/// holding it exclusively also keeps other processes from opening the file until the copy
/// is in place.
enum LaunchCompaction {
    /// Compacts when `decide` asks for it. Returns whether `environment` must be closed and
    /// opened again: after a compaction, and after an attempt that took the lock file's lock.
    static func compactIfAsked(_ environment: Environment, path: String, decide: (Int, Int) -> Bool) -> Bool {
        guard let figures = try? figures(of: environment, path: path), decide(figures.total, figures.used) else { return false }
        guard let lock = environment.lockExclusively() else { return true }
        defer { close(lock) }
        let staging = path + ".compacting-\(getpid())"
        unlink(staging)
        do {
            try environment.copy(to: staging, compact: true)
        } catch {
            unlink(staging)
            return true
        }
        var original = stat()
        guard stat(path, &original) == 0, chmod(staging, original.st_mode & 0o7777) == 0, rename(staging, path) == 0 else {
            unlink(staging)
            return true
        }
        syncFolder(of: path)
        return true
    }

    /// The file's size, and the bytes of the pages its data uses: pages up to the last one
    /// written, less those on LMDB's free list.
    static func figures(of environment: Environment, path: String) throws -> (total: Int, used: Int) {
        var info = stat()
        guard stat(path, &info) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        let free = try environment.freePageCount() * environment.pageSize
        return (Int(info.st_size), max(0, environment.usedBytes - free))
    }

    /// Makes the rename durable.
    private static func syncFolder(of path: String) {
        let folder = open(URL(fileURLWithPath: path).deletingLastPathComponent().path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard folder >= 0 else { return }
        fsync(folder)
        close(folder)
    }
}
