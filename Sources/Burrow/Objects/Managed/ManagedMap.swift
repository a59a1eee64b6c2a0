import Foundation
import LMDB

/// The stored entries of one managed object's map property.
///
/// Entries live in the property's collection database under `ownerKey ++ indexKey(mapKey)`, so
/// reading or writing one key is one B-tree operation; the value holds the key itself (a u32
/// length and its UTF-8) before the element, as lists store it, so that keys too long to sit
/// whole in an index key are still exact. A map of objects keeps a backlink per entry, whose
/// position is the FNV-1a hash of the key and which counts the entries sharing that hash;
/// deleting an object sets the entries pointing at it to `nil`.
final class ManagedMap: ManagedCollection, MapStorage {
    private var cache = GenerationCache<[(key: String, value: _PersistedValue)]>([])

    /// The entries in key order, for the realm's current generation.
    var entries: [(key: String, value: _PersistedValue)] {
        current(&cache) { txn in try Self.entries(of: ownerKey, in: database, kind: kind, txn: txn) }
    }

    static func entries(of owner: ObjectKey, in database: Database, kind: _StorageKind, txn: Transaction) throws -> [(key: String, value: _PersistedValue)] {
        var prefix: [UInt8] = []
        owner.append(to: &prefix)
        var entries: [(key: String, value: _PersistedValue)] = []
        let cursor = try txn.openCursor(database)
        var entry = try cursor.seek(atLeast: prefix)
        while let (key, value) = entry, key.count > 8, key.starts(with: prefix) {
            entries.append(try decodeEntry(value, kind: kind))
            entry = try cursor.next()
        }
        return entries
    }

    var count: Int { entries.count }

    var keys: [String] { entries.map(\.key) }

    func contains(_ key: String) -> Bool { value(for: key) != nil }

    func value<V: RealmCollectionValue>(forKey key: String, as type: V.Type) -> V? {
        value(for: key).map { element(from: $0, as: type, slot: MapEntrySlot(map: self, key: key)) }
    }

    func values<V: RealmCollectionValue>(as type: V.Type) -> [V] {
        entries.map { element(from: $0.value, as: type, slot: MapEntrySlot(map: self, key: $0.key)) }
    }

    /// The stored value under `key`, or `nil` when the map has no such key.
    func value(for key: String) -> _PersistedValue? {
        realm.verifyThread()
        verifyOwner()
        do {
            let found = try Self.entryKey(ownerKey, key).withUnsafeBytes { try realm.transaction.unsafeValue(for: $0, in: database) }
            guard let found else { return nil }
            let entry = try Self.decodeEntry(found, kind: kind)
            return entry.key == key ? entry.value : nil
        } catch {
            preconditionFailure("Cannot read '\(realm.coordinator.path)': \(error)")
        }
    }

    /// Sets the value under `key` (an unmanaged object is added to the realm).
    func set(_ element: any _Persistable, for key: String) {
        let write = verifyWrite()
        verifyOwner()
        realm.perform(in: write) {
            let value = try storedValue(of: element, in: write)
            try Self.remove(key, owner: ownerKey, column: column, in: layout, database: database, realm: realm, write: write)
            try Self.put(value, for: key, owner: ownerKey, column: column, in: layout, database: database, realm: realm, write: write)
        }
    }

    /// Replaces the stored value under `key`; `write` is open.
    func replace(_ key: String, with value: _PersistedValue, in write: WriteState) {
        realm.perform(in: write) {
            try Self.remove(key, owner: ownerKey, column: column, in: layout, database: database, realm: realm, write: write)
            try Self.put(value, for: key, owner: ownerKey, column: column, in: layout, database: database, realm: realm, write: write)
        }
    }

    /// Removes `key` and its value.
    func remove(_ key: String) {
        let write = verifyWrite()
        realm.perform(in: write) {
            try Self.remove(key, owner: ownerKey, column: column, in: layout, database: database, realm: realm, write: write)
        }
    }

    /// Removes every entry.
    func removeAll() {
        let write = verifyWrite()
        let keys = entries.map(\.key)
        realm.perform(in: write) {
            for key in keys {
                try Self.remove(key, owner: ownerKey, column: column, in: layout, database: database, realm: realm, write: write)
            }
        }
    }

    /// Stores the entries of an unmanaged map being added with its owner.
    static func store(_ entries: [(key: String, value: any _Persistable)], owner: ObjectKey, column: Int, in layout: TableLayout,
                      realm: RealmCore, write: WriteState) throws {
        guard let database = layout.lists.first(where: { $0.column == column })?.database else { return }
        for (key, element) in entries {
            let value = try storedValue(of: element, kind: layout.kinds[column], realm: realm, in: write)
            try put(value, for: key, owner: owner, column: column, in: layout, database: database, realm: realm, write: write)
        }
    }

