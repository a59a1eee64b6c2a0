import LMDB

/// The change log: one record per commit that changed objects (``ChangeLogRecord``), in the
/// metadata database under `changes/` and the commit's transaction id (8 bytes, big-endian),
/// written by the commit itself. Records no reader can need any more are deleted as writes go
/// on (``trimChangeLog(through:in:)``); `changesTrimmedThrough` keeps the newest id deleted, so
/// that a reader that slept past it knows its records are gone rather than never written. A
/// commit nobody observed writes no record, and `changesUnloggedThrough` keeps its id.
extension MetadataStore {
    /// What every record's key starts with (the commit's id follows).
    static let changeRecordPrefix = Array("changes/".utf8)
    private static let trimmedKey = Array("changesTrimmedThrough".utf8)
    private static let unloggedKey = Array("changesUnloggedThrough".utf8)

    private static func recordKey(_ id: Int) -> [UInt8] {
        changeRecordPrefix + FileHeader.encodeUInt64(UInt64(id))
    }

    /// Stores the record of the commit `txn` makes (`reduced`, its net change by class),
    /// unless it changed no object.
    ///
    /// The writes of a group share one commit (their transactions are nested in the group's):
    /// a write after the first merges its change into the record the earlier ones left.
    func appendChanges(_ reduced: [UInt32: ChangeRuns], in txn: Transaction) throws {
        guard !reduced.isEmpty else { return }
        let key = Self.recordKey(txn.id)
        var record = reduced
        if txn.isNested, let earlier = try txn.value(for: key, in: sealedDatabase) {
            var merged = try earlier.withUnsafeBytes { bytes in try ChangeLogRecord.decode(bytes) }
            for (classID, runs) in reduced {
                let change = ObjectChanges(runs)
                merged[classID] = merged[classID].map { $0.followed(by: change) } ?? change
            }
            record = merged.mapValues(\.runs)
        }
        try txn.put(key, ChangeLogRecord.encode(record), in: sealedDatabase)
    }

    /// The net change of each class from the version `after` to the version `txn` reads, or
    /// `nil` when the log cannot tell: records of that span were deleted, or one is damaged.
    func changes(after: Int, in txn: Transaction) throws -> [UInt32: ObjectChanges]? {
        guard txn.id > after else { return [:] }
        let trimmed = try FileHeader.number(Self.trimmedKey, in: database, txn: txn, absent: 0)
        let unlogged = try FileHeader.number(Self.unloggedKey, in: database, txn: txn, absent: 0)
        guard trimmed <= UInt64(after), unlogged <= UInt64(after) else { return nil }
        var merged: [UInt32: ObjectChanges] = [:]
        let cursor = try txn.openCursor(database)
        do {
            var entry = try cursor.seek(atLeast: Self.recordKey(after + 1))
            while let (key, value) = entry, key.count == Self.changeRecordPrefix.count + 8, key.starts(with: Self.changeRecordPrefix) {
                for (classID, change) in try ChangeLogRecord.decode(try openedRecord(value, key: key, in: txn)) {
                    merged[classID] = merged[classID].map { $0.followed(by: change) } ?? change
                }
                entry = try cursor.next()
            }
        } catch is StorageError {
            return nil
        } catch LMDBError.sealBroken {
            // A record of an encrypted file that does not open: as unreadable as a damaged one.
            return nil
        }
        return merged
    }

    /// Records that the commit `txn` makes changed objects without a record: nobody observed
    /// the file when it began.
    func markUnlogged(_ txn: Transaction) throws {
        try txn.put(Self.unloggedKey, FileHeader.encodeUInt64(UInt64(txn.id)), in: database)
    }

    /// Deletes the records of commits up to `id`, which every reader has seen.
    func trimChangeLog(through id: Int, in txn: Transaction) throws {
        var doomed: [[UInt8]] = []
        let cursor = try txn.openCursor(database)
        var entry = try cursor.seek(atLeast: Self.changeRecordPrefix)
        while let (key, _) = entry, key.count == Self.changeRecordPrefix.count + 8, key.starts(with: Self.changeRecordPrefix),
              Self.id(of: key) <= UInt64(id) {
            doomed.append(Array(key))
            entry = try cursor.next()
        }
        for key in doomed { _ = try txn.delete(key, in: database) }
        let deleted = !doomed.isEmpty
        if deleted { try txn.put(Self.trimmedKey, FileHeader.encodeUInt64(UInt64(id)), in: database) }
    }

    /// The number of records the log holds.
    func changeLogCount(in txn: Transaction) throws -> Int {
        let cursor = try txn.openCursor(database)
        var count = 0
        var entry = try cursor.seek(atLeast: Self.changeRecordPrefix)
        while let (key, _) = entry, key.starts(with: Self.changeRecordPrefix) {
            count += 1
            entry = try cursor.next()
        }
        return count
    }

    private static func id(of key: UnsafeRawBufferPointer) -> UInt64 {
        key[changeRecordPrefix.count...].reduce(0) { $0 << 8 | UInt64($1) }
    }
}
