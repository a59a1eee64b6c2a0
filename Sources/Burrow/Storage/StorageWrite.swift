import LMDB

/// What storage needs of one write transaction: the transaction, the buffers rows and keys are
/// encoded into, and the catalog changes it made. Knows nothing of realms or objects.
final class StorageWrite {
    let transaction: Transaction
    /// Reused buffers, so that writes allocate nothing per object. Only `TableLayout`'s leaf
    /// encoders use them, each for one encode-and-store that calls nothing else that could: the
    /// runtime's exclusivity check on every use is skipped.
    @exclusivity(unchecked) var rowScratch: [UInt8] = []
    @exclusivity(unchecked) var keyScratch: [UInt8] = []
    /// What this transaction changed in the catalog, seen only by this write until it commits.
    let catalogChanges = CatalogChanges()
    /// The next object key per class id this write hands out (``ObjectKeyAllocator``);
    /// stored at commit.
    @exclusivity(unchecked) var nextKeys: [UInt32: UInt64] = [:]
    /// What it did to objects, for the change log; `nil` when nothing records it (a migration).
    let changes: ChangeSet?
    /// The primary key of every object it deleted, by class id and object key, for a synced
    /// file's journal (which names objects by primary key, gone from the row by commit time);
    /// `nil` when nothing needs them.
    @exclusivity(unchecked) var deletedPrimaryKeys: [UInt32: [UInt64: _PersistedValue]]?
    /// The net change of each class, reduced once when the write commits (for the change log
    /// and a synced file's journal alike); read only after the write's last change.
    lazy var reducedChanges: [UInt32: ChangeRuns] = changes?.reduced() ?? [:]

    init(transaction: Transaction, recordingChanges: Bool = false, capturingDeletions: Bool = false) {
        self.transaction = transaction
        changes = recordingChanges || capturingDeletions ? ChangeSet() : nil
        deletedPrimaryKeys = capturingDeletions ? [:] : nil
        rowScratch.reserveCapacity(256)
        keyScratch.reserveCapacity(64)
    }
}
