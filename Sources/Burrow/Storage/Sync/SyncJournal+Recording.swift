import LMDB

extension SyncJournal {
    /// Records what the write `tables` made in the pending records, in its own transaction,
    /// just before it commits: each object created, deleted or changed (by primary key), with
    /// one clock reading for the write. A change inside an embedded object is a change of its
    /// owner's property that holds it. Nothing is recorded for a write that changed no object.
    ///
    /// - Throws: ``StorageError`` for a row or record that does not read; LMDB's errors.
    func record(_ tables: TableWriter) throws {
        guard tables.storage.changes != nil else { return }
        let reduced = tables.storage.reducedChanges
        let deletedKeys = tables.storage.deletedPrimaryKeys ?? [:]
        guard !reduced.isEmpty || !deletedKeys.isEmpty else { return }
        let txn = tables.transaction
        _ = try ensureClientID(in: txn)
        // Two readings: deletions at the first, creations and changes at the second, so that
        // an object deleted and created again in one write exists afterwards.
        let deletedAt = try tick(in: txn, count: 2)
        let changedAt = HybridTimestamp(rawValue: deletedAt.rawValue + 1)
        let layouts = Dictionary(tables.catalog.layouts.values.map { ($0.classID, $0) }, uniquingKeysWith: { first, _ in first })
        var edits = PendingEdits(journal: self, txn: txn)

        for (classID, runs) in reduced.sorted(by: { $0.key < $1.key }) {
            guard let layout = layouts[classID] else { continue }
            let objectChanges = ObjectChanges(runs)
            if layout.storedClass.isEmbedded == true {
                for (key, _) in objectChanges.modifications {
                    try markOwner(of: ObjectKey(key), in: layout, layouts: layouts, tables: tables, at: changedAt, edits: &edits)
                }
                continue
            }
            guard let column = layout.primaryKeyColumn else { continue }
            let deletedHere = deletedKeys[classID] ?? [:]
            let deletions = runs.cleared ? Array(deletedHere.keys) : objectChanges.deletions
            for key in deletions {
                guard let primaryKey = deletedHere[key] else { continue }
                try edits.update(classID: classID, primaryKey: primaryKey, at: deletedAt) { $0.deleted = deletedAt }
            }
            for key in objectChanges.insertions {
                let primaryKey = try Self.primaryKey(of: ObjectKey(key), column: column, in: layout, txn: txn)
                try edits.update(classID: classID, primaryKey: primaryKey, at: changedAt) { object in
                    // A creation carries every property, so earlier changes are part of it.
                    object.created = changedAt
                    object.properties = [:]
                }
            }
            for (key, properties) in objectChanges.modifications {
                let primaryKey = try Self.primaryKey(of: ObjectKey(key), column: column, in: layout, txn: txn)
                try edits.update(classID: classID, primaryKey: primaryKey, at: changedAt) { object in
                    for property in properties { object.properties[property] = changedAt }
                }
            }
        }
        try edits.store()
    }

    /// Records every object of `layouts`' tables as created, at one clock reading, so that all
    /// of them upload: for a file that did not sync until now (a copy written for sync by
    /// ``Realm/writeCopy(configuration:)``). Embedded objects travel with their owners.
    ///
    /// - Throws: ``StorageError`` for a row that does not read; LMDB's errors.
    func recordEveryObject(of layouts: [TableLayout], in txn: Transaction) throws {
        _ = try ensureClientID(in: txn)
        let createdAt = try tick(in: txn)
        var edits = PendingEdits(journal: self, txn: txn)
        for layout in layouts.sorted(by: { $0.classID < $1.classID }) where layout.storedClass.isEmbedded != true {
            guard let column = layout.primaryKeyColumn else { continue }
            let cursor = try txn.openCursor(layout.rows)
            var entry = try cursor.first()
            while let (keyBytes, row) = entry {
                let key = try ObjectKey(checking: keyBytes, in: layout.className)
                let primaryKey = try RowReader(row, key: key).checkedValue(column, kind: layout.kinds[column])
                try edits.update(classID: layout.classID, primaryKey: primaryKey, at: createdAt) { object in
                    object.created = createdAt
                    object.properties = [:]
                }
                entry = try cursor.next()
            }
        }
        try edits.store()
    }

    /// Marks the property of the top-level object that holds the embedded object `key` as
    /// changed, following owners up through embedded objects held by embedded objects.
    private func markOwner(of key: ObjectKey, in layout: TableLayout, layouts: [UInt32: TableLayout],
                           tables: TableWriter, at time: HybridTimestamp, edits: inout PendingEdits) throws {
        var current = (key: key, layout: layout)
        // An embedded object has one owner; the chain ends at a top-level object.
        for _ in 0..<64 {
            guard let owner = try tables.incomingLinks(to: current.key, of: current.layout).first,
                  let ownerLayout = layouts[owner.classID] else { return }
            if ownerLayout.storedClass.isEmbedded == true {
                current = (owner.key, ownerLayout)
                continue
            }
            guard let column = ownerLayout.primaryKeyColumn else { return }
            let primaryKey = try Self.primaryKey(of: owner.key, column: column, in: ownerLayout, txn: tables.transaction)
            try edits.update(classID: owner.classID, primaryKey: primaryKey, at: time) { object in
                object.properties[owner.propertyID] = time
            }
            return
        }
    }

    /// The primary key of the object `key`, read from its row.
    static func primaryKey(of key: ObjectKey, column: Int, in layout: TableLayout, txn: Transaction) throws -> _PersistedValue {
        guard let row = try layout.row(key, in: txn) else {
            throw StorageError.damaged("object \(key.rawValue) of '\(layout.className)' changed in this write but has no row")
        }
        return try RowReader(row, key: key).checkedValue(column, kind: layout.kinds[column])
    }
}

/// The pending records one write changes, read once and stored once each.
private struct PendingEdits {
    let journal: SyncJournal
    let txn: Transaction
    private var edited: [[UInt8]: (classID: UInt32, object: PendingObject)] = [:]

    init(journal: SyncJournal, txn: Transaction) {
        self.journal = journal
        self.txn = txn
    }

    mutating func update(classID: UInt32, primaryKey: _PersistedValue, at time: HybridTimestamp,
                         _ change: (inout PendingObject) -> Void) throws {
        let key = SyncJournal.pendingKey(classID: classID, primaryKey: primaryKey, cipher: nil)
        var object = try edited[key]?.object
            ?? journal.pendingObject(classID: classID, primaryKey: primaryKey, in: txn)
            ?? PendingObject(primaryKey: primaryKey, since: time)
        change(&object)
        edited[key] = (classID, object)
    }

    func store() throws {
        for (classID, object) in edited.values {
            try journal.setPendingObject(object, classID: classID, primaryKey: object.primaryKey, in: txn)
        }
    }
}
