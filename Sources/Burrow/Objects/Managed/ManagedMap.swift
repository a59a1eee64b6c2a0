import Foundation
import LMDB

/// The entries of one managed object's map property, as ``MapEntries`` stores them, in key
/// order; deleting an object sets the entries pointing at it to `nil`.
final class ManagedMap: ManagedCollection, MapStorage {
    private var cache = GenerationCache<[(key: String, value: _PersistedValue)]>([])

    /// The entries in key order, for the realm's current generation.
    var entries: [(key: String, value: _PersistedValue)] {
        realm.exclusively { current(&cache) { txn in try MapEntries.entries(of: ownerKey, in: database, kind: kind, txn: txn) } }
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
            return try MapEntries.value(of: ownerKey, key: key, in: database, kind: kind, txn: realm.transaction)
        } catch {
            readFailed(error)
        }
    }

    /// Sets the value under `key` (an unmanaged object is added to the realm).
    func set(_ element: any _Persistable, for key: String) {
        let write = verifyWrite()
        verifyOwner()
        realm.perform(in: write) {
            let value = try storedValue(of: element, in: write)
            try write.tables.setMapValue(value, for: key, owner: ownerKey, column: column, in: layout, discarding: true)
        }
    }

    /// Replaces the stored value under `key`; `write` is open.
    func replace(_ key: String, with value: _PersistedValue, in write: WriteState) {
        realm.perform(in: write) {
            try write.tables.setMapValue(value, for: key, owner: ownerKey, column: column, in: layout)
        }
    }

    /// Removes `key` and its value (deleting it, for a map of embedded objects).
    func remove(_ key: String) {
        let write = verifyWrite()
        realm.perform(in: write) {
            try write.tables.discardMapValue(for: key, owner: ownerKey, column: column, in: layout)
        }
    }

    /// Removes every entry (deleting them, for a map of embedded objects).
    func removeAll() {
        let write = verifyWrite()
        let keys = entries.map(\.key)
        realm.perform(in: write) {
            for key in keys {
                try write.tables.discardMapValue(for: key, owner: ownerKey, column: column, in: layout)
            }
        }
    }

    /// Stores the entries of an unmanaged map being added with its owner.
    static func store(_ entries: [(key: String, value: any _Persistable)], owner: ObjectKey, column: Int, in layout: TableLayout,
                      realm: RealmCore, write: WriteState) throws {
        for (key, element) in entries {
            let value = try storedValue(of: element, kind: layout.kinds[column], realm: realm, in: write, destination: .dictionary)
            try write.tables.setMapValue(value, for: key, owner: owner, column: column, in: layout)
        }
    }
}

extension ManagedMap {
    func storage(in core: RealmCore) -> (any MapStorage)? { moved(to: core) }
}
