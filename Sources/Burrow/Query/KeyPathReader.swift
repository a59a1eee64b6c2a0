import LMDB

/// Reads the value a key path names from an object's row, following to-one links
/// (`owner.address.city`), for sorting and distinct.
struct KeyPathReader {
    /// The links to follow (the column in each class), then the final column.
    private let hops: [(column: Int, target: TableLayout)]
    private let column: Int
    private let kind: _StorageKind

    /// What a key path is read for, which messages name as realm-core's do.
    enum Use: String {
        case sort
        case distinct
    }

    /// A reader for `path` on `storedClass`; `nil` with a message when it does not name a
    /// property reached through to-one links.
    static func make(_ path: String, on storedClass: StoredClass, catalog: Catalog, for use: Use = .sort) -> Result<KeyPathReader, Realm.Error> {
        var current = storedClass
        var hops: [(column: Int, target: TableLayout)] = []
        let names = path.split(separator: ".").map(String.init)
        for (position, name) in names.enumerated() {
            guard let column = current.properties.firstIndex(where: { $0.name == name }) else {
                return .failure(Realm.Error(.invalidQuery, "Cannot \(use.rawValue) on key path '\(path)': property '\(current.name).\(name)' does not exist."))
            }
            let property = current.properties[column]
            guard property.collection == nil else {
                return .failure(Realm.Error(.invalidQuery, "Cannot \(use.rawValue) on key path '\(path)': '\(current.name).\(name)' is a collection."))
            }
            if position == names.count - 1 {
                return .success(KeyPathReader(hops: hops, column: column, kind: property.kind))
            }
            guard property.kind == .link, let targetName = property.objectClassName else {
                return .failure(Realm.Error(.invalidQuery, "Cannot \(use.rawValue) on key path '\(path)': '\(current.name).\(name)' is not a link."))
            }
            guard let target = catalog.layouts[targetName] else {
                return .success(KeyPathReader(hops: hops, column: -1, kind: .link))  // no linked objects exist yet: always nil
            }
            hops.append((column, target))
            current = target.storedClass
        }
        return .failure(Realm.Error(.invalidQuery, "Cannot \(use.rawValue) on an empty key path."))
    }

    /// The value for the object whose row is `row`; `nil` when a link on the way is empty.
    func value(of row: RowReader, in txn: Transaction) throws -> _PersistedValue {
        try reachedValue(of: row, in: txn) ?? .null
    }

    /// The value for the object whose row is `row`, or `nil` when a link on the way is empty
    /// (which ``value(of:in:)`` reads as `nil`, and distinct leaves out, as realm-core does).
    func reachedValue(of row: RowReader, in txn: Transaction) throws -> _PersistedValue? {
        var reader = row
        for hop in hops {
            guard case .link(let key) = reader.value(hop.column, kind: .link),
                  let target = try hop.target.row(ObjectKey(key), in: txn) else { return nil }
            reader = RowReader(target)
        }
        return column < 0 ? nil : reader.value(column, kind: kind)
    }
}
