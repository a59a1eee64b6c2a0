import LMDB

extension TableLayout {
    /// Checks, after ``find(primaryKey:in:)`` found no object for `value`, the entries beside
    /// the place its entry would hold; throws when one of them is damaged.
    ///
    /// LMDB checks no keys. A damaged byte in the key of an object's entry (in the primary-key
    /// index, or in the table itself when integer primary keys are the object keys) leaves the
    /// entry where it was, among keys it no longer sorts with, and a lookup of the object then
    /// finds nothing, as if it did not exist. Whichever way the damaged key compares, LMDB's
    /// search ends beside that entry: at the first entry past the place of the lost key, or
    /// the one before it. Each of those two is checked against what it names: a row's seal or
    /// checksum covers its key, and an index entry must lead to a row whose primary key is the
    /// entry's. Damage elsewhere in LMDB's pages (a branch page, a page header) is not seen
    /// here; `verifyFile` reports it.
    ///
    /// - Throws: ``StorageError/damaged(_:)`` naming the class and the entry.
    func verifyAbsence(ofPrimaryKey value: _PersistedValue, in txn: Transaction) throws {
        guard isVisible(to: txn) else { return }
        if usesPrimaryKeyAsObjectKey {
            guard case .int(let integer) = value else { return }
            try verifyRowsBeside(ObjectKey(primaryKey: integer), in: txn)
        } else if let primaryKeys, let column = primaryKeyColumn {
            try verifyIndexEntriesBeside(IndexKeyEncoder.key(for: value, hashingWith: cipher), in: primaryKeys, column: column, txn: txn)
        }
    }

    /// Opens the rows beside the place of `key` in the table: opening checks each row's seal
    /// or checksum, which covers its key (a file without row checksums has nothing to check).
    private func verifyRowsBeside(_ key: ObjectKey, in txn: Transaction) throws {
        let cursor = try txn.openCursor(rows)
        var bytes: [UInt8] = []
        key.append(to: &bytes)
        do {
            if try cursor.seek(atLeast: bytes) != nil {
                _ = try cursor.previous()
            } else {
                _ = try cursor.last()
            }
        } catch LMDBError.sealBroken {
            throw brokenSeal(at: cursor)
        }
    }

    /// Checks the primary-key index entries beside the place of `indexKey`: each must lead
    /// to a row whose primary key has that entry's key.
    private func verifyIndexEntriesBeside(_ indexKey: [UInt8], in primaryKeys: Database, column: Int, txn: Transaction) throws {
        let cursor = try txn.openCursor(primaryKeys)
        var beside: [(key: [UInt8], object: ObjectKey)] = []
        let found = try cursor.seek(atLeast: indexKey)
        if let found { beside.append((Array(found.key), try ObjectKey(checking: found.value, in: className))) }
        let before = found == nil ? try cursor.last() : try cursor.previous()
        if let before { beside.append((Array(before.key), try ObjectKey(checking: before.value, in: className))) }
        var expected: [UInt8] = []
        for (key, object) in beside {
            guard let row = try row(object, in: txn) else {
                throw StorageError.damaged("the primary-key index of '\(className)' names object \(object.rawValue), which has no row")
            }
            primaryKeyEntry(try RowReader(row, key: object).checkedValue(column, kind: kinds[column]), key: object, into: &expected)
            guard expected == key else {
                throw StorageError.damaged("the primary-key index of '\(className)' holds a damaged entry for object \(object.rawValue): "
                                           + "its key is not the one of the object's primary key")
            }
        }
    }
}
