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
            values.append(try ManagedList.decode(value, kind: kind))
            entry = try cursor.next()
        }
        return values
    }

    /// Whether the set holds `element`.
    func contains(_ element: any _Persistable) -> Bool {
        realm.verifyThread()
        guard let value = storedValueIfManaged(element) else { return false }
        do {
            return try Self.storedEntryKey(of: value, kind: kind, owner: ownerKey, in: database, txn: realm.transaction) != nil
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

    /// The key of the entry of `owner`'s set that holds exactly `value`, or `nil`.
    ///
    /// A value too long for its key to hold whole shares its truncated key with others: each of
    /// them gets an entry of its own (the key, then a number), and the match is the entry whose
    /// stored value is `value`.
    static func storedEntryKey(of value: _PersistedValue, kind: _StorageKind, owner: ObjectKey, in database: Database,
                               txn: Transaction) throws -> [UInt8]? {
        let key = entryKey(owner, value)
        guard isTruncated(key) else {
            return try key.withUnsafeBytes { try txn.unsafeValue(for: $0, in: database) } == nil ? nil : key
        }
        return try sharingEntries(key, in: database, txn: txn).first { try ManagedList.decode($0.value, kind: kind) == value }?.key
    }

    /// Whether `key` (an owner key, then an element's key) holds a truncated element key.
    private static func isTruncated(_ key: [UInt8]) -> Bool { IndexKeyEncoder.isTruncated(key.dropFirst(8)) }

    /// The entries whose keys are `key` followed by a number, with their stored bytes.
    private static func sharingEntries(_ key: [UInt8], in database: Database, txn: Transaction) throws -> [(key: [UInt8], value: UnsafeRawBufferPointer)] {
        var entries: [(key: [UInt8], value: UnsafeRawBufferPointer)] = []
        let cursor = try txn.openCursor(database)
        var entry = try cursor.seek(atLeast: key)
        while let (entryKey, entryValue) = entry, entryKey.count == key.count + 8, entryKey.starts(with: key) {
            entries.append((Array(entryKey), entryValue))
            entry = try cursor.next()
        }
        return entries
    }

    private static func put(_ value: _PersistedValue, owner: ObjectKey, column: Int, in layout: TableLayout, database: Database,
                            realm: RealmCore, write: WriteState) throws {
        var key = entryKey(owner, value)
        if isTruncated(key) {
            let kind = layout.kinds[column]
            guard try storedEntryKey(of: value, kind: kind, owner: owner, in: database, txn: write.transaction) == nil else { return }
            // One number past the last entry already sharing the truncated key.
            let last = try sharingEntries(key, in: database, txn: write.transaction).last
            let next = last.map { $0.key.suffix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) } + 1 } ?? 0
            key.append(contentsOf: FileHeader.encodeUInt64(next))
        }
        do {
            try write.transaction.put(key, ManagedList.encode(value), in: database, flags: .noOverwrite)
        } catch LMDBError.keyExists {
            return  // already a member
        }
        try realm.elementBacklinks(of: value, from: owner, position: position(of: value), column: column, in: layout, adding: true, write: write)
    }

    static func remove(_ value: _PersistedValue, owner: ObjectKey, column: Int, in layout: TableLayout, database: Database,
                       realm: RealmCore, write: WriteState) throws {
        guard let key = try storedEntryKey(of: value, kind: layout.kinds[column], owner: owner, in: database, txn: write.transaction),
              try write.transaction.delete(key, in: database) else { return }
        try realm.elementBacklinks(of: value, from: owner, position: position(of: value), column: column, in: layout, adding: false, write: write)
    }
}
