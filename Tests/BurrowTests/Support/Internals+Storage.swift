@testable import Burrow
import LMDB
import Testing

// The records of the file, as tests read and edit them past the engine (see Internals.swift).

// MARK: - Tables

/// One class's table in a catalog of the file, read in its realm's current transaction.
struct StoredTable {
    fileprivate let internals: RealmInternals
    fileprivate let layout: TableLayout

    /// The rows the table holds, embedded objects included.
    func count() throws -> Int { try layout.count(in: internals.transaction) }
    /// The secondary indexes the table keeps.
    var secondaryIndexCount: Int { layout.secondaryIndexes.count }
}

extension RealmInternals {
    /// The table of the class stored as `className` in the catalog the realm reads through,
    /// or `nil` when that catalog has none.
    func table(_ className: String) -> StoredTable? {
        catalog.layouts[className].map { StoredTable(internals: self, layout: $0) }
    }

    /// The table of the class stored as `className` in the catalog the file last published,
    /// the one other realms read, or `nil` when that catalog has none.
    func publishedTable(_ className: String) -> StoredTable? {
        coordinator.catalog.layouts[className].map { StoredTable(internals: self, layout: $0) }
    }

    /// The names of the classes with a table in the catalog the realm reads through.
    var tableNames: [String] { Array(catalog.layouts.keys) }

    /// The backlinks' database in the catalog the file last published: `nil` until a commit
    /// first stores a link.
    var publishedLinks: Database? { coordinator.catalog.links }
}

extension Realm {
    /// The rows of a class in the file, embedded classes included (which cannot be queried).
    func storedCount(of type: ObjectBase.Type) throws -> Int {
        guard let layout = internals.bound(ClassInfo.of(type))?.layout else { return 0 }
        return try layout.count(in: internals.transaction)
    }
}

// MARK: - Rows and indexes

/// The row column of property `name` of a managed object, to write a stored form directly.
func storedColumn(_ name: String, of object: ObjectBase) -> Int {
    let management = object.management!
    return management.bound.fieldColumns[management.bound.info.field(named: name)]
}

extension RealmInternals {
    /// Rewrites the row of the managed `object` in the open write, with `property` holding
    /// `value`: straight through the write's transaction, past every setter of Burrow.
    func overwriteRow(of object: ObjectBase, setting property: String, to value: _PersistedValue) throws {
        let management = object.management!
        let layout = management.bound.layout
        var values = try #require(try writeState!.tables.values(of: management.key, in: layout))
        values[storedColumn(property, of: object)] = value
        var row: [UInt8] = []
        RowCodec.encode(values, into: &row)
        var key: [UInt8] = []
        management.key.append(to: &key)
        try transaction.put(key, row, in: layout.rows)
    }

    /// Deletes the row of the managed `object` in the open write, straight through the write's
    /// transaction: its links, lists and backlink entries stay, as damage would leave them.
    func deleteRowOnly(of object: ObjectBase) throws {
        let management = object.management!
        var key: [UInt8] = []
        management.key.append(to: &key)
        #expect(try transaction.delete(key, in: management.bound.layout.rows))
    }
}

/// The values in the index of `column`, in index order (read straight from the index).
func indexEntries<T: Object>(_ realm: Realm, _ type: T.Type, column name: String) throws -> [_PersistedValue] {
    let bound = try #require(realm.internals.bound(ClassInfo.of(type)))
    let column = try #require(bound.layout.storedClass.properties.firstIndex { $0.name == name })
    let index = try #require(bound.layout.secondaryIndexes.first { $0.column == column })
    let cursor = try realm.internals.transaction.openCursor(index.database)
    var values: [_PersistedValue] = []
    var entry = try cursor.first()
    let rows = realm.objects(type)
    while let (key, _) = entry {
        let objectKey = ObjectKey(bytes: UnsafeRawBufferPointer(rebasing: key[(key.count - 8)...]))
        let object = rows.internals.object(for: objectKey) as! Object
        let value = object[name].flatMap { ($0 as? any _Persistable)?._persistedValue } ?? .null
        #expect(Array(key[..<(key.count - 8)]) == IndexKeyEncoder.key(for: value), "index key matches the row")
        values.append(value)
        entry = try cursor.next()
    }
    return values
}

// MARK: - Maps and backlinks

extension RealmInternals {
    /// Moves, in the open write, the entry of `key` in the managed `object`'s map `property`
    /// under the stored form of `otherKey`, as two long keys with the same hash would share
    /// one. Only for unencrypted files, whose map keys are not hashed.
    func moveMapEntry(of object: ObjectBase, property: String, from key: String, to otherKey: String) throws {
        let layout = try #require(bound(type(of: object))?.layout)
        let column = try #require(layout.storedClass.properties.firstIndex { $0.name == property })
        let database = try #require(layout.lists.first { $0.column == column }?.database)
        let owner = try #require(object.management?.key)
        let txn = try #require(writeState?.transaction)
        let firstKey = MapEntries.key(owner, key, hashingWith: nil) + FileHeader.encodeUInt64(0)
        let stored = try #require(try txn.value(for: firstKey, in: database))
        try txn.delete(firstKey, in: database)
        try txn.put(MapEntries.key(owner, otherKey, hashingWith: nil) + FileHeader.encodeUInt64(0), stored, in: database)
    }

