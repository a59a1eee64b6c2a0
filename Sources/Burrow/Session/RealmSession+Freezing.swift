import LMDB

extension RealmSession {
    /// The frozen realm at the version this realm reads (inside a write: the last committed
    /// version, which the write started from). One frozen realm serves every value frozen at a
    /// version, in this process; it is released with the last of them.
    /// It is of this realm's own class.
    func frozen() -> Self {
        verifyThread()
        if isFrozen { return self }
        do {
            if writeState != nil { return unsafeDowncast(try frozenAtLatestCommit(), to: Self.self) }
            let id = transaction.id  // resumes reading after invalidate()
            let frozen = try coordinator.frozenRealm(at: id) {
                type(of: self).init(frozenFrom: self, snapshot: try takeSnapshotForFreezing())
            }
            return unsafeDowncast(frozen, to: Self.self)
        } catch {
            burrowPreconditionFailure(snapshotFailure(error, doing: .freeze))
        }
    }

    /// A snapshot at the version this realm reads, for a frozen realm to keep. A new read
    /// transaction reads the latest version: when that is still this realm's, it is the
    /// snapshot; otherwise the two exchange snapshots, and this live realm moves on to the
    /// latest version, as a refresh would.
    private func takeSnapshotForFreezing() throws -> Transaction {
        let snapshot = try coordinator.environment.beginReadTransaction()
        guard snapshot.id != readTransaction.id else { return snapshot }
        readTransaction.exchangeSnapshot(with: snapshot)
        try adoptNewSnapshot()
        return snapshot
    }

    /// Inside a write: the frozen realm at the version the write began from.
    private func frozenAtLatestCommit() throws -> RealmSession {
        let snapshot = try coordinator.environment.beginReadTransaction()
        if try coordinator.synchronizeCatalog(seenBy: snapshot) { try snapshot.renew() }
        return coordinator.frozenRealm(at: snapshot.id) { type(of: self).init(frozenFrom: self, snapshot: snapshot) }
    }
}
