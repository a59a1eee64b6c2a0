import LMDB

/// The stored elements of one managed object's set property.
///
/// Elements live in the property's collection database under `ownerKey ++ indexKey(value)`
/// (the order-preserving key of the value, or of the target's object key for a set of
/// objects), so membership, insertion and removal are one B-tree operation each and a set is
/// read in value order. Values are stored as in lists.
final class ManagedSet: ManagedCollection {
    private var cache = GenerationCache<[_PersistedValue]>([])

    /// The stored values, in value order, for the realm's current generation.
    var values: [_PersistedValue] {
        current(&cache) { txn in try Self.values(of: ownerKey, in: database, kind: kind, txn: txn) }
    }

    static func values(of owner: ObjectKey, in database: Database, kind: _StorageKind, txn: Transaction) throws -> [_PersistedValue] {
        var prefix: [UInt8] = []
        owner.append(to: &prefix)
        var values: [_PersistedValue] = []
        let cursor = try txn.openCursor(database)
        var entry = try cursor.seek(atLeast: prefix)
        while let (key, value) = entry, key.count > 8, key.starts(with: prefix) {
            values.append(ManagedList.decode(value, kind: kind))
            entry = try cursor.next()
        }
        return values
    }

    /// Whether the set holds `element`.
    func contains(_ element: any _Persistable) -> Bool {
        realm.verifyThread()
        guard let value = storedValueIfManaged(element) else { return false }
        do {
            return try Self.entryKey(ownerKey, value).withUnsafeBytes {
                try realm.transaction.unsafeValue(for: $0, in: database) != nil
            }
        } catch {
            preconditionFailure("Cannot read '\(realm.coordinator.path)': \(error)")
        }
    }

    /// The stored form of `element` without adding anything; `nil` for an unmanaged object.
    private func storedValueIfManaged(_ element: any _Persistable) -> _PersistedValue? {
        if kind == .mixed {
            switch element as? AnyRealmValue {
            case .object(let object)? where object.management == nil: return nil
            case .list?, .dictionary?: return nil
            default: break
            }
        }
        guard targetType != nil else { return element._persistedValue }
        guard let key = (element as? ObjectBase)?.management?.key else { return nil }
        return .link(key.rawValue)
    }

    /// Adds `element` unless the set holds it already (an unmanaged object is added to the realm).
    func insert(_ element: any _Persistable) {
        let write = verifyWrite()
        verifyOwner()
        if kind == .mixed { Self.verifyNotNested(element) }
        realm.perform(in: write) {
            let value = try storedValue(of: element, in: write)
            try Self.put(value, owner: ownerKey, column: column, in: layout, database: database, realm: realm, write: write)
        }
        realm.advanceGeneration()
    }

    /// Traps on a list or dictionary: a set's elements are compared by value, and a nested
    /// collection is not a value.
    static func verifyNotNested(_ element: any _Persistable) {
        switch element as? AnyRealmValue {
        case .list?, .dictionary?: preconditionFailure("A MutableSet of AnyRealmValue cannot hold a list or dictionary.")
        default: break
        }
    }

    /// Removes `element` if the set holds it.
    func remove(_ element: any _Persistable) {
        let write = verifyWrite()
        guard let value = storedValueIfManaged(element) else { return }
        realm.perform(in: write) {
            try Self.remove(value, owner: ownerKey, column: column, in: layout, database: database, realm: realm, write: write)
        }
        realm.advanceGeneration()
    }

    /// Removes every element.
    func removeAll() {
        let write = verifyWrite()
        let values = self.values
        realm.perform(in: write) {
            for value in values {
                try Self.remove(value, owner: ownerKey, column: column, in: layout, database: database, realm: realm, write: write)
            }
        }
        realm.advanceGeneration()
    }

    /// Adds the elements of an unmanaged set being added with its owner.
    static func store(_ elements: [any _Persistable], owner: ObjectKey, column: Int, in layout: TableLayout,
                      realm: RealmCore, write: WriteState) throws {
        guard let database = layout.lists.first(where: { $0.column == column })?.database else { return }
        for element in elements {
            if layout.kinds[column] == .mixed { verifyNotNested(element) }
            let value = try storedValue(of: element, kind: layout.kinds[column], realm: realm, in: write)
            try put(value, owner: owner, column: column, in: layout, database: database, realm: realm, write: write)
        }
    }

    /// Removes every element of `owner`'s set in `column`.
    static func removeAll(of owner: ObjectKey, column: Int, in layout: TableLayout, realm: RealmCore, write: WriteState) throws {
        guard let database = layout.lists.first(where: { $0.column == column })?.database else { return }
        for value in try values(of: owner, in: database, kind: layout.kinds[column], txn: write.transaction) {
            try remove(value, owner: owner, column: column, in: layout, database: database, realm: realm, write: write)
        }
    }

    /// The backlink position of an element: the key of the object it links to.
    static func position(of value: _PersistedValue) -> UInt64 {
        switch value {
        case .link(let key), .mixed(.typedLink(_, let key)): key
        default: 0
        }
    }

    /// The entry key of `value` in `owner`'s set.
    static func entryKey(_ owner: ObjectKey, _ value: _PersistedValue) -> [UInt8] {
        var key: [UInt8] = []
        owner.append(to: &key)
        IndexKeyEncoder.append(value, to: &key)
        return key
    }

    private static func put(_ value: _PersistedValue, owner: ObjectKey, column: Int, in layout: TableLayout, database: Database,
                            realm: RealmCore, write: WriteState) throws {
        do {
            try write.transaction.put(entryKey(owner, value), ManagedList.encode(value), in: database, flags: .noOverwrite)
        } catch LMDBError.keyExists {
            return  // already a member
        }
        try realm.elementBacklinks(of: value, from: owner, position: position(of: value), column: column, in: layout, adding: true, write: write)
    }

    static func remove(_ value: _PersistedValue, owner: ObjectKey, column: Int, in layout: TableLayout, database: Database,
                       realm: RealmCore, write: WriteState) throws {
        guard try write.transaction.delete(entryKey(owner, value), in: database) else { return }
        try realm.elementBacklinks(of: value, from: owner, position: position(of: value), column: column, in: layout, adding: false, write: write)
    }
}