    /// The backlink entries the file holds under the managed `target`, read in the realm's
    /// current transaction.
    func backlinkEntryCount(to target: ObjectBase) throws -> Int {
        let layout = try #require(bound(type(of: target))?.layout)
        let key = try #require(target.management?.key)
        var prefix = withUnsafeBytes(of: layout.classID.bigEndian, Array.init)
        key.append(to: &prefix)
        guard let links = coordinator.catalog.links(visibleTo: transaction) else { return 0 }
        let cursor = try transaction.openCursor(links)
        var count = 0
        var entry = try cursor.seek(atLeast: prefix)
        while let (key, _) = entry, key.starts(with: prefix) { count += 1; entry = try cursor.next() }
        return count
    }

    /// Adds (or removes), in the open write, one counted backlink from the managed `owner`'s
    /// map `property` to `target`, at the position of the entry of `key`: as an entry whose key
    /// has the same hash would.
    func changeMapBacklink(from owner: ObjectBase, property: String, atPositionOf key: String, to target: ObjectBase,
                           adding: Bool) throws {
        let layout = try #require(bound(type(of: owner))?.layout)
        let column = try #require(layout.storedClass.properties.firstIndex { $0.name == property })
        let write = try #require(writeState)
        let source = try #require(owner.management?.key)
        let destination = try #require(target.management?.key)
        try write.tables.backlink(from: source, column: column, in: layout, to: destination, position: MapEntries.position(of: key),
                                  counted: true, adding: adding)
    }
}

// MARK: - Link reads

extension RealmInternals {
    /// Reads of linked rows as a predicate makes them, over the catalog the file last
    /// published, with an evaluation started in the realm's current transaction.
    func linkReads() -> LinkReads {
        let reads = LinkReads(resolver: LinkResolver(catalog: coordinator.catalog), internals: self)
        reads.startEvaluation()
        return reads
    }
}

/// The reads of linked rows a predicate makes (``LinkResolver``), made by hand: a read that
/// fails is kept, and stops the reads after it, until the next evaluation.
struct LinkReads {
    fileprivate let resolver: LinkResolver
    fileprivate let internals: RealmInternals

    /// Starts an evaluation in the realm's current transaction, forgetting an earlier failure.
    func startEvaluation() { resolver.transaction = internals.transaction }

    /// The row of the object whose integer primary key is `primaryKey` in the table of
    /// `className`; `nil` when there is none, or when this or an earlier read failed.
    func row(primaryKey: Int64, in className: String) -> UnsafeRawBufferPointer? {
        resolver.row(ObjectKey(primaryKey: primaryKey).rawValue, in: resolver.catalog.layouts[className]!)
    }

    /// Throws the first read failure of the evaluation, if any.
    func throwFailure() throws { try resolver.throwFailure() }
}

// MARK: - The header

/// Edits the header record of a closed Burrow file.
func rewriteHeader(at path: String, _ edit: (inout [UInt8]) -> Void) throws {
    let environment = try Environment.open(path: path)
    let txn = try environment.beginTransaction()
    let metadata = try txn.openDatabase(named: FileHeader.metadataDatabaseName)
    var header = try txn.value(for: FileHeader.headerKey, in: metadata) ?? []
    edit(&header)
    try txn.put(FileHeader.headerKey, header, in: metadata)
    try txn.commit()
}

// MARK: - Keys as the file holds them

extension RealmInternals {
    /// The key through which the file finds the managed `object` by its primary key, as the
    /// file holds it: its row key when its class's object keys are its primary keys (integer
    /// keys of an unencrypted file), else the key of its entry in the primary-key index.
    func primaryKeyLookupKey(of object: ObjectBase) throws -> (bytes: [UInt8], isRowKey: Bool) {
        let management = object.management!
        let layout = management.bound.layout
        var bytes: [UInt8] = []
        if layout.usesPrimaryKeyAsObjectKey {
            management.key.append(to: &bytes)
            return (bytes, true)
        }
        let column = layout.primaryKeyColumn!
        let row = try layout.row(management.key, in: transaction)!
        layout.primaryKeyEntry(try RowReader(row, key: management.key).checkedValue(column, kind: layout.kinds[column]),
                               key: management.key, into: &bytes)
        return (bytes, false)
    }

    /// The key of the managed `object`'s entry in the secondary index of `property`, as the
    /// file holds it: the index key of its value (hashed in an encrypted file), then its object key.
    func indexEntryKey(of object: ObjectBase, property: String) throws -> [UInt8] {
        let management = object.management!
        let layout = management.bound.layout
        let column = storedColumn(property, of: object)
        let row = try layout.row(management.key, in: transaction)!
        var bytes = IndexKeyEncoder.key(for: try RowReader(row, key: management.key).checkedValue(column, kind: layout.kinds[column]),
                                        hashingWith: layout.cipher)
        management.key.append(to: &bytes)
        return bytes
    }
}
