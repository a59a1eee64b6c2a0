import Foundation
import LMDB

extension Realm {
    /// Writes a compacted copy of the realm's latest committed version to `fileURL`, which
    /// must not exist: free pages are left out, so the copy is as small as the data.
    ///
    /// ```swift
    /// try realm.writeCopy(toFile: backups.appendingPathComponent("today.realm"))
    /// ```
    ///
    /// The copy is written with LMDB's own copy (`mdb_env_copyfd2`, compacting) under a read
    /// transaction, so writers elsewhere go on meanwhile; a failed copy leaves no file.
    /// Traps inside a write transaction, whose changes the copy could not include.
    ///
    /// - Parameter encryptionKey: must be `nil`: Burrow does not encrypt files yet, and a key
    ///   throws rather than write a copy that is not encrypted.
    /// - Throws: ``Realm/Error`` `fileExists` when `fileURL` exists, `fileNotFound` when its
    ///   folder does not, `outOfDiskSpace`, `fileAccess`; `fail` for an encryption key.
    public func writeCopy(toFile fileURL: URL, encryptionKey: Data? = nil) throws {
        core.verifyThread()
        precondition(core.writeState == nil, "Cannot write a copy of a Realm in a write transaction: commit or cancel it first.")
        if encryptionKey != nil {
            throw Error(.fail, "Cannot write an encrypted copy to '\(fileURL.path)': this build of Burrow does not encrypt files.")
        }
        let path = fileURL.standardizedFileURL.path
        do {
            try core.coordinator.environment.copy(to: path, compact: true)
        } catch {
            throw Error(error, path: path, doing: "write a copy to")
        }
    }
}

extension Realm.Configuration {
    /// Copies ``seedFilePath`` to the file when the file does not exist yet, atomically: a
    /// copy that fails leaves no file behind.
    func copySeedIfNeeded(to path: String) throws {
        guard let seed = seedFilePath?.standardizedFileURL.path, !FileManager.default.fileExists(atPath: path) else { return }
        guard FileManager.default.fileExists(atPath: seed) else {
            throw Realm.Error(.fileNotFound, "Failed to open seed file at path '\(seed)': No such file or directory",
                              fileURL: URL(fileURLWithPath: seed))
        }
        let staging = path + ".seed-\(getpid())"
        unlink(staging)
        do {
            try FileManager.default.copyItem(atPath: seed, toPath: staging)
            chmod(staging, filePermissions)
            guard rename(staging, path) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        } catch {
            unlink(staging)
            throw Realm.Error(.fileAccess, "Cannot copy the seed file '\(seed)' to '\(path)': \(error.localizedDescription)",
                              fileURL: URL(fileURLWithPath: path))
        }
    }
}
