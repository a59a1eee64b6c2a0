import LMDB

/// Which transactions may use database handles this process opened. LMDB fixes a transaction's
/// handles when it begins, so a handle opened later (by a write, or by another read) cannot be
/// used there: such a transaction sees no database instead.
struct HandleVisibility: Sendable {
    /// The write that opened the handles; 0 when they were not opened by a write of this view.
    var createdInTransaction = 0
    /// The ``Environment/handleEpoch`` from which transactions can use them (0: from the start).
    var epoch: UInt64 = 0

    /// Whether `txn` can use the handles.
    @inline(__always)
    func allows(_ txn: Transaction) -> Bool {
        (createdInTransaction == 0 || txn.id >= createdInTransaction) && txn.handleEpoch >= epoch
    }
}
