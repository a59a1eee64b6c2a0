import LMDB
import Synchronization

/// The databases of one stored class and how its rows are laid out: everything needed to read
/// and write its objects. Immutable; replaced as a whole when the class's storage changes.
final class TableLayout: Sendable {
    let storedClass: StoredClass
    /// Rows by object key.
    let rows: Database
    /// Secondary indexes: composite keys `indexKey(value) ++ objectKey`, empty values.
    let secondaryIndexes: [(column: Int, database: Database)]
    /// Primary keys of non-integer (or optional) type: `indexKey(value)` → object key.
    let primaryKeys: Database?
    let primaryKeyColumn: Int?
    /// Whether object keys are the primary key's order-preserving bits (a non-optional
    /// integer primary key), so a primary-key lookup is a single row read.
    let usesPrimaryKeyAsObjectKey: Bool
    let kinds: [_StorageKind]
    /// The stored property id of each column, as the change log names properties.
    let propertyIDs: [UInt32]
    /// Columns holding to-one links.
    let linkColumns: [Int]
    /// Columns holding `AnyRealmValue`s, which may link to an object of any class.
    let mixedColumns: [Int]
    /// List databases, by column: keys `ownerKey ++ position`, values the elements.
    let lists: [(column: Int, database: Database)]
    /// Which transactions can use these databases' handles; the others see no table.
    let visibility: HandleVisibility
    /// The file's cipher when it is encrypted: values are sealed by the databases, and index,
    /// primary-key, set and map keys are keyed hashes.
    let cipher: FileCipher?
    /// Set when the write that created these databases was cancelled: LMDB closed the handles,
    /// and a later table may reuse them.
    private let discarded = Atomic<Bool>(false)

    init(storedClass: StoredClass, rows: Database, secondaryIndexes: [(column: Int, database: Database)],
         primaryKeys: Database?, lists: [(column: Int, database: Database)], visibility: HandleVisibility,
         cipher: FileCipher?) {
        self.visibility = visibility
        self.cipher = cipher
        self.lists = lists
        self.storedClass = storedClass
        self.rows = rows
        self.secondaryIndexes = secondaryIndexes
        self.primaryKeys = primaryKeys
        primaryKeyColumn = storedClass.primaryKeyColumn
        usesPrimaryKeyAsObjectKey = storedClass.keysArePrimaryKeys
        let kinds = storedClass.properties.map(\.kind)
        self.kinds = kinds
        propertyIDs = storedClass.properties.map(\.id)
        linkColumns = kinds.indices.filter { kinds[$0] == .link && storedClass.properties[$0].collection == nil }
        mixedColumns = kinds.indices.filter { kinds[$0] == .mixed && storedClass.properties[$0].collection == nil }
    }

    /// The collection database of `column`, when the property is a list, set or map.
    func collectionDatabase(of column: Int) -> Database? {
        lists.first(where: { $0.column == column })?.database
    }

    var classID: UInt32 { storedClass.id }
    var isEmbedded: Bool { storedClass.isEmbedded ?? false }
    var className: String { storedClass.name }

    /// Opens (or, with `create`, creates) the databases of `storedClass` in `txn`.
    static func open(_ storedClass: StoredClass, in txn: Transaction, create: Bool, handleEpoch: UInt64 = 0) throws -> TableLayout {
        let id = storedClass.id
        // A row's seal or checksum covers its key: a walk checks each page's header only.
        let rows = try database(FileHeader.rowsName(classID: id), of: storedClass, holding: "objects", in: txn, create: create)
            .checkingPages(.headersOnly)
        var indexes: [(column: Int, database: Database)] = []
        var primaryKeys: Database?
        var lists: [(column: Int, database: Database)] = []
        for (column, property) in storedClass.properties.enumerated() {
            if property.collection != nil {
                let name = FileHeader.collectionName(classID: id, propertyID: property.id)
                // Read as runs found by a seek to the owner: a cursor checks each page it reaches whole.
                let database = try database(name, of: storedClass, holding: "'\(property.name)' values", in: txn, create: create)
                lists.append((column, database.checkingPages(.wholePages)))
            } else if property.isPrimary {
                if !storedClass.keysArePrimaryKeys {
                    // Its values are object keys, in the clear as row keys anyway; in an encrypted
                    // file each match is checked against the sealed row.
                    primaryKeys = try database(FileHeader.primaryKeyName(classID: id), of: storedClass, holding: "primary keys",
                                               in: txn, create: create, sealed: false)
                }
            } else if property.isIndexed && property.kind.isIndexable {
                // An indexed AnyRealmValue keeps no index: its equality compares across kinds.
                let name = FileHeader.indexName(classID: id, propertyID: property.id)
                indexes.append((column, try database(name, of: storedClass, holding: "'\(property.name)' index", in: txn, create: create)))
            }
        }
        return TableLayout(storedClass: storedClass, rows: rows, secondaryIndexes: indexes, primaryKeys: primaryKeys,
                           lists: lists, visibility: HandleVisibility(createdInTransaction: create ? txn.id : 0, epoch: handleEpoch),
                           cipher: FileCipher.of(txn))
    }

