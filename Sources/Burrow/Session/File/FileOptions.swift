import Foundation
import LMDB

/// What the engine needs of a configuration to open a file and write to it. The API makes one
/// from a ``Realm/Configuration`` (`fileOptions`), handing down the schema check and migration
/// as a step of its own, so that the engine never sees model classes.
struct FileOptions {
    /// The file, unless the realm is in memory.
    var fileURL: URL?
    /// The folder of the default file, which an open creates when it is missing (no other).
    var defaultDirectory: URL
    /// The name of an in-memory realm.
    var inMemoryIdentifier: String?
    var readOnly: Bool
    /// The 64-byte key of an encrypted file.
    var encryptionKey: Data?
    /// The permissions of the files a realm creates.
    var filePermissions: mode_t
    /// The largest the file may grow: the map is this size.
    var maximumFileSize: Int?
    /// The map's first size, when no maximum is set.
    var initialMapSize: Int?
    /// Whether a new unencrypted file's values carry checksums (format 4, not 3).
    var createsRowChecksums = true
    /// The schema version a new file records.
    var schemaVersion: UInt64
    /// How many versions the file may keep for readers.
    var maximumNumberOfActiveVersions: UInt?
    /// A file copied in when the file does not exist yet.
    var seedFilePath: URL?
    /// Decides at the first open in the process whether to compact the file.
    var shouldCompactOnLaunch: (@Sendable (_ totalBytes: Int, _ usedBytes: Int) -> Bool)?
    /// Told of each file an open creates.
    var fileCreationHook: (@Sendable (URL) throws -> Void)?
    /// Brings the stored schema to the one asked for once the catalog is read at open (checks,
    /// migrations, indexes added or removed), returning the catalog to read through.
    var migrate: (Environment, MetadataStore, Catalog) throws -> Catalog

    /// Copies ``seedFilePath`` to `path` when no file is there yet, atomically: a copy that
    /// fails leaves no file behind.
    ///
    /// - Throws: ``Realm/Error`` `fileNotFound` without the seed, `fileAccess` when the copy fails.
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
