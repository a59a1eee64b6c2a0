import LMDB

/// What a predicate needs to follow to-one links: the classes of the file, and, while results
/// are evaluated, the transaction to read target rows from.
final class LinkResolver {
    let catalog: Catalog
    /// The transaction of the evaluation under way.
    var transaction: Transaction?

    init(catalog: Catalog) {
        self.catalog = catalog
    }

    /// The stored values of `owner`'s list or set in `database`, in order.
    func listValues(of owner: ObjectKey, in database: Database, kind: _StorageKind) -> [_PersistedValue] {
        guard let transaction else { return [] }
        var prefix: [UInt8] = []
        owner.append(to: &prefix)
        var values: [_PersistedValue] = []
        do {
            let cursor = try transaction.openCursor(database)
            var entry = try cursor.seek(atLeast: prefix)
            while let (key, value) = entry, key.count > 8, key.starts(with: prefix) {
                values.append(ManagedList.decode(value, kind: kind))
                entry = try cursor.next()
            }
        } catch {
            return values
        }
        return values
    }

    /// The entries of `owner`'s map in `database`, in key order.
    func mapEntries(of owner: ObjectKey, in database: Database, kind: _StorageKind) -> [(key: String, value: _PersistedValue)] {
        guard let transaction else { return [] }
        return (try? ManagedMap.entries(of: owner, in: database, kind: kind, txn: transaction)) ?? []
    }

    /// The value under `key` in `owner`'s map in `database`, or `nil` when there is no such key.
    func mapValue(of owner: ObjectKey, key: String, in database: Database, kind: _StorageKind) -> _PersistedValue? {
        guard let transaction else { return nil }
        let entry = ManagedMap.entryKey(owner, key)
        guard let found = (try? entry.withUnsafeBytes({ try transaction.unsafeValue(for: $0, in: database) })) ?? nil else { return nil }
        let decoded = ManagedMap.decodeEntry(found, kind: kind)
        return decoded.key == key ? decoded.value : nil
    }

    /// The row of `key` in `layout`'s table, or `nil` when there is none.
    @inline(__always)
    func row(_ key: UInt64, in layout: TableLayout) -> UnsafeRawBufferPointer? {
        guard let transaction else { return nil }
        return (try? layout.row(ObjectKey(key), in: transaction)) ?? nil
    }
}
