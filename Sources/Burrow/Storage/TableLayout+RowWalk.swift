import LMDB

extension TableLayout {
    /// Calls `body` with each of `keys` and its row (`nil` for a key with no row), each row
    /// valid only during its call: for reads that take a value or two out of every row of a
    /// result, such as the sort keys of a million objects.
    ///
    /// On an encrypted file, the rows of keys that rise are read by one walk of a cursor that
    /// decrypts each into one buffer of its own, instead of each row being looked up and kept,
    /// decrypted, until the transaction ends (which costs a lookup in the transaction's table
    /// of opened values, an insert into it, and the memory of every row read).
    ///
    /// - Throws: ``StorageError`` for a row that does not open; `LMDBError` from reading.
    func forEachRow(of keys: [ObjectKey], in txn: Transaction,
                    _ body: (ObjectKey, UnsafeRawBufferPointer?) throws -> Void) throws {
        guard cipher != nil, keys.count > 1, isVisible(to: txn) else {
            for key in keys { try body(key, try row(key, in: txn)) }
            return
        }
        let cursor = try txn.openCursor(rows, valuesLastUntilMove: true)
        // The key the cursor stands on, when it stands on one of `keys`.
        var standing: ObjectKey?
        do {
            for key in keys {
                var found: UnsafeRawBufferPointer?
                // The next key in the table is often the one wanted: one step instead of a search.
                if let standing, standing < key, let (stored, value) = try cursor.next(),
                   stored.count == 8, ObjectKey(bytes: stored) == key {
                    found = value
                } else {
                    found = try key.withBytes { try cursor.seek(exactly: $0) }?.value
                }
                standing = found == nil ? nil : key
                try body(key, found)
            }
        } catch LMDBError.sealBroken {
            throw brokenSeal(at: cursor)
        }
    }
}
