import Foundation
import LMDB

/// Compacting a realm file: LMDB's own copy (`mdb_env_copyfd2` with `MDB_CP_COMPACT`), which
/// leaves out free pages, written beside the file and renamed over it with the original's
/// mode only once complete, so a failure at any step leaves the original as it was.
///
/// It runs for `Realm.Configuration.shouldCompactOnLaunch` at the first open of a file in a
/// process, and for `burrow compact` (``compact(_:into:encryptionKey:)``). Another process with the file
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

    /// The files a compaction or copy of this process writes while it runs, for a copy to
    /// `path` or a compaction of `path` in place: the first that exists grows as it goes (LMDB's
    /// copy has no progress hook; `burrow compact` and `burrow copy` follow its size).
    package static func filesWritten(copyingTo path: String) -> [String] {
        let path = URL(fileURLWithPath: path).standardizedFileURL.path
        return [CopyStaging.compactingPath(for: path), CopyStaging.rekeyingPath(for: path), path]
    }

    /// Whether another process holds the file at `path` exclusively (compacting it, or setting
    /// it up on a first open): an open of it waits until that ends.
    package static func isHeldExclusivelyElsewhere(_ path: String) -> Bool {
        Environment.isLockedExclusivelyElsewhere(path: URL(fileURLWithPath: path).standardizedFileURL.path)
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
    /// they are). An unencrypted file written before rows had checksums is rewritten with them.
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
        let before = try FileCompactor.size(of: path)
        // Opening it read-only checks that it is a Burrow file of a version this build reads;
        // through the schema stored in it, since the process's model classes may differ.
        let realm = try Realm(configuration: Realm.Configuration(fileURL: file, encryptionKey: encryptionKey, readOnly: true, schemaVersion: .max,
                                                                 objectTypes: []))
        if let destination {
            try realm.writeCopy(toFile: destination, encryptionKey: encryptionKey)
            return Outcome(bytesBefore: before, bytesAfter: try FileCompactor.size(of: destination.standardizedFileURL.path))
        }
        let environment = realm.core.coordinator.environment
        // A file from before checksums is rewritten record by record, into the current format.
        let upgrade: ((String) throws -> Void)? = environment.recordChecksums?.isActive == false
            ? { staging in try realm.writeCopy(toFile: URL(fileURLWithPath: staging)) } : nil
        switch FileCompactor.replaceWithCompactedCopy(environment, path: path, copy: upgrade) {
        case .replaced: return Outcome(bytesBefore: before, bytesAfter: try FileCompactor.size(of: path))
        case .openElsewhere:
            throw Realm.Error(.fileOperationFailed, "Cannot compact '\(path)': another process has it open.", fileURL: file)
        case .failed(let reason):
            throw Realm.Error(.fileOperationFailed, "Cannot compact '\(path)': \(reason)", fileURL: file)
        }
    }
}
