import LMDB

/// Whether the file is synced, and so whether its writes record their changes in its journal
/// (``SyncJournal``).
extension Coordinator {
    /// Whether writes record what they change in the file's sync journal.
    var isJournaling: Bool { journaling.load(ordering: .acquiring) }

    /// Makes every later write of this process record its changes: the file is synced from now.
    func startJournaling() {
        journaling.store(true, ordering: .releasing)
    }

    /// Starts journaling when the file already has a journal: a file that synced before does
    /// even when this process opens it without a sync configuration.
    ///
    /// - Throws: `LMDBError` from reading.
    func journalIfSynced() throws {
        let txn = try environment.beginReadTransaction()
        // Committed rather than aborted, so that a database handle it opened stays open.
        defer { try? txn.commit() }
        if try SyncJournal.open(in: txn, create: false) != nil { startJournaling() }
    }

    /// Calls `listener` after every local commit the journal recorded in this process (not
    /// those applying the server's changes), until ``removeJournalListener(_:)`` with `key`.
    func addJournalListener(_ key: ObjectIdentifier, _ listener: @escaping @Sendable () -> Void) {
        journalListeners.withLock { $0[key] = listener }
    }

    func removeJournalListener(_ key: ObjectIdentifier) {
        journalListeners.withLock { _ = $0.removeValue(forKey: key) }
    }

    /// Tells the listeners that `write`, just committed, recorded changes for upload.
    func journaledWriteDidCommit(_ write: WriteState) {
        guard isJournaling, !write.appliesServerChanges else { return }
        for listener in journalListeners.withLock({ Array($0.values) }) { listener() }
    }

    /// Records `write`'s changes in the journal when the file is synced and the write is not
    /// one applying the server's changes; called just before it commits.
    ///
    /// - Throws: ``StorageError`` and `LMDBError` from reading rows and writing records.
    func journal(_ write: WriteState) throws {
        guard isJournaling, !write.appliesServerChanges,
              let journal = try SyncJournal.open(in: write.transaction, create: true) else { return }
        try journal.record(write.tables)
    }
}
