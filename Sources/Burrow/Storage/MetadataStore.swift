import Foundation
import LMDB

/// The records of a file's metadata database (see ``FileHeader``): the header, the schema
/// version, the stored schema and its generation, and the per-class object key counters. Every
/// read and write goes through a transaction the caller owns.
struct MetadataStore {
    /// The metadata database, `0`.
    let database: Database
    /// The same database read through the file's cipher, for the records an encrypted file
    /// seals (the schema, the key check and the change log); `database` when not encrypted.
    let sealedDatabase: Database
    /// The data file, for messages.
    let path: String

    /// What opening a file found in it.
    enum Opening {
        case burrow(MetadataStore)
        /// An LMDB file without Burrow's metadata database: some other program's file.
        case foreign
    }

    /// The metadata database of the file `txn` reads.
    ///
    /// - Throws: ``LMDBError`` from reading.
    static func open(in txn: Transaction, path: String) throws -> Opening {
        let database: Database
        do {
            database = try txn.openDatabase(named: FileHeader.metadataDatabaseName)
        } catch LMDBError.notFound {
            return .foreign
        } catch LMDBError.incompatible {
            // A plain record named `0` in the main database.
            return .foreign
        }
        return .burrow(MetadataStore(database: database, path: path, encrypted: txn.environment.isEncrypted))
    }

    init(database: Database, path: String, encrypted: Bool) {
        self.database = database
        self.path = path
        sealedDatabase = encrypted ? database.sealedView(named: FileHeader.metadataDatabaseName) : database
    }

    /// Writes the records of a new, empty file in `txn`.
    ///
    /// An encrypted file (one whose environment has a cipher) also gets its key check: a
    /// known text sealed with the key, which only the same key opens.
    static func initialize(in txn: Transaction, schemaVersion: UInt64, formatVersion: UInt32 = FileHeader.formatVersion) throws {
        let database = try txn.openDatabase(named: FileHeader.metadataDatabaseName, create: true)
        let encrypted = txn.environment.isEncrypted
        let sealed = encrypted ? database.sealedView(named: FileHeader.metadataDatabaseName) : database
        try txn.put(FileHeader.headerKey, FileHeader.newHeader(version: formatVersion), in: database)
        if encrypted { try txn.put(FileHeader.keyCheckKey, FileHeader.keyCheckText, in: sealed) }
        try txn.put(FileHeader.schemaVersionKey, FileHeader.encodeUInt64(schemaVersion), in: database)
        try txn.put(FileHeader.schemaKey, Array(StoredSchema().encoded()), in: sealed)
        try txn.put(FileHeader.schemaGenerationKey, FileHeader.encodeUInt64(0), in: database)
    }

    /// What the file's key check says of the key the environment was opened with.
    enum KeyVerdict: Equatable {
        case matches
        /// The file is encrypted and no key was given.
        case missing
        /// A key was given for a file that is not encrypted.
        case unexpected
        /// The file is encrypted with another key (or its key check is damaged).
        case wrong
    }

    /// Checks the key the environment has (or its lack) against the file's key check.
    func keyVerdict(in txn: Transaction) throws -> KeyVerdict {
        let encrypted = txn.environment.isEncrypted
        guard try txn.value(for: FileHeader.keyCheckKey, in: database) != nil else {
            return encrypted ? .unexpected : .matches
        }
        guard encrypted else { return .missing }
        do {
            return try txn.value(for: FileHeader.keyCheckKey, in: sealedDatabase) == FileHeader.keyCheckText ? .matches : .wrong
        } catch LMDBError.sealBroken {
            return .wrong
        }
    }

    /// The plaintext of a sealed record (`value`, stored under `key`) a cursor over `database`
    /// read: the database also holds records in the clear, so its cursors open nothing.
    ///
    /// - Throws: ``LMDBError/sealBroken`` when the record does not open.
    func openedRecord(_ value: UnsafeRawBufferPointer, key: UnsafeRawBufferPointer, in txn: Transaction) throws -> UnsafeRawBufferPointer {
        try txn.openSealed(value, key: key, in: sealedDatabase)
    }