    /// The database `name` of `storedClass` in `txn`; one the catalog records that the file's
    /// directory of databases lacks is damage (a write of Burrow's creates them together).
    ///
    /// - Throws: ``StorageError`` naming what the database holds when it is missing, or
    ///   ``LMDBError`` from LMDB.
    private static func database(_ name: String, of storedClass: StoredClass, holding what: String, in txn: Transaction,
                                 create: Bool, sealed: Bool = true) throws -> Database {
        do {
            return try txn.openDatabase(named: name, create: create, sealed: sealed)
        } catch {
            guard error == .notFound, !create else { throw error }
            throw StorageError.damaged("the database of the \(what) of '\(storedClass.name)' is missing from the file's list of databases")
        }
    }

    /// The same databases under `storedClass`, the same class with other property names.
    func renamed(as storedClass: StoredClass) -> TableLayout {
        assert(storedClass.properties.map(\.id) == self.storedClass.properties.map(\.id), "A renamed class keeps its properties")
        return TableLayout(storedClass: storedClass, rows: rows, secondaryIndexes: secondaryIndexes, primaryKeys: primaryKeys,
                           lists: lists, visibility: visibility, cipher: cipher)
    }

    /// Whether a transaction reading snapshot `transactionID` can see these databases.
    @inline(__always)
    func isVisible(to txn: Transaction) -> Bool {
        visibility.allows(txn) && !discarded.load(ordering: .relaxed)
    }

    /// Marks the databases as closed by a cancelled write; nothing reads them again.
    func discard() {
        discarded.store(true, ordering: .relaxed)
    }

    // MARK: Reading

    /// The row of `key`, valid until `txn` writes or ends; `nil` when there is no such object.
    @inline(__always)
    func row(_ key: ObjectKey, in txn: Transaction) throws -> UnsafeRawBufferPointer? {
        guard isVisible(to: txn) else { return nil }
        do {
            return try key.withBytes { bytes in try txn.unsafeValue(for: bytes, in: rows) }
        } catch LMDBError.sealBroken {
            throw brokenSeal(of: key)
        }
    }

    /// The damage of a row that does not open: tampered with, moved or damaged.
    func brokenSeal(of key: ObjectKey?) -> StorageError {
        .damaged("object \(key.map { String($0.rawValue) } ?? "?") of '\(className)' \(Self.brokenSealReason(encrypted: cipher != nil))")
    }

    /// Why a value of a sealed database did not open: its authentication check in an
    /// encrypted file, its checksum in another.
    static func brokenSealReason(encrypted: Bool) -> String {
        encrypted ? "failed its authentication check (tampered with, or damaged)" : "does not match its checksum"
    }

    /// The damage of the row a cursor over ``rows`` could not open.
    func brokenSeal(at cursor: Cursor) -> StorageError {
        brokenSeal(of: cursor.keyOfBrokenSeal.flatMap { $0.count == 8 ? $0.withUnsafeBytes(ObjectKey.init(bytes:)) : nil })
    }

    /// The object whose primary key is `value`, with its row, if it exists.
    func find(primaryKey value: _PersistedValue, in txn: Transaction) throws -> (key: ObjectKey, row: UnsafeRawBufferPointer)? {
        guard isVisible(to: txn) else { return nil }
        let key: ObjectKey
        if usesPrimaryKeyAsObjectKey {
            guard case .int(let integer) = value else { return nil }
            key = ObjectKey(primaryKey: integer)
        } else {
            guard let primaryKeys else { return nil }
            let indexKey = IndexKeyEncoder.key(for: value, hashingWith: cipher)
            if IndexKeyEncoder.isTruncated(indexKey) {
                return try findTruncated(primaryKey: value, indexKey: indexKey, in: primaryKeys, txn: txn)
            }
            let found = try indexKey.withUnsafeBytes { bytes throws in
                try txn.unsafeValue(for: bytes, in: primaryKeys).map { entry throws(StorageError) in try ObjectKey(checking: entry, in: className) }
            }
            guard let found else { return nil }
            // The entry is not sealed: the row it leads to must hold the value looked up.
            guard let row = try row(found, in: txn) else {
                throw StorageError.damaged("the primary-key index of '\(className)' names object \(found.rawValue), which has no row")
            }
            if let column = primaryKeyColumn, try RowReader(row, key: found).checkedValue(column, kind: kinds[column]) != value {
                throw StorageError.damaged("the primary-key index of '\(className)' leads \(value.displayText) to object \(found.rawValue), "
                                           + "whose primary key is another")
            }
            return (found, row)
        }
        return try row(key, in: txn).map { (key, $0) }
    }

