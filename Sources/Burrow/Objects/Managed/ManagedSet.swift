import LMDB

/// The elements of one managed object's set property, as ``SetEntries`` stores them: in value
/// order (for a set of objects, the order of the targets' keys).
final class ManagedSet: ManagedCollection {
    private var cache = GenerationCache<[_PersistedValue]>([])

    /// The stored values, in value order, for the realm's current generation.
    var values: [_PersistedValue] {
        realm.exclusively { current(&cache) { txn in try SetEntries.values(of: ownerKey, in: database, kind: kind, txn: txn) } }
    }

    /// Whether the set holds `element`.
    func contains(_ element: any _Persistable) -> Bool {
        realm.verifyThread()
        guard let value = storedValueIfManaged(element) else { return false }
        do {
            return try SetEntries.storedKey(of: value, kind: kind, owner: ownerKey, in: database, txn: realm.transaction) != nil
        } catch {
            readFailed(error)
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
        guard let key = element._linkedObject?.management?.key else { return nil }
        return .link(key.rawValue)
    }

    /// Adds `element` unless the set holds it already (an unmanaged object is added to the realm).
    func insert(_ element: any _Persistable) {
        let write = verifyWrite()
        verifyOwner()
        if kind == .mixed { Self.verifyNotNested(element) }
        realm.perform(in: write) {
            let value = try storedValue(of: element, in: write)
            try write.tables.insertIntoSet(value, owner: ownerKey, column: column, in: layout)
        }
    }

    /// Traps on a list or dictionary: a set's elements are compared by value, and a nested
    /// collection is not a value.
    static func verifyNotNested(_ element: any _Persistable) {
        switch element as? AnyRealmValue {
        case .list?, .dictionary?: burrowPreconditionFailure("A MutableSet of AnyRealmValue cannot hold a list or dictionary.")
        default: break
        }
    }

    /// Removes `element` if the set holds it.
    func remove(_ element: any _Persistable) {
        let write = verifyWrite()
        guard let value = storedValueIfManaged(element) else { return }
        realm.perform(in: write) {
            try write.tables.removeFromSet(value, owner: ownerKey, column: column, in: layout)
        }
    }

    /// Removes every element.
    func removeAll() {
        let write = verifyWrite()
        let values = self.values
        realm.perform(in: write) {
            for value in values {
                try write.tables.removeFromSet(value, owner: ownerKey, column: column, in: layout)
            }
        }
    }

    /// Adds the elements of an unmanaged set being added with its owner.
    static func store(_ elements: [any _Persistable], owner: ObjectKey, column: Int, in layout: TableLayout,
                      realm: RealmCore, write: WriteState) throws {
        for element in elements {
            if layout.kinds[column] == .mixed { verifyNotNested(element) }
            let value = try storedValue(of: element, kind: layout.kinds[column], realm: realm, in: write, destination: .list)
            try write.tables.insertIntoSet(value, owner: owner, column: column, in: layout)
        }
    }
}
