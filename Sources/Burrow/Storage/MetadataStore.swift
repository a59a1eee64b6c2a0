import Foundation
import LMDB

/// The records of a file's metadata database (see ``FileHeader``): the header, the schema
/// version, the stored schema and its generation, and the per-class object key counters. Every
/// read and write goes through a transaction the caller owns.
struct MetadataStore {
    /// The metadata database, `0`.
    let database: Database
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
        return .burrow(MetadataStore(database: database, path: path))
    }

    /// Writes the records of a new, empty file in `txn`.
    static func initialize(in txn: Transaction, schemaVersion: UInt64) throws {
        let database = try txn.openDatabase(named: FileHeader.metadataDatabaseName, create: true)
        try txn.put(FileHeader.headerKey, FileHeader.newHeader(), in: database)
        try txn.put(FileHeader.schemaVersionKey, FileHeader.encodeUInt64(schemaVersion), in: database)
        try txn.put(FileHeader.schemaKey, Array(StoredSchema().encoded()), in: database)
        try txn.put(FileHeader.schemaGenerationKey, FileHeader.encodeUInt64(0), in: database)
    }

    /// What the header record says.
    func header(in txn: Transaction) throws -> FileHeader.Verdict {
        FileHeader.check(try txn.value(for: FileHeader.headerKey, in: database))
    }

    /// The stored schema.
    ///
    /// - Throws: ``StorageError`` when the record is missing; the decoder's error when it is damaged.
    func schema(in txn: Transaction) throws -> StoredSchema {
        guard let bytes = try txn.value(for: FileHeader.schemaKey, in: database) else {
            throw StorageError.damaged("'\(path)' has no schema record")
        }
        return try StoredSchema.decode(bytes)
    }

    /// Stores `schema` and its `generation`, which tells other processes to read it again.
    func write(_ schema: StoredSchema, generation: UInt64, in txn: Transaction) throws {
        try txn.put(FileHeader.schemaKey, Array(schema.encoded()), in: database)
        try writeGeneration(generation, in: txn)
    }

    /// The schema generation: it moves whenever a class or the backlink index is added.
    func generation(in txn: Transaction) throws -> UInt64 {
        try FileHeader.number(FileHeader.schemaGenerationKey, in: database, txn: txn, absent: 0)
    }

    func writeGeneration(_ generation: UInt64, in txn: Transaction) throws {
        try txn.put(FileHeader.schemaGenerationKey, FileHeader.encodeUInt64(generation), in: database)
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
