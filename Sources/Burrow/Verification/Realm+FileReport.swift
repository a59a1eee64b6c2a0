import Foundation
import LMDB

extension Realm {
    /// What a file holds and how it uses its space: classes, object counts, bytes by class,
    /// free space, and the readers holding versions, as ``Realm/fileReport(at:encryptionKey:)``
    /// finds them.
    ///
    /// ```swift
    /// let report = try Realm.fileReport(at: url)
    /// for reader in report.readers where reader.versionsBehind > 100 {
    ///     print("process \(reader.processID) pins a version \(reader.versionsBehind) commits old")
    /// }
    /// ```
    public struct FileReport: Sendable {
        /// The space of one class's data in the file.
        public struct ClassSpace: Sendable, Equatable {
            public let className: String
            public let isEmbedded: Bool
            public let objectCount: Int
            /// Bytes of the pages holding the rows.
            public let rowBytes: Int
            /// Bytes of the pages of its secondary indexes and primary-key index.
            public let indexBytes: Int
            /// Bytes of the pages of its lists, sets and maps.
            public let collectionBytes: Int

            public var totalBytes: Int { rowBytes + indexBytes + collectionBytes }
        }

        /// A read transaction of some process, holding a version of the file: LMDB cannot
        /// reuse the pages freed after that version while it is held, so the file grows.
        public struct Reader: Sendable, Equatable {
            public let processID: Int32
            /// Whether the process is still running. A reader slot of a process that died holds
            /// its version until a writer opens the file or ``Realm/clearStaleReaders(at:encryptionKey:)``
            /// clears it.
            public let isProcessAlive: Bool
            /// The version (LMDB's transaction id) it reads.
            public let version: Int
            /// How many commits the file has had since that version.
            public let versionsBehind: Int
        }

        /// The file format version (``Realm/Error/Code/unsupportedFileFormatVersion`` for others).
        public let formatVersion: UInt32
        public let schemaVersion: UInt64
        /// The size of the file on disk.
        public let fileBytes: Int
        public let pageSize: Int
        /// Bytes of pages the latest version uses.
        public let usedBytes: Int
        /// Bytes of pages free for reuse, and of the file past its last page.
        public let freeBytes: Int
        /// The latest committed version (LMDB's transaction id).
        public let latestVersion: Int
        /// Every stored class, by name.
        public let classes: [ClassSpace]
        /// Bytes of the metadata, the change log and the backlink index.
        public let metadataBytes: Int
        /// The lock file's reader slots, and those holding a version now (other than the
        /// report's own).
        public let readerSlots: Int
        public let readers: [Reader]
    }

    /// Reports on the realm file at `fileURL`, read-only, in one snapshot: it may be run while
    /// other processes use the file. It leaves the reader slots of processes that died in
    /// place, to list them.
    ///
    /// ```swift
    /// let report = try Realm.fileReport(at: URL(fileURLWithPath: "inventory.realm"))
    /// print(report.classes.map { "\($0.className): \($0.objectCount)" })
    /// ```
    ///
    /// - Throws: ``Realm/Error`` when the file cannot be opened: `fileNotFound`,
    ///   `invalidDatabase` (not a Burrow file, damaged, a wrong, missing or unexpected key),
    ///   `unsupportedFileFormatVersion`, `fileAccess`; `invalidDatabase` when LMDB's free list
    ///   is damaged.
    public static func fileReport(at fileURL: URL, encryptionKey: Data? = nil) throws -> FileReport {
        let realm = try Realm(configuration: Configuration(fileURL: fileURL, encryptionKey: encryptionKey, readOnly: true, objectTypes: []))
        do {
            return try FileReporter(realm: realm.core).report()
        } catch let error as LMDBError {
            throw Realm.Error(translating: error, path: fileURL.path, operation: .open)
        }
    }

    /// Clears the reader slots of processes that died, which hold old versions of the file at
    /// `fileURL` (and so keep it from reusing space) until a writer opens it. Returns how many
    /// were cleared.
    ///
    /// ```swift
    /// let cleared = try Realm.clearStaleReaders(at: url)
    /// ```
    ///
    /// - Throws: ``Realm/Error`` when the file cannot be opened, as ``fileReport(at:encryptionKey:)``.
    @discardableResult
    public static func clearStaleReaders(at fileURL: URL, encryptionKey: Data? = nil) throws -> Int {
        let realm = try Realm(configuration: Configuration(fileURL: fileURL, encryptionKey: encryptionKey, readOnly: true, objectTypes: []))
        return realm.core.coordinator.environment.checkReaders()
    }
}
