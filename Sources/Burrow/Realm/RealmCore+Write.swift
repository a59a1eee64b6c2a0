import LMDB

extension RealmCore {
    /// The open write transaction; traps with a precise message when there is none.
    func verifyWrite(doing action: String) -> WriteState {
        verifyThread()
        guard let writeState else {
            preconditionFailure("Cannot \(action) a Realm outside of a write transaction - call beginWrite() or write {} first.")
        }
        return writeState
    }

    /// Runs a storage step of `write`. A failure (disk full, map full, I/O) is kept and thrown by
    /// `commitWrite`; the steps after it are skipped, since LMDB has poisoned the transaction.
    /// Returns whether the step ran and succeeded.
    @discardableResult
    func perform(in write: WriteState, _ step: () throws -> Void) -> Bool {
        guard write.failure == nil else { return false }
        do {
            try step()
            return true
        } catch let error as Realm.Error {
            write.failure = error
        } catch let error as LMDBError {
            write.failure = Realm.Error(error, path: coordinator.path, doing: "write to")
        } catch {
            write.failure = Realm.Error(.fail, "Cannot write to '\(coordinator.path)': \(error)")
        }
        return false
    }

    /// Stores an unmanaged object and makes it managed.
    func insert(_ object: ObjectBase, update: UpdatePolicy, in write: WriteState) {
        let info = self.info(type(of: object))
        perform(in: write) {
            let bound = try coordinator.boundForWriting(info, in: write)
            let layout = bound.layout
            var values = [_PersistedValue](repeating: .null, count: layout.kinds.count)
            for index in info.fields.indices {
                values[bound.fieldColumns[index]] = info.unmanagedValue(index, in: object)
            }
            let key: ObjectKey
            if let column = layout.primaryKeyColumn {
                key = try insertOrUpdate(values, primaryKey: values[column], in: layout, update: update, write: write)
            } else {
                precondition(update == .error, "'\(layout.className)' does not have a primary key and can not be updated")
                key = try coordinator.nextObjectKey(for: layout, in: write)
                try layout.insert(values, key: key, appending: true, in: write)
            }
            object.becomeManaged(by: self, bound: bound, key: key)
        }
        advanceGeneration()
    }

    /// Stores a row for a class with a primary key: a new row, or (with `.all` or `.modified`)
    /// over the row that has the key. Returns the object key.
    private func insertOrUpdate(_ values: [_PersistedValue], primaryKey: _PersistedValue, in layout: TableLayout,
                                update: UpdatePolicy, write: WriteState) throws -> ObjectKey {
        if layout.usesPrimaryKeyAsObjectKey {
            // The common case of a new, larger key is a single append; only a key that is
            // already taken costs a second look.
            let key = ObjectKey(primaryKey: integer(primaryKey))
            do {
                try layout.insert(values, key: key, appending: true, in: write)
                return key
            } catch LMDBError.keyExists {
                try overwrite(key, with: values, primaryKey: primaryKey, in: layout, update: update, write: write)
                return key
            }
        }
        if let existing = try layout.find(primaryKey: primaryKey, in: write.transaction)?.key {
            try overwrite(existing, with: values, primaryKey: primaryKey, in: layout, update: update, write: write)
            return existing
        }
        let key = try coordinator.nextObjectKey(for: layout, in: write)
        try layout.insert(values, key: key, appending: true, in: write)
        return key
    }

    private func overwrite(_ key: ObjectKey, with values: [_PersistedValue], primaryKey: _PersistedValue, in layout: TableLayout,
                           update: UpdatePolicy, write: WriteState) throws {
        precondition(update != .error,
                     "Attempting to create an object of type '\(layout.className)' with an existing primary key value '\(primaryKey.anyValue.map { "\($0)" } ?? "nil")'.")
        let old = try currentValues(of: key, in: layout, transaction: write.transaction)
        try layout.replace(key, old: old, new: values, in: write)
    }

    private func integer(_ value: _PersistedValue) -> Int64 {
        guard case .int(let integer) = value else { preconditionFailure("Integer primary key expected, got \(value.displayText).") }
        return integer
    }

    /// Every column of the row of `key`.
    func currentValues(of key: ObjectKey, in layout: TableLayout, transaction: Transaction) throws -> [_PersistedValue] {
        guard let row = try layout.row(key, in: transaction) else {
            preconditionFailure("Object has been deleted or invalidated.")
        }
        let reader = RowReader(row)
        return layout.kinds.enumerated().map { reader.value($0, kind: $1) }
    }

    /// Writes one column of a managed object.
    func update(_ object: ObjectBase, management: ObjectBase.Management, column: Int, to value: _PersistedValue) {
        verifyThread()
        guard let write = writeState else {
            preconditionFailure("Attempting to modify object outside of a write transaction - call beginWrite on a Realm instance first.")
        }
        let layout = management.bound.layout
        let row = object.currentRow(management)
        if column == layout.primaryKeyColumn {
            precondition(RowReader(row).value(column, kind: layout.kinds[column]) == value,
                         "Primary key can't be changed after an object is inserted.")
            return
        }
        perform(in: write) {
            if try layout.patchFixedWidth(management.key, column: column, value: value, row: row, in: write) { return }
            let old = try currentValues(of: management.key, in: layout, transaction: write.transaction)
            var new = old
            new[column] = value
            try layout.replace(management.key, old: old, new: new, in: write)
        }
        advanceGeneration()
    }

    /// Deletes a managed object's row.
    func remove(_ management: ObjectBase.Management, in write: WriteState) {
        var existed = true
        perform(in: write) {
            existed = try management.bound.layout.delete(management.key, in: write)
        }
        precondition(existed, "Object has been deleted or invalidated.")
        advanceGeneration()
    }
}
