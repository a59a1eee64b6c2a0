import LMDB

/// Writes the rows, collection entries and backlink index of one write transaction, keeping
/// them consistent with each other: every link stored anywhere has its backlink, deleting an
/// object clears every link to it, and embedded objects die with their owner.
///
/// Every change a write makes to objects goes through here (the object layer turns objects and
/// values into stored values first), so this is the one place that sees all of them. It works
/// on a transaction and the catalog; it never sees a realm or a model class.
final class TableWriter {
    /// The transaction and its buffers.
    let storage: StorageWrite
    let catalogs: CatalogStore

    init(storage: StorageWrite, catalogs: CatalogStore) {
        self.storage = storage
        self.catalogs = catalogs
    }

    var transaction: Transaction { storage.transaction }

    /// The catalog this write sees: its own draft once it added a class.
    var catalog: Catalog { catalogs.catalog(seenBy: storage.catalogChanges) }

    // MARK: Rows

    /// Every column of the row of `key`; `nil` when there is no such object.
    func values(of key: ObjectKey, in layout: TableLayout) throws -> [_PersistedValue]? {
        guard let row = try layout.row(key, in: transaction) else { return nil }
        let reader = RowReader(row, key: key)
        return try layout.kinds.enumerated().map { column, kind throws(StorageError) in try reader.checkedValue(column, kind: kind) }
    }

    /// Writes a new row, its index entries and the backlinks of its links.
    ///
    /// - Throws: ``LMDBError/keyExists`` when the key or the primary key is taken.
    func insert(_ values: [_PersistedValue], key: ObjectKey, in layout: TableLayout) throws {
        // Keys mostly grow, so the row is appended when it can be.
        try layout.insert(values, key: key, appending: true, in: storage)
        for column in layout.linkColumns {
            if case .link(let target) = values[column] {
                try backlink(from: key, column: column, in: layout, to: ObjectKey(target), adding: true)
            }
        }
        for column in layout.mixedColumns {
            try elementBacklinks(of: values[column], from: key, position: nil, column: column, in: layout, adding: true)
        }
    }

    /// Replaces the row of `key`, whose values are `old`, by `new`, moving the backlinks of the
    /// links that changed; an embedded object that was replaced is deleted.
    func replace(_ key: ObjectKey, old: [_PersistedValue], new: [_PersistedValue], in layout: TableLayout) throws {
        try layout.replace(key, old: old, new: new, in: storage)
        for column in layout.mixedColumns where old[column] != new[column] {
            let before = Set(LinkTarget.all(in: old[column])), after = Set(LinkTarget.all(in: new[column]))
            for target in before.subtracting(after) {
                try backlink(from: key, column: column, in: layout, to: target.key, targetID: target.classID, adding: false)
            }
            for target in after.subtracting(before) {
                try backlink(from: key, column: column, in: layout, to: target.key, targetID: target.classID, adding: true)
            }
        }
        for column in layout.linkColumns where old[column] != new[column] {
            if case .link(let target) = old[column] {
                try backlink(from: key, column: column, in: layout, to: ObjectKey(target), adding: false)
                if let targetLayout = embeddedLayout(of: column, in: layout) {
                    try delete(ObjectKey(target), in: targetLayout)
                }
            }
            if case .link(let target) = new[column] {
                try backlink(from: key, column: column, in: layout, to: ObjectKey(target), adding: true)
            }
        }
    }

    /// Sets one column of the row of `key`, read as `row`: in place when the value has a fixed
    /// width and no index, else by rewriting the row.
    func update(_ key: ObjectKey, column: Int, to value: _PersistedValue, row: UnsafeRawBufferPointer, in layout: TableLayout) throws {
        let holdsLinks = layout.kinds[column] == .link || layout.kinds[column] == .mixed
        if !holdsLinks, try layout.patchFixedWidth(key, column: column, value: value, row: row, in: storage) { return }
        guard let old = try values(of: key, in: layout) else { throw StorageError.damaged("object \(key.rawValue) of '\(layout.className)' has no row") }
        var new = old
        new[column] = value
        try replace(key, old: old, new: new, in: layout)
        // Setting a property to the value it holds is a change, as in RealmSwift.
        if old[column] == value { storage.changes?.modified(key, propertyID: layout.propertyIDs[column], classID: layout.classID) }
    }

