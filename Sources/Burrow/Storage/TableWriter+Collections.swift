import LMDB

/// The entries of list, set and map properties (see ``ListEntries``, ``SetEntries`` and
/// ``MapEntries``), with the backlinks of the objects they hold.
extension TableWriter {
    /// Records that `owner`'s collection in `column` changed, for the change log.
    @inline(__always)
    private func collectionChanged(_ owner: ObjectKey, column: Int, in layout: TableLayout) {
        storage.changes?.modified(owner, propertyID: layout.propertyIDs[column], classID: layout.classID)
    }

    // MARK: Lists

    /// Stores `value` at `position` of `owner`'s list in `column`.
    func putListElement(_ value: _PersistedValue, owner: ObjectKey, position: UInt64, column: Int, in layout: TableLayout) throws {
        guard let database = layout.collectionDatabase(of: column) else { return }
        try transaction.put(ListEntries.key(owner, position), ListEntries.encode(value), in: database)
        try elementBacklinks(of: value, from: owner, position: position, column: column, in: layout, adding: true)
        collectionChanged(owner, column: column, in: layout)
    }

    /// Removes the element at `position` of `owner`'s list, keeping what it linked to.
    func removeListElement(owner: ObjectKey, position: UInt64, column: Int, in layout: TableLayout) throws {
        guard let database = layout.collectionDatabase(of: column) else { return }
        let key = ListEntries.key(owner, position)
        let kind = layout.kinds[column]
        if kind == .link || kind == .mixed, let bytes = try transaction.value(for: key, in: database) {
            let value = try bytes.withUnsafeBytes { try ListEntries.decode($0, kind: kind) }
            try elementBacklinks(of: value, from: owner, position: position, column: column, in: layout, adding: false)
        }
        try transaction.delete(key, in: database)
        collectionChanged(owner, column: column, in: layout)
    }

    /// Takes the element at `position` out of the list for good: an embedded object it holds is
    /// deleted.
    func discardListElement(owner: ObjectKey, position: UInt64, column: Int, in layout: TableLayout) throws {
        let embedded = embeddedLayout(of: column, in: layout)
        let target = try embedded == nil ? nil : linkedKey(at: position, owner: owner, column: column, in: layout)
        try removeListElement(owner: owner, position: position, column: column, in: layout)
        if let embedded, let target { try delete(target, in: embedded) }
    }

    /// Removes every element of `owner`'s list in `column` (its owner is being deleted or
    /// overwritten), deleting the embedded objects it holds but those in `kept` (which the
    /// caller stores again, updated in place).
    func removeList(of owner: ObjectKey, column: Int, in layout: TableLayout, keeping kept: Set<ObjectKey> = []) throws {
        guard let database = layout.collectionDatabase(of: column) else { return }
        for position in try ListEntries.positions(of: owner, in: database, txn: transaction) {
            if !kept.isEmpty, let target = try linkedKey(at: position, owner: owner, column: column, in: layout), kept.contains(target) {
                try removeListElement(owner: owner, position: position, column: column, in: layout)
            } else {
                try discardListElement(owner: owner, position: position, column: column, in: layout)
            }
        }
    }

    /// The embedded objects `owner`'s list in `column` holds, in order; empty when the list
    /// holds no embedded objects.
    func embeddedListElements(of owner: ObjectKey, column: Int, in layout: TableLayout) throws -> [ObjectKey] {
        guard embeddedLayout(of: column, in: layout) != nil, let database = layout.collectionDatabase(of: column) else { return [] }
        return try ListEntries.positions(of: owner, in: database, txn: transaction).compactMap { position in
            try linkedKey(at: position, owner: owner, column: column, in: layout)
        }
    }

    /// Takes the element at `position` out of a list when it links to `target`, or drops the
    /// links to `target` from the collections nested in it.
    func clearListLinks(to target: LinkTarget, owner: ObjectKey, position: UInt64, column: Int, in layout: TableLayout) throws {
        guard let database = layout.collectionDatabase(of: column) else { return }
        let entry = ListEntries.key(owner, position)
        guard let bytes = try transaction.value(for: entry, in: database) else { return }
        let value = try bytes.withUnsafeBytes { try ListEntries.decode($0, kind: layout.kinds[column]) }
        try elementBacklinks(of: value, from: owner, position: position, column: column, in: layout, adding: false)
        let cleared = target.removed(from: value)
        collectionChanged(owner, column: column, in: layout)
        if cleared.isNull {
            try transaction.delete(entry, in: database)
        } else {
            try transaction.put(entry, ListEntries.encode(cleared), in: database)
            try elementBacklinks(of: cleared, from: owner, position: position, column: column, in: layout, adding: true)
        }
    }

    /// The object key held at `position` of a list of objects, if any.
    private func linkedKey(at position: UInt64, owner: ObjectKey, column: Int, in layout: TableLayout) throws -> ObjectKey? {
        guard let database = layout.collectionDatabase(of: column),
              let bytes = try transaction.value(for: ListEntries.key(owner, position), in: database),
              case .link(let key) = try bytes.withUnsafeBytes({ try ListEntries.decode($0, kind: .link) }) else { return nil }
        return ObjectKey(key)
    }

