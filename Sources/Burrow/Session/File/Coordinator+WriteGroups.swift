import LMDB

/// Group commit (``WriteGroup``): where a group is opened, joined, and committed.
extension Coordinator {
    /// The group a write that gets the turn joins, while one is open.
    var openWriteGroup: WriteGroup? { writeGroup.withLock { $0 } }

    /// Opens a group: its outermost transaction begins on the commit thread, which also ends it.
    ///
    /// - Throws: `LMDBError` from beginning the transaction.
    func openNewWriteGroup() throws(LMDBError) -> WriteGroup {
        growMapIfNeeded()
        let environment = environment
        let begun = commitThread.sync { Result { () throws(LMDBError) in try environment.beginTransaction() } }
        let group = WriteGroup(transaction: try begun.get())
        writeGroup.withLock { $0 = group }
        return group
    }

    /// Passes the writer turn of `realm` on: inside the open group to the next asynchronous
    /// writer while the group takes more; otherwise the group commits on the commit thread,
    /// then the turn goes on and the group's members are told.
    func passWriterTurn(from realm: ObjectIdentifier) {
        guard let group = openWriteGroup else {
            writerGate.leave(for: realm)
            return
        }
        switch writerGate.passWithinGroup(from: realm, accepting: group.acceptsMore) {
        case .passed:
            return
        case .lent:
            // The turn goes back to an asynchronous writer of `realm` that runs after this
            // synchronous write: the group must be committed by then.
            _ = commitOpenWriteGroup()
            writerGate.leave(for: realm)
        case .ended:
            writeGroup.withLock { $0 = nil }
            commitThread.async { [self] in
                let outcome = group.commit(in: self)
                writerGate.leave(for: realm)
                group.notifyMembers(outcome)
            }
        }
    }

    /// Commits the open group now and waits, keeping the writer turn: for a write that must be
    /// durable when its commit returns. Returns how the group ended, or `nil` with none open.
    func commitOpenWriteGroup() -> Result<Int, Realm.Error>? {
        guard let group = writeGroup.withLock({ group in defer { group = nil }; return group }) else { return nil }
        let outcome = commitThread.sync { group.commit(in: self) }
        group.notifyMembers(outcome)
        return outcome
    }
}