    /// Deletes a row, its index entries, its collections and backlinks, its embedded objects,
    /// and every link to it; returns whether it existed.
    @discardableResult
    func delete(_ key: ObjectKey, in layout: TableLayout) throws -> Bool {
        guard let row = try layout.row(key, in: transaction) else { return false }
        var embedded: [(ObjectKey, TableLayout)] = []
        let reader = RowReader(row, key: key)
        if storage.deletedPrimaryKeys != nil, let column = layout.primaryKeyColumn {
            storage.deletedPrimaryKeys![layout.classID, default: [:]][key.rawValue] = try reader.checkedValue(column, kind: layout.kinds[column])
        }
        let mixed = try layout.mixedColumns.map { column throws(StorageError) in (column, try reader.checkedValue(column, kind: .mixed)) }
        let links = try layout.linkColumns.map { column throws(StorageError) in (column, try reader.checkedValue(column, kind: .link)) }
        for (column, value) in mixed {
            try elementBacklinks(of: value, from: key, position: nil, column: column, in: layout, adding: false)
        }
        for (column, value) in links {
            guard case .link(let target) = value else { continue }
            try backlink(from: key, column: column, in: layout, to: ObjectKey(target), adding: false)
            if let targetLayout = embeddedLayout(of: column, in: layout) { embedded.append((ObjectKey(target), targetLayout)) }
        }
        try removeCollections(of: key, in: layout)
        try layout.delete(key, in: storage)
        // Embedded objects die with their owner.
        for (target, targetLayout) in embedded { try delete(target, in: targetLayout) }
        if Self.isLinkTarget(layout.className, in: catalog) {
            try nullifyLinks(to: key, of: layout)
        }
        return true
    }

    /// Whether `layout`'s table can be emptied at once (``removeAll(in:)``): no row holds a link
    /// that a backlink entry or an embedded object depends on, and nothing links to the class.
    func canEmptyAtOnce(_ layout: TableLayout) -> Bool {
        // A synced file's journal needs each deleted object's primary key.
        if storage.deletedPrimaryKeys != nil { return false }
        let holdsLinks = !layout.linkColumns.isEmpty || !layout.mixedColumns.isEmpty
            || layout.lists.contains { [.link, .mixed].contains(layout.kinds[$0.column]) }
        return !holdsLinks && !Self.isLinkTarget(layout.className, in: catalog)
    }

    /// Empties the table, its indexes and its collections at once; only for a table that
    /// ``canEmptyAtOnce(_:)``.
    func removeAll(in layout: TableLayout) throws {
        try layout.removeAll(in: transaction)
        storage.changes?.cleared(classID: layout.classID)
    }

    /// Empties every table and the backlink index.
    func removeEverything() throws {
        for layout in catalog.layouts.values {
            try captureDeletions(of: layout)
            try layout.removeAll(in: transaction)
            storage.changes?.cleared(classID: layout.classID)
        }
        if let links = try catalogs.links(in: transaction, changes: storage.catalogChanges, create: false) {
            try transaction.drop(links)
        }
    }

    /// Keeps the primary key of every object of `layout`'s table before it is emptied at once,
    /// when the write captures deletions.
    private func captureDeletions(of layout: TableLayout) throws {
        guard storage.deletedPrimaryKeys != nil, let column = layout.primaryKeyColumn else { return }
        var captured = storage.deletedPrimaryKeys![layout.classID] ?? [:]
        let cursor = try transaction.openCursor(layout.rows)
        var entry = try cursor.first()
        while let (keyBytes, row) = entry {
            let key = try ObjectKey(checking: keyBytes, in: layout.className)
            captured[key.rawValue] = try RowReader(row, key: key).checkedValue(column, kind: layout.kinds[column])
            entry = try cursor.next()
        }
        storage.deletedPrimaryKeys![layout.classID] = captured
    }

    /// Empties every list, set and map of the object `key`; `kept` names, by column, embedded
    /// objects of a list that stay stored (the update of their owner reuses them).
    func removeCollections(of key: ObjectKey, in layout: TableLayout, keepingEmbedded kept: [Int: Set<ObjectKey>] = [:]) throws {
        for collection in layout.lists {
            switch layout.storedClass.properties[collection.column].collection {
            case .map?: try removeMap(of: key, column: collection.column, in: layout)
            case .set?: try removeSet(of: key, column: collection.column, in: layout)
            default: try removeList(of: key, column: collection.column, in: layout, keeping: kept[collection.column] ?? [])
            }
        }
    }

    /// The layout of the embedded class `column` links to, or `nil` for a top-level class.
    func embeddedLayout(of column: Int, in layout: TableLayout) -> TableLayout? {
        guard let name = layout.storedClass.properties[column].objectClassName,
              let target = catalog.layouts[name], target.isEmbedded else { return nil }
        return target
    }

    /// Whether any class of `catalog` links to `className`, or may through an `AnyRealmValue`.
    static func isLinkTarget(_ className: String, in catalog: Catalog) -> Bool {
        catalog.schema.classes.contains { storedClass in
            storedClass.properties.contains { $0.objectClassName == className || $0.kind == .mixed }
        }
    }
}
