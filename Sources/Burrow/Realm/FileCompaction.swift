import Foundation
import LMDB

/// Compacting a realm file: LMDB's own copy (`mdb_env_copyfd2` with `MDB_CP_COMPACT`), which
/// leaves out free pages, written beside the file and renamed over it with the original's
/// mode only once complete, so a failure at any step leaves the original as it was.
///
/// It runs for `Realm.Configuration.shouldCompactOnLaunch` at the first open of a file in a
/// process, and for `burrow compact` (``compact(_:into:)``). Another process with the file
/// open is detected by LMDB's lock on the lock file's first byte, which every such process
/// holds (``Environment/lockExclusively()``); holding it exclusively also keeps other
/// processes from opening the file until the copy is in place.
public enum FileCompaction {
    /// The sizes of a compacted file, in bytes.
    public struct Outcome: Sendable, Equatable {
        /// The file's size before.
        public let bytesBefore: Int
        /// The compacted file's size.
        public let bytesAfter: Int
    }

    /// Compacts the realm file `file` in place, or into `destination` (which must not exist)
    /// leaving `file` as it is.
    ///
    /// ```swift
    /// let outcome = try FileCompaction.compact(URL(fileURLWithPath: "app.realm"))
    /// print(outcome.bytesBefore, outcome.bytesAfter)
    /// ```
    ///
    /// - Throws: ``Realm/Error``: `fileNotFound`; `invalidDatabase` for a file that is not
    ///   Burrow's; `fileOperationFailed` when this or another process has the file open, or
    ///   the compacted file cannot replace it; `fileExists` when `destination` exists;
    ///   `outOfDiskSpace` and `fileAccess` while copying.
    ///
    /// An encrypted file needs its `encryptionKey`; the copy keeps it (LMDB copies pages as
    /// they are).
    public static func compact(_ file: URL, into destination: URL? = nil, encryptionKey: Data? = nil) throws -> Outcome {
        let path = file.standardizedFileURL.path
        guard FileManager.default.fileExists(atPath: path) else {
            throw Realm.Error(.fileNotFound, "Failed to open Realm file at path '\(path)': No such file or directory", fileURL: file)
        }
        if Environment.isOpen(path: path) {
            throw Realm.Error(.fileOperationFailed, "Cannot compact '\(path)': it is open in this process.", fileURL: file)
        }
        if Environment.isOpenElsewhere(path: path) {
            throw Realm.Error(.fileOperationFailed, "Cannot compact '\(path)': another process has it open.", fileURL: file)
        }
        let before = try size(of: path)
        // Opening it read-only checks that it is a Burrow file of a version this build reads.
        let realm = try Realm(configuration: Realm.Configuration(fileURL: file, encryptionKey: encryptionKey, readOnly: true, schemaVersion: .max))
        if let destination {
            try realm.writeCopy(toFile: destination, encryptionKey: encryptionKey)
            return Outcome(bytesBefore: before, bytesAfter: try size(of: destination.standardizedFileURL.path))
        }
        switch replaceWithCompactedCopy(realm.core.coordinator.environment, path: path) {
        case .replaced: return Outcome(bytesBefore: before, bytesAfter: try size(of: path))
        case .openElsewhere:
            throw Realm.Error(.fileOperationFailed, "Cannot compact '\(path)': another process has it open.", fileURL: file)
        case .failed(let reason):
            throw Realm.Error(.fileOperationFailed, "Cannot compact '\(path)': \(reason)", fileURL: file)
        }
    }

    /// For `shouldCompactOnLaunch`: compacts when `decide` asks for it. Returns whether
    /// `environment` must be closed and opened again: after a compaction, and after an
    /// attempt that took the lock file's lock.
    static func compactIfAsked(_ environment: Environment, path: String, decide: (Int, Int) -> Bool) -> Bool {
        guard let figures = try? figures(of: environment, path: path), decide(figures.total, figures.used) else { return false }
        // Skipped when another process has the file open; the original stays on failure.
        _ = replaceWithCompactedCopy(environment, path: path)
        return true
    }

    /// The file's size, and the bytes of the pages its data uses: pages up to the last one
    /// written, less those on LMDB's free list.
    static func figures(of environment: Environment, path: String) throws -> (total: Int, used: Int) {
        let free = try environment.freePageCount() * environment.pageSize
        return (try size(of: path), max(0, environment.usedBytes - free))
    }

    private enum Replacement {
        case replaced, openElsewhere, failed(String)
    }

    /// Replaces the file with a compacted copy when no other process has it open. Whatever
    /// the outcome, `environment` must be closed next (see ``Environment/lockExclusively()``).
    private static func replaceWithCompactedCopy(_ environment: Environment, path: String) -> Replacement {
        guard let lock = environment.lockExclusively() else { return .openElsewhere }
        defer { close(lock) }
        let staging = path + ".compacting-\(getpid())"
        unlink(staging)
        do {
            try environment.copy(to: staging, compact: true)
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

    private static func size(of path: String) throws -> Int {
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
