import Foundation
import LMDB

/// A copy of a file under another encryption key, with encryption added or removed, or from
/// the format before checksums: LMDB's own copy keeps every byte as it is, so this one reads
/// each record in the clear and stores it again through the new file's cipher or checksums.
///
/// Rows, list entries, backlinks and the metadata are copied under their keys; set and map
/// entries, whose keys are (in an encrypted file) hashes under the key, are keyed anew, and the
/// indexes and primary keys are rebuilt from the rows. The change log is left out: a copy has
/// no history for anyone to observe. Object keys are kept, so links stay as they are.
struct RekeyedCopy {
    let source: Environment
    let catalog: Catalog
    let metadata: MetadataStore

    /// Writes the copy to `path`, which must not exist, with `cipher` (`nil`: not encrypted) and
    /// file mode `mode`; a failed copy leaves no file. The source's sync journal is left out;
    /// with `forSync`, the copy's journal records every object for upload instead.
    ///
    /// - Throws: ``LMDBError`` (`fileExists` when `path` exists, `noSpace`, …), ``StorageError``
    ///   for damage met in the source.
    func write(to path: String, cipher: FileCipher?, mode: mode_t, forSync: Bool = false) throws {
        if access(path, F_OK) == 0 { throw LMDBError.fileExists }
        let staging = CopyStaging.rekeyingPath(for: path)
        unlink(staging)
        unlink(staging + "-lock")
        defer {
            unlink(staging)
            unlink(staging + "-lock")
        }
        try writeStaged(to: staging, cipher: cipher, mode: mode, forSync: forSync)
        guard link(staging, path) == 0 else { throw LMDBError(code: errno) }
    }

    private func writeStaged(to staging: String, cipher: FileCipher?, mode: mode_t, forSync: Bool) throws {
        var options = Environment.Options()
        // Unencrypted, the copy's values carry checksums, whatever the source's format.
        options.sealer = cipher ?? RecordChecksums(active: true)
        options.fileMode = mode
        let destination = try Environment.open(path: staging, options: options)
        let reader = try source.beginReadTransaction()
        defer { reader.abort() }
        let writer = try destination.beginTransaction()
        do {
            try copyMetadata(from: reader, to: writer)
            let write = StorageWrite(transaction: writer)
            for layout in catalog.layouts.values {
                try copyTable(layout, from: reader, into: write)
            }
            if let links = catalog.links(visibleTo: reader) {
                let copied = try writer.openDatabase(named: FileHeader.linksName, create: true, sealed: true)
                try copyEntries(of: links, from: reader) { key, value in try writer.put(key, value, in: copied, flags: .append) }
            }
            if forSync, let journal = try SyncJournal.open(in: writer, create: true) {
                let layouts = try catalog.layouts.values.map { try TableLayout.open($0.storedClass, in: writer, create: false) }
                try journal.recordEveryObject(of: layouts, in: writer)
            }
            try writer.commit()
        } catch {
            writer.abort()
            throw error
        }
        try destination.sync()
    }

    /// Every metadata record but the change log's, the schema sealed (or not) as the copy's
    /// cipher says, and the copy's own key check.
    private func copyMetadata(from reader: Transaction, to writer: Transaction) throws {
        try MetadataStore.initialize(in: writer, schemaVersion: 0)
        guard case .burrow(let copied) = try MetadataStore.open(in: writer, path: writer.environment.path) else {
            throw StorageError.damaged("the copy has no metadata database")
        }
        let changeLog = Array("changes".utf8)
        let skipped = [FileHeader.keyCheckKey, FileHeader.schemaKey, FileHeader.headerKey]
        try copyEntries(of: metadata.database, from: reader) { key, value in
            guard !key.starts(with: changeLog), !skipped.contains(where: { $0.elementsEqual(key) }) else { return }
            try writer.put(key, value, in: copied.database)
        }
        try copied.write(try metadata.schema(in: reader), schemaGeneration: try metadata.schemaGeneration(in: reader), in: writer)
    }

    /// A class's rows and collections, then its indexes built from the rows.
    private func copyTable(_ layout: TableLayout, from reader: Transaction, into write: StorageWrite) throws {
        let writer = write.transaction
        let copied = try TableLayout.open(layout.storedClass, in: writer, create: true)
        try copyEntries(of: layout.rows, from: reader) { key, row in try writer.put(key, row, in: copied.rows, flags: .append) }
        for (column, database) in layout.lists {
            guard let target = copied.collectionDatabase(of: column) else { continue }
            let kind = layout.kinds[column]
            try copyEntries(of: database, from: reader) { key, value in
                let owner = try ObjectKey(checking: UnsafeRawBufferPointer(rebasing: key[..<min(8, key.count)]), in: layout.className)
                switch layout.storedClass.properties[column].collection {
                case .set?:
                    let element = try ListEntries.decode(value, kind: kind)
                    guard let newKey = try SetEntries.newKey(for: element, kind: kind, owner: owner, in: target, txn: writer) else { return }
                    try writer.put(newKey, Array(value), in: target)
                case .map?:
                    let entry = try MapEntries.decode(value, kind: kind)
                    try writer.put(try MapEntries.newKey(for: entry.key, owner: owner, in: target, txn: writer), Array(value), in: target)
                default:
                    try writer.put(key, value, in: target, flags: .append)
                }
            }
        }
        try copied.rebuildIndexes(in: write)
    }

    /// Calls `body` with every entry of `database` in key order, values in the clear.
    private func copyEntries(of database: Database, from reader: Transaction,
                             _ body: (UnsafeRawBufferPointer, UnsafeRawBufferPointer) throws -> Void) throws {
        let cursor = try reader.openCursor(database)
        var entry = try cursor.first()
        while let (key, value) = entry {
            try body(key, value)
            entry = try cursor.next()
        }
    }
}