    /// Removes every entry of `owner`'s map in `column`.
    static func removeAll(of owner: ObjectKey, column: Int, in layout: TableLayout, realm: RealmCore, write: WriteState) throws {
        guard let database = layout.lists.first(where: { $0.column == column })?.database else { return }
        for entry in try entries(of: owner, in: database, kind: layout.kinds[column], txn: write.transaction) {
            try remove(entry.key, owner: owner, column: column, in: layout, database: database, realm: realm, write: write)
        }
    }

    /// Drops every link to `target` from `owner`'s map: an entry pointing at it becomes `nil`,
    /// and a collection nested in an entry's `AnyRealmValue` loses it.
    static func clearLinks(to target: LinkTarget, owner: ObjectKey, column: Int, in layout: TableLayout,
                           realm: RealmCore, write: WriteState) throws {
        guard let database = layout.lists.first(where: { $0.column == column })?.database else { return }
        for entry in try entries(of: owner, in: database, kind: layout.kinds[column], txn: write.transaction) {
            let cleared = RealmCore.removingLinks(to: target, from: entry.value)
            guard cleared != entry.value else { continue }
            try remove(entry.key, owner: owner, column: column, in: layout, database: database, realm: realm, write: write)
            try put(cleared, for: entry.key, owner: owner, column: column, in: layout, database: database, realm: realm, write: write)
        }
    }

    // MARK: Entries

    static func entryKey(_ owner: ObjectKey, _ key: String) -> [UInt8] {
        var bytes: [UInt8] = []
        owner.append(to: &bytes)
        IndexKeyEncoder.append(.string(key), to: &bytes)
        return bytes
    }

    /// The backlink position of an entry: the hash of its key.
    static func position(of key: String) -> UInt64 {
        var hash = FNV1a()
        hash.add(key.utf8)
        return hash.value
    }

    private static func put(_ value: _PersistedValue, for key: String, owner: ObjectKey, column: Int, in layout: TableLayout,
                            database: Database, realm: RealmCore, write: WriteState) throws {
        var bytes: [UInt8] = []
        withUnsafeBytes(of: UInt32(key.utf8.count).littleEndian) { bytes.append(contentsOf: $0) }
        bytes.append(contentsOf: key.utf8)
        bytes.append(contentsOf: ManagedList.encode(value))
        let entry = entryKey(owner, key)
        if key.utf8.count > IndexKeyEncoder.maximumInlineLength, let existing = try write.transaction.value(for: entry, in: database) {
            // A long key's entry key is its prefix and a hash: another key may share it.
            let held = try existing.withUnsafeBytes { try decodeEntry($0, kind: layout.kinds[column]).key }
            guard held.utf8.elementsEqual(key.utf8) else {
                throw Realm.Error(.fail, "The map keys '\(held.prefix(40))…' and '\(key.prefix(40))…' have the same stored form; use keys that differ within their first \(IndexKeyEncoder.maximumInlineLength) bytes.")
            }
        }
        try write.transaction.put(entry, bytes, in: database)
        try realm.elementBacklinks(of: value, from: owner, position: position(of: key), counted: true, column: column, in: layout,
                                   adding: true, write: write)
    }

    private static func remove(_ key: String, owner: ObjectKey, column: Int, in layout: TableLayout, database: Database,
                               realm: RealmCore, write: WriteState) throws {
        let entry = entryKey(owner, key)
        guard let bytes = try write.transaction.value(for: entry, in: database) else { return }
        let stored = try bytes.withUnsafeBytes { try decodeEntry($0, kind: layout.kinds[column]) }
        guard stored.key == key else { return }
        try realm.elementBacklinks(of: stored.value, from: owner, position: position(of: key), counted: true, column: column,
                                   in: layout, adding: false, write: write)
        try write.transaction.delete(entry, in: database)
    }

    /// Decodes a stored entry: `[u32 key length][key UTF-8][element]`.
    ///
    /// - Throws: ``StorageError`` when the length runs past the entry or the element is damaged.
    static func decodeEntry(_ bytes: UnsafeRawBufferPointer, kind: _StorageKind) throws(StorageError) -> (key: String, value: _PersistedValue) {
        guard bytes.count >= 4 else { throw .damaged("a stored map entry is \(bytes.count) bytes long") }
        let length = Int(UInt32(littleEndian: bytes.loadUnaligned(as: UInt32.self)))
        guard length < bytes.count - 4 else { throw .damaged("a stored map key of \(length) bytes runs past its entry") }
        let key = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[4..<(4 + length)]), as: UTF8.self)
        return (key, try ManagedList.decode(UnsafeRawBufferPointer(rebasing: bytes[(4 + length)...]), kind: kind))
    }
}