    /// The object whose long primary key `value` has the truncated `indexKey`: every object
    /// sharing that key is a candidate, and the one whose stored value is `value` is the match.
    private func findTruncated(primaryKey value: _PersistedValue, indexKey: [UInt8], in primaryKeys: Database,
                               txn: Transaction) throws -> (key: ObjectKey, row: UnsafeRawBufferPointer)? {
        guard let column = primaryKeyColumn else { return nil }
        let candidates = try TruncatedEntries.sharing(indexKey, in: primaryKeys, txn: txn).map { entry throws(StorageError) in
            let candidate = try ObjectKey(checking: entry.value, in: className)
            // The entry's key ends with the object key it holds: damage to either shows.
            guard entry.key.suffix(8).elementsEqual(entry.value) else {
                throw StorageError.damaged("the primary-key index of '\(className)' holds a damaged entry for object \(candidate.rawValue): "
                                           + "its key names another object")
            }
            return candidate
        }
        for candidate in candidates {
            guard let row = try row(candidate, in: txn) else {
                throw StorageError.damaged("primary key entry of '\(className)' names object \(candidate.rawValue), which has no row")
            }
            if try RowReader(row, key: candidate).checkedValue(column, kind: kinds[column]) == value { return (candidate, row) }
        }
        return nil
    }

    /// The primary-key database's key for `value`: its index key, followed by the object key
    /// when the index key is truncated, so that long values sharing a truncated key each keep
    /// an entry of their own.
    func primaryKeyEntry(_ value: _PersistedValue, key: ObjectKey, into entry: inout [UInt8]) {
        entry.removeAll(keepingCapacity: true)
        IndexKeyEncoder.append(value, to: &entry, hashingWith: cipher)
        if IndexKeyEncoder.isTruncated(entry) { key.append(to: &entry) }
    }

    /// Number of objects, from the table's header.
    func count(in txn: Transaction) throws -> Int {
        guard isVisible(to: txn) else { return 0 }
        return try txn.count(in: rows)
    }

    // MARK: Writing

    /// Writes a new row and its index entries.
    ///
    /// - Throws: ``LMDBError/keyExists`` when the primary key is taken.
    func insert(_ values: [_PersistedValue], key: ObjectKey, appending: Bool, in write: StorageWrite) throws {
        let txn = write.transaction
        if let primaryKeys, let column = primaryKeyColumn {
            primaryKeyEntry(values[column], key: key, into: &write.keyScratch)
            try putKey(write.keyScratch, value: key, in: primaryKeys, txn: txn)
        }
        // The row is written straight into the page LMDB reserves for it.
        let size = RowCodec.size(of: values)
        try key.withBytes { keyBytes in
            if appending {
                do {
                    try txn.put(keyBytes, reserving: size, in: rows, flags: .append) { RowCodec.write(values, into: $0) }
                    return
                } catch LMDBError.keyExists {
                    // Not past the last key: fall through to an ordinary insert.
                }
            }
            try txn.put(keyBytes, reserving: size, in: rows, flags: .noOverwrite) { RowCodec.write(values, into: $0) }
        }
        for index in secondaryIndexes {
            try putIndexEntry(values[index.column], key: key, in: index.database, write: write)
        }
        write.changes?.inserted(key, classID: classID)
    }

    /// Replaces the row of `key`, whose current values are `old`, keeping indexes in step.
    func replace(_ key: ObjectKey, old: [_PersistedValue], new: [_PersistedValue], in write: StorageWrite) throws {
        // Written straight into the place LMDB reserves, as an insert is.
        let size = RowCodec.size(of: new)
        try key.withBytes { keyBytes in
            try write.transaction.replace(keyBytes, reserving: size, in: rows) { RowCodec.write(new, into: $0) }
        }
        for index in secondaryIndexes where old[index.column] != new[index.column] {
            try deleteIndexEntry(old[index.column], key: key, in: index.database, write: write)
            try putIndexEntry(new[index.column], key: key, in: index.database, write: write)
        }
        if let changes = write.changes {
            for column in old.indices where old[column] != new[column] {
                changes.modified(key, propertyID: propertyIDs[column], classID: classID)
            }
        }
    }