    // MARK: Sets

    /// Adds `value` to `owner`'s set in `column` unless it holds it already.
    func insertIntoSet(_ value: _PersistedValue, owner: ObjectKey, column: Int, in layout: TableLayout) throws {
        guard let database = layout.collectionDatabase(of: column),
              let key = try SetEntries.newKey(for: value, kind: layout.kinds[column], owner: owner, in: database, txn: transaction) else { return }
        do {
            try transaction.put(key, ListEntries.encode(value), in: database, flags: .noOverwrite)
        } catch LMDBError.keyExists {
            return  // already a member
        }
        try elementBacklinks(of: value, from: owner, position: SetEntries.position(of: value), column: column, in: layout, adding: true)
        collectionChanged(owner, column: column, in: layout)
    }

    /// Removes `value` from `owner`'s set in `column` if it holds it.
    func removeFromSet(_ value: _PersistedValue, owner: ObjectKey, column: Int, in layout: TableLayout) throws {
        guard let database = layout.collectionDatabase(of: column),
              let key = try SetEntries.storedKey(of: value, kind: layout.kinds[column], owner: owner, in: database, txn: transaction),
              try transaction.delete(key, in: database) else { return }
        try elementBacklinks(of: value, from: owner, position: SetEntries.position(of: value), column: column, in: layout, adding: false)
        collectionChanged(owner, column: column, in: layout)
    }

    /// Removes every element of `owner`'s set in `column`.
    func removeSet(of owner: ObjectKey, column: Int, in layout: TableLayout) throws {
        guard let database = layout.collectionDatabase(of: column) else { return }
        for value in try ListEntries.values(of: owner, in: database, kind: layout.kinds[column], txn: transaction) {
            try removeFromSet(value, owner: owner, column: column, in: layout)
        }
    }

    // MARK: Maps

    /// Stores `value` under `key` of `owner`'s map in `column`, replacing what it held; with
    /// `discarding`, an embedded object it held is deleted (``discardMapValue(for:owner:column:in:)``).
    func setMapValue(_ value: _PersistedValue, for key: String, owner: ObjectKey, column: Int, in layout: TableLayout,
                     discarding: Bool = false) throws {
        guard let database = layout.collectionDatabase(of: column) else { return }
        if discarding {
            try discardMapValue(for: key, owner: owner, column: column, in: layout)
        } else {
            try removeMapValue(for: key, owner: owner, column: column, in: layout)
        }
        let entry = try MapEntries.newKey(for: key, owner: owner, in: database, txn: transaction)
        try transaction.put(entry, MapEntries.encode(key, value), in: database)
        collectionChanged(owner, column: column, in: layout)
        try elementBacklinks(of: value, from: owner, position: MapEntries.position(of: key), counted: true, column: column,
                             in: layout, adding: true)
    }

    /// Removes `key` and its value from `owner`'s map in `column`; returns the value it held.
    @discardableResult
    func removeMapValue(for key: String, owner: ObjectKey, column: Int, in layout: TableLayout) throws -> _PersistedValue? {
        guard let database = layout.collectionDatabase(of: column),
              let stored = try MapEntries.stored(key, owner: owner, in: database, kind: layout.kinds[column], txn: transaction) else { return nil }
        try elementBacklinks(of: stored.value, from: owner, position: MapEntries.position(of: key), counted: true, column: column,
                             in: layout, adding: false)
        try transaction.delete(stored.entryKey, in: database)
        collectionChanged(owner, column: column, in: layout)
        return stored.value
    }

    /// Removes `key` and its value from `owner`'s map in `column`, deleting the embedded object
    /// the value is (it belongs to no one else), as a list's element is discarded.
    func discardMapValue(for key: String, owner: ObjectKey, column: Int, in layout: TableLayout) throws {
        guard let removed = try removeMapValue(for: key, owner: owner, column: column, in: layout),
              case .link(let target) = removed, let embedded = embeddedLayout(of: column, in: layout) else { return }
        try delete(ObjectKey(target), in: embedded)
    }

    /// Removes every entry of `owner`'s map in `column` (its owner is being deleted or
    /// overwritten), deleting the embedded objects it holds.
    func removeMap(of owner: ObjectKey, column: Int, in layout: TableLayout) throws {
        guard let database = layout.collectionDatabase(of: column) else { return }
        for entry in try MapEntries.entries(of: owner, in: database, kind: layout.kinds[column], txn: transaction) {
            try discardMapValue(for: entry.key, owner: owner, column: column, in: layout)
        }
    }

    /// Drops every link to `target` from `owner`'s map: an entry pointing at it becomes `nil`,
    /// and a collection nested in an entry's `AnyRealmValue` loses it.
    func clearMapLinks(to target: LinkTarget, owner: ObjectKey, column: Int, in layout: TableLayout) throws {
        guard let database = layout.collectionDatabase(of: column) else { return }
        for entry in try MapEntries.entries(of: owner, in: database, kind: layout.kinds[column], txn: transaction) {
            let cleared = target.removed(from: entry.value)
            guard cleared != entry.value else { continue }
            try setMapValue(cleared, for: entry.key, owner: owner, column: column, in: layout)
        }
    }
}
