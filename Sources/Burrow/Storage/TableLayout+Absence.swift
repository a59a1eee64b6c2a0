import LMDB

/// Checks that a lookup which found nothing met no damaged entry on its way.
///
/// LMDB checks no keys. A damaged byte in the key of an object's entry (in the table itself,
/// where integer primary keys are the object keys, in the primary-key index, or in a secondary
/// index) leaves the entry where it was, among keys it no longer sorts with, and a lookup of
/// that object then finds nothing, as if it did not exist. Whichever way the damaged key
/// compares, LMDB's search ends beside that entry: at the first entry past the place of the
/// lost key, or at the one before it. So when a lookup finds nothing, those two are checked
/// against what they name: a row's seal or checksum covers its key, and an index entry must be
/// the entry of the row it leads to (as must an index entry whose row a query's test rejects,
/// ``verifyRejectedCandidate(_:row:column:points:)``). Damage elsewhere in LMDB's pages (a branch page, a page
/// header), and a damaged entry among others that still match, are not seen here;
/// `verifyFile` reports them.
extension TableLayout {
    /// Checks the place of `value`'s primary key after ``find(primaryKey:in:)`` found nothing.
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
    func verifyRowsBeside(_ key: ObjectKey, in txn: Transaction) throws {
        guard isVisible(to: txn) else { return }
        let cursor = try txn.openCursor(rows)
        var bytes: [UInt8] = []
        key.append(to: &bytes)
        do {
            let found = try cursor.seek(atLeast: bytes).map { Array($0.key) }
            let before = try (found == nil ? cursor.last() : cursor.previous()).map { Array($0.key) }
            try checkBracket(found, before, around: bytes, holding: "the objects", forMissing: "object \(key.rawValue)")
        } catch LMDBError.sealBroken {
            throw brokenSeal(at: cursor)
        } catch LMDBError.damagedPage {
            throw damagedPage(holding: "the objects")
        }
    }

    /// Checks the entries beside the place of `indexKey` in `database`, the primary-key index
    /// or the secondary index of `column`: each must be the entry of the row it leads to.
    func verifyIndexEntriesBeside(_ indexKey: [UInt8], in database: Database, column: Int, txn: Transaction) throws {
        guard isVisible(to: txn) else { return }
        let isPrimaryKeyIndex = database.handle == primaryKeys?.handle
        let cursor = try txn.openCursor(database)
        var beside: [(key: [UInt8], value: [UInt8])] = []
        do {
            let found = try cursor.seek(atLeast: indexKey).map { (key: Array($0.key), value: Array($0.value)) }
            let before = try (found == nil ? cursor.last() : cursor.previous()).map { (key: Array($0.key), value: Array($0.value)) }
            try checkBracket(found?.key, before?.key, around: indexKey, holding: indexName(column), forMissing: "a value looked up")
            beside = [found, before].compactMap { $0 }
        } catch LMDBError.damagedPage {
            throw damagedPage(holding: indexName(column))
        }
        var expected: [UInt8] = []
        for entry in beside {
            let object = try isPrimaryKeyIndex
                ? entry.value.withUnsafeBytes { try ObjectKey(checking: $0, in: className) }
                : entry.key.withUnsafeBytes { try ObjectKey(suffixOf: $0, in: className) }
            guard let row = try row(object, in: txn) else {
                throw StorageError.damaged("\(indexName(column)) of '\(className)' names object \(object.rawValue), which has no row")
            }
            let value = try RowReader(row, key: object).checkedValue(column, kind: kinds[column])
            if isPrimaryKeyIndex {
                primaryKeyEntry(value, key: object, into: &expected)
            } else {
                expected = IndexKeyEncoder.key(for: value, hashingWith: cipher)
                object.append(to: &expected)
            }
            guard expected == entry.key else { throw damagedEntry(in: column, of: object) }
        }
    }

    /// Checks a candidate that an index of `column` led to under one of `points` and whose row
    /// the query's test rejected: the row's own value must have one of those keys (it shares a
    /// truncated or hashed key with the value asked for), or the index entry is damaged.
    func verifyRejectedCandidate(_ key: ObjectKey, row: UnsafeRawBufferPointer, column: Int, points: [[UInt8]]) throws {
        let value = try RowReader(row, key: key).checkedValue(column, kind: kinds[column])
        guard points.contains(IndexKeyEncoder.key(for: value, hashingWith: cipher)) else { throw damagedEntry(in: column, of: key) }
    }

    /// The damage of an entry of the index of `column` that leads to `object`, which has no row.
    func danglingEntry(in column: Int, to object: ObjectKey) -> StorageError {
        .damaged("\(indexName(column)) of '\(className)' holds a damaged entry for object \(object.rawValue): no such object has a row")
    }

    /// The damage of an entry of the index of `column` that leads to `object` under a key not
    /// its value's.
    private func damagedEntry(in column: Int, of object: ObjectKey) -> StorageError {
        .damaged("\(indexName(column)) of '\(className)' holds a damaged entry for object \(object.rawValue): "
                 + "its key is not the one of the object's value")
    }

    /// Checks that a search for the missing key `sought` ended between two keys that enclose
    /// it, `found` (the first at least it) after it and `before` before it, as in a sound
    /// B-tree. A damaged branch page leads a search to the wrong leaf, past which LMDB's search
    /// ends at the next page's first key, whichever it is. The error's names are built only when
    /// it is thrown: every lookup that finds nothing runs this.
    private func checkBracket(_ found: [UInt8]?, _ before: [UInt8]?, around sought: [UInt8],
                              holding structure: @autoclosure () -> String, forMissing missing: @autoclosure () -> String) throws {
        // LMDB's order: bytes, then the shorter first, as arrays compare.
        let foundIsPast = found.map { sought.lexicographicallyPrecedes($0) } ?? true
        let beforeIsBelow = before.map { $0.lexicographicallyPrecedes(sought) } ?? true
        guard foundIsPast, beforeIsBelow else {
            throw StorageError.damaged("a search for \(missing()) in \(structure()) of '\(className)' ends between keys that do "
                                       + "not enclose it (a damaged branch page led it astray)")
        }
    }

    /// The damage of a page holding `structure` (the objects, or an index) of this class that a
    /// cursor found not to have the shape of a sound page (``LMDB/LMDBError/damagedPage``).
    func damagedPage(holding structure: String) -> StorageError {
        .damaged("a page holding \(structure) of '\(className)' does not have the shape of a sound page "
                 + "(its header, the offsets of its entries, the order of its keys, or the branch pages that lead to it)")
    }

    func indexName(_ column: Int) -> String {
        column == primaryKeyColumn ? "the primary-key index" : "the index of '\(storedClass.properties[column].name)'"
    }
}