    /// Replaces a fixed-width column of a row in place when neither old nor new value is null;
    /// returns `false` when the caller must rewrite the whole row.
    func patchFixedWidth(_ key: ObjectKey, column: Int, value: _PersistedValue, row: UnsafeRawBufferPointer,
                         in write: StorageWrite) throws -> Bool {
        let reader = RowReader(row)
        guard kinds[column].fixedWidth != nil, !value.isNull, !reader.isNull(column),
              !secondaryIndexes.contains(where: { $0.column == column }) else { return false }
        let target = reader.columnBytes(column)
        guard RowCodec.byteCount(of: value) == target.count else { return false }
        let offset = target.baseAddress! - row.baseAddress!
        // The row is copied out first: the page it lies in changes under the overwrite, which
        // reuses its place.
        write.rowScratch.removeAll(keepingCapacity: true)
        write.rowScratch.append(contentsOf: row)
        write.rowScratch.withUnsafeMutableBytes { _ = RowCodec.write(value, to: $0.baseAddress! + offset) }
        let scratch = write.rowScratch
        try key.withBytes { keyBytes in
            try write.transaction.replace(keyBytes, reserving: scratch.count, in: rows) { reserved in
                scratch.withUnsafeBytes { reserved.copyMemory(from: $0) }
            }
        }
        write.changes?.modified(key, propertyID: propertyIDs[column], classID: classID)
        return true
    }

    /// Removes the row of `key` and its index entries; returns whether it existed.
    @discardableResult
    func delete(_ key: ObjectKey, in write: StorageWrite) throws -> Bool {
        let txn = write.transaction
        guard let row = try self.row(key, in: txn) else { return false }
        let reader = RowReader(row)
        let indexed = secondaryIndexes.map { reader.value($0.column, kind: kinds[$0.column]) }
        let primary = primaryKeys == nil ? nil : primaryKeyColumn.map { reader.value($0, kind: kinds[$0]) }
        try key.withBytes { bytes in _ = try txn.delete(bytes, in: rows) }
        for (index, value) in zip(secondaryIndexes, indexed) {
            try deleteIndexEntry(value, key: key, in: index.database, write: write)
        }
        if let primaryKeys, let primary {
            var entry: [UInt8] = []
            primaryKeyEntry(primary, key: key, into: &entry)
            try entry.withUnsafeBytes { bytes in _ = try txn.delete(bytes, in: primaryKeys) }
        }
        write.changes?.deleted(key, classID: classID)
        return true
    }

    /// Empties the table, its indexes and its lists.
    func removeAll(in txn: Transaction) throws {
        guard isVisible(to: txn) else { return }
        try txn.drop(rows)
        for list in lists { try txn.drop(list.database) }
        for index in secondaryIndexes { try txn.drop(index.database) }
        if let primaryKeys { try txn.drop(primaryKeys) }
    }

    func putIndexEntry(_ value: _PersistedValue, key: ObjectKey, in database: Database, write: StorageWrite) throws {
        write.keyScratch.removeAll(keepingCapacity: true)
        IndexKeyEncoder.append(value, to: &write.keyScratch, hashingWith: cipher)
        key.append(to: &write.keyScratch)
        try write.keyScratch.withUnsafeBytes { bytes in
            try write.transaction.put(bytes, UnsafeRawBufferPointer(start: nil, count: 0), in: database)
        }
    }

    private func deleteIndexEntry(_ value: _PersistedValue, key: ObjectKey, in database: Database, write: StorageWrite) throws {
        write.keyScratch.removeAll(keepingCapacity: true)
        IndexKeyEncoder.append(value, to: &write.keyScratch, hashingWith: cipher)
        key.append(to: &write.keyScratch)
        try write.keyScratch.withUnsafeBytes { bytes in
            _ = try write.transaction.delete(bytes, in: database)
        }
    }

    func putKey(_ indexKey: [UInt8], value key: ObjectKey, in database: Database, txn: Transaction) throws {
        try indexKey.withUnsafeBytes { indexBytes in
            try key.withBytes { keyBytes in
                try txn.put(indexBytes, keyBytes, in: database, flags: .noOverwrite)
            }
        }
    }
}
