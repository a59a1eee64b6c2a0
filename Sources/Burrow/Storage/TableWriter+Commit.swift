import LMDB

/// The end of a write: what it changed beyond its tables is stored before the commit, and the
/// process state it moved is settled after it.
extension TableWriter {
    /// How often a commit trims the change log: reading the reader table costs a few
    /// microseconds, and the log keeps at most this many records beyond what readers hold.
    static let commitsPerTrim = 16

    /// Stores what the write changed beyond its tables: the object key counters it moved, its
    /// change-log record (or the mark that it was not logged) and, every few commits, a trim of
    /// the change log; the caller then commits.
    ///
    /// - Throws: `LMDBError` from writing the metadata.
    func prepareCommit(keys: ObjectKeyAllocator) throws {
        try keys.persist(storage)
        // A write that changed nothing commits no version, and stays so.
        guard transaction.mutationCount > 0 else { return }
        let metadata = catalogs.metadata
        if storage.changes != nil {
            try metadata.appendChanges(storage.reducedChanges, in: transaction)
        } else {
            try metadata.markUnlogged(transaction)
        }
        try trimChangeLogNowAndThen()
    }

    /// Every few commits, deletes the change log records every reader of the file has seen:
    /// those up to the oldest version a reader of any process holds.
    private func trimChangeLogNowAndThen() throws {
        let txn = transaction
        guard txn.id % Self.commitsPerTrim == 0 else { return }
        let oldest = catalogs.environment.activeReaders().map(\.transactionID).min() ?? txn.id - 1
        try catalogs.metadata.trimChangeLog(through: min(oldest, txn.id - 1), in: txn)
    }

    /// Settles process state once the write committed (`committed`) or aborted: the object
    /// key marks, and the catalog's draft, published or dropped.
    func finish(committed: Bool, keys: ObjectKeyAllocator) {
        keys.settle(storage)
        catalogs.finish(storage.catalogChanges, committed: committed)
    }
}
