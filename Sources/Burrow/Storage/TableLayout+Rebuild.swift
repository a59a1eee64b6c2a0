import LMDB

/// Rebuilding a table's indexes after its rows changed wholesale (a migration): while the rows
/// change, the table is written through a layout without indexes, and afterwards every index
/// entry is written anew from the rows.
extension TableLayout {
    /// This table without its secondary indexes and primary-key database: writes through it
    /// change rows, collections and links only.
    /// With `asTopLevel`, an embedded class is written as a top-level one: replacing a link to
    /// one of its objects does not delete the object.
    func withoutIndexes(asTopLevel: Bool = false) -> TableLayout {
        var storedClass = storedClass
        if asTopLevel { storedClass.isEmbedded = nil }
        return TableLayout(storedClass: storedClass, rows: rows, secondaryIndexes: [], primaryKeys: nil, lists: lists,
                           visibility: visibility, cipher: cipher)
    }

    /// Every database of the table, by name.
    var namedDatabases: [String: Database] {
        let id = classID
        var named = [FileHeader.rowsName(classID: id): rows]
        if let primaryKeys { named[FileHeader.primaryKeyName(classID: id)] = primaryKeys }
        for index in secondaryIndexes {
            named[FileHeader.indexName(classID: id, propertyID: storedClass.properties[index.column].id)] = index.database
        }
        for list in lists {
            named[FileHeader.collectionName(classID: id, propertyID: storedClass.properties[list.column].id)] = list.database
        }
        return named
    }

    /// Empties the secondary indexes and the primary-key database, then fills them from the
    /// rows.
    ///
    /// - Throws: ``DuplicatePrimaryKey`` for the first primary-key value two objects share;
    ///   ``StorageError`` for a damaged row; LMDB's errors.
    func rebuildIndexes(in write: StorageWrite) throws {
        let txn = write.transaction
        for index in secondaryIndexes { try txn.drop(index.database) }
        if let primaryKeys { try txn.drop(primaryKeys) }
        guard !secondaryIndexes.isEmpty || primaryKeys != nil else { return }
        let primaryKeyColumn = primaryKeys == nil ? nil : self.primaryKeyColumn
        let columns = secondaryIndexes.map(\.column) + (primaryKeyColumn.map { [$0] } ?? [])
        var values = [_PersistedValue](repeating: .null, count: kinds.count)
        // The entries go to other databases than the rows, so the cursor over the rows stays valid.
        let cursor = try txn.openCursor(rows)
        var entry = try cursor.first()
        while let (keyBytes, row) = entry {
            let key = try ObjectKey(checking: keyBytes, in: className)
            let reader = RowReader(row, key: key)
            for column in columns { values[column] = try reader.checkedValue(column, kind: kinds[column]) }
            if let primaryKeys, let column = primaryKeyColumn {
                if try find(primaryKey: values[column], in: txn) != nil {
                    throw DuplicatePrimaryKey(className: className, property: storedClass.properties[column].name, value: values[column])
                }
                primaryKeyEntry(values[column], key: key, into: &write.keyScratch)
                try putKey(write.keyScratch, value: key, in: primaryKeys, txn: txn)
            }
            for index in secondaryIndexes {
                try putIndexEntry(values[index.column], key: key, in: index.database, write: write)
            }
            entry = try cursor.next()
        }
    }
}

/// Two objects of a class share a primary-key value.
struct DuplicatePrimaryKey: Error {
    let className: String
    let property: String
    let value: _PersistedValue
}
