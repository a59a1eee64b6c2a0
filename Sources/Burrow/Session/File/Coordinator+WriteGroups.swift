import LMDB

/// Group commit (``WriteGroup``): where a group is opened, joined, and committed.
extension Coordinator {
    /// The group a write that gets the turn joins, while one is open.
    var openWriteGroup: WriteGroup? { writeGroup.withLock { $0 } }

    /// Opens a group: its outermost transaction begins on the commit thread, which also ends it.
    ///
    /// - Throws: `LMDBError` from beginning the transaction.
    func openNewWriteGroup() throws(LMDBError) -> WriteGroup {
        let group = try commitThread.sync { Result { () throws(LMDBError) in try self.beginWriteGroup() } }.get()
        writeGroup.withLock { $0 = group }
        return group
    }

    /// Begins a group's transaction; on the commit thread.
    private func beginWriteGroup() throws(LMDBError) -> WriteGroup {
        growMapIfNeeded()
        return WriteGroup(transaction: try environment.beginTransaction())
    }

    /// Passes the writer turn of `realm` on: inside the open group to the next asynchronous
    /// writer while the group takes more; otherwise the group commits on the commit thread,
    /// then the turn goes on and the group's members are told.
    func passWriterTurn(from realm: ObjectIdentifier) {
        guard let group = openWriteGroup else {
            writerGate.leave(for: realm)
            return
        }
        switch writerGate.passWithinGroup(from: realm, accepting: group.accepts) {
        case .passed:
            return
        case .lent:
            // The turn goes back to an asynchronous writer of `realm` that runs after this
            // synchronous write: the group must be committed by then.
            _ = commitOpenWriteGroup()
            writerGate.leave(for: realm)
        case .ended:
            writeGroup.withLock { $0 = nil }
            // Held weakly: the members' realms keep the file open until they are told, and the
            // job must not keep it open after them.
            commitThread.async { [weak self] in
                guard let outcome = self?.commitGroup(group, passingTurnFrom: realm) else { return }
                group.notifyMembers(outcome)
            }
        }
    }

    /// Commits `group` and passes the turn on, on the commit thread.
    private func commitGroup(_ group: WriteGroup, passingTurnFrom realm: ObjectIdentifier) -> Result<Int, Realm.Error> {
        let outcome = group.commit(in: self)
        passTurnAfterGroup(from: realm)
        return outcome
    }

    /// Passes the turn on once a group committed, on the commit thread: to an asynchronous
    /// writer in a new group begun right here when one waits first (the process keeps its turn,
    /// and the writer starts without waiting for the group to be opened), else as any write's.
    private func passTurnAfterGroup(from realm: ObjectIdentifier) {
        if writerGate.firstWaiterIsAsynchronous, let next = try? beginWriteGroup() {
            writeGroup.withLock { $0 = next }
            if case .passed = writerGate.passWithinGroup(from: realm, accepting: { _ in true }) { return }
            // Only the holder takes waiters off the queue: the first is still the one seen.
            burrowPreconditionFailure("The asynchronous writer waiting first was not there to take the turn.")
        }
        writerGate.leave(for: realm)
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