    /// What the header record says.
    func header(in txn: Transaction) throws -> FileHeader.Verdict {
        FileHeader.check(try txn.value(for: FileHeader.headerKey, in: database))
    }

    /// The format version the header names (0 when it names none).
    func formatVersion(in txn: Transaction) throws -> UInt32 {
        FileHeader.version(of: try txn.value(for: FileHeader.headerKey, in: database)) ?? 0
    }

    /// Whether the file's unencrypted values carry checksums (its format is 4 or later).
    func hasChecksums(in txn: Transaction) throws -> Bool {
        try formatVersion(in: txn) >= FileHeader.firstVersionWithChecksums
    }

    /// The stored schema.
    ///
    /// - Throws: ``StorageError`` when the record is missing; the decoder's error when it is damaged.
    func schema(in txn: Transaction) throws -> StoredSchema {
        let stored: [UInt8]?
        do {
            stored = try txn.value(for: FileHeader.schemaKey, in: sealedDatabase)
        } catch LMDBError.sealBroken {
            throw StorageError.damaged("the schema record of '\(path)' failed its authentication check")
        }
        guard let bytes = stored else {
            throw StorageError.damaged("'\(path)' has no schema record")
        }
        return try StoredSchema.decode(bytes)
    }

    /// Stores `schema` and its `schemaGeneration`, which tells other processes to read it again.
    func write(_ schema: StoredSchema, schemaGeneration: UInt64, in txn: Transaction) throws {
        try txn.put(FileHeader.schemaKey, Array(schema.encoded()), in: sealedDatabase)
        try writeSchemaGeneration(schemaGeneration, in: txn)
    }

    /// The schema generation: it moves whenever a class or the backlink index is added.
    func schemaGeneration(in txn: Transaction) throws -> UInt64 {
        try FileHeader.number(FileHeader.schemaGenerationKey, in: database, txn: txn, absent: 0)
    }

    func writeSchemaGeneration(_ schemaGeneration: UInt64, in txn: Transaction) throws {
        try txn.put(FileHeader.schemaGenerationKey, FileHeader.encodeUInt64(schemaGeneration), in: database)
    }

    /// The layout epoch: it moves whenever a migration (or a change of indexes) rewrote
    /// tables, which a process that read the file before cannot read on with its catalog.
    func layoutEpoch(in txn: Transaction) throws -> UInt64 {
        try FileHeader.number(FileHeader.layoutEpochKey, in: database, txn: txn, absent: 0)
    }

    func writeLayoutEpoch(_ epoch: UInt64, in txn: Transaction) throws {
        try txn.put(FileHeader.layoutEpochKey, FileHeader.encodeUInt64(epoch), in: database)
    }

    /// Forgets the object key counter of a deleted class.
    func removeNextObjectKey(classID: UInt32, in txn: Transaction) throws {
        _ = try txn.delete(FileHeader.nextObjectKeyKey(classID: classID), in: database)
    }

    /// The schema version the file was last opened with.
    func schemaVersion(in txn: Transaction) throws -> UInt64 {
        try FileHeader.number(FileHeader.schemaVersionKey, in: database, txn: txn, absent: 0)
    }

    func writeSchemaVersion(_ version: UInt64, in txn: Transaction) throws {
        try txn.put(FileHeader.schemaVersionKey, FileHeader.encodeUInt64(version), in: database)
    }

    /// The next object key of class `classID` as last committed (1 for a class that has none).
    func nextObjectKey(classID: UInt32, in txn: Transaction) throws -> UInt64 {
        try FileHeader.number(FileHeader.nextObjectKeyKey(classID: classID), in: database, txn: txn, absent: 1)
    }

    func writeNextObjectKey(_ next: UInt64, classID: UInt32, in txn: Transaction) throws {
        try txn.put(FileHeader.nextObjectKeyKey(classID: classID), FileHeader.encodeUInt64(next), in: database)
    }
}
