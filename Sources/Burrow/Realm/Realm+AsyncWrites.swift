extension Realm {
    /// Runs `block` in a write transaction later, on the realm's queue or actor, and commits it;
    /// `onComplete` gets the commit's error or `nil`.
    ///
    /// ```swift
    /// queue.async {
    ///     let realm = try! Realm(configuration: config, queue: queue)
    ///     realm.writeAsync({ realm.add(Dog()) }, onComplete: { error in print(error ?? "saved") })
    /// }
    /// ```
    /// The queue is never blocked waiting for other writers: the block is scheduled when it is
    /// this realm's turn. Writes of any realms of the process that wait for their turn at the
    /// same moment are committed together (see ``asyncWrite(_isolation:_:)``): `onComplete` is
    /// called once the change is durable, and until then the realm reads the version before it.
    /// Traps for a realm confined to a thread (on Linux a thread has no run loop to deliver to:
    /// open the realm with `queue:` or on an actor).
    @discardableResult
    public func writeAsync(_ block: @escaping () -> Void, onComplete: ((Swift.Error?) -> Void)? = nil) -> AsyncTransactionId {
        scheduleAsyncWrite(opensGroup: true) {
            block()
            if self.isInWriteTransaction { self.commitToGroup(onComplete) }
        }
    }

    /// Commits the open write into its group and calls `onComplete` on the realm's queue or
    /// actor once the group's commit made it durable (or failed).
    private func commitToGroup(_ onComplete: ((Swift.Error?) -> Void)?) {
        let schedule = asyncScheduler
        guard core.openWriteIsGrouped else {
            // The block ended its write and began one of its own: it commits as any
            // synchronous write does, durable before the callback.
            var failure: Swift.Error?
            do { try commitWrite() } catch { failure = error }
            let work = ConfinedWork { onComplete?(failure) }
            schedule { work.run() }
            return
        }
        let id = core.asyncWrites.schedule()
        nonisolated(unsafe) let finish = { (outcome: Swift.Result<Int, Realm.Error>) in
            var failure: Swift.Error?
            do {
                try self.core.finishGroupedWrite(outcome)
            } catch {
                failure = error
            }
            if self.core.asyncWrites.take(id) { onComplete?(failure) }
        }
        do {
            try core.commitWriteToGroup { outcome in schedule { finish(outcome) } }
        } catch {
            let work = ConfinedWork { if self.core.asyncWrites.take(id) { onComplete?(error) } }
            schedule { work.run() }
        }
    }

    /// Schedules `asyncWriteBlock` to run inside a write transaction on the realm's queue or
    /// actor, once it is this realm's turn among the process's writers.
    ///
    /// ```swift
    /// realm.beginAsyncWrite {
    ///     realm.add(Dog())
    ///     realm.commitAsyncWrite()
    /// }
    /// ```
    /// The block should end the transaction (``commitAsyncWrite(allowGrouping:_:)``,
    /// ``commitWrite()``, ``cancelWrite()``); returning without ending it cancels it, as in
    /// RealmSwift. Returns an identifier for ``cancelAsyncWrite(_:)``. Traps for a
    /// thread-confined or read-only realm.
    @discardableResult
    public func beginAsyncWrite(_ asyncWriteBlock: @escaping () -> Void) -> AsyncTransactionId {
        scheduleAsyncWrite(opensGroup: false, asyncWriteBlock)
    }

    /// Schedules `block` to run in a write transaction once it is this realm's turn; with
    /// `opensGroup`, the write opens a group of writes when none is open.
    private func scheduleAsyncWrite(opensGroup: Bool, _ block: @escaping () -> Void) -> AsyncTransactionId {
        core.verifyThread()
        let schedule = asyncScheduler
        burrowPrecondition(!configuration.readOnly, TrapMessage.readOnlyWrite)
        let id = core.asyncWrites.schedule()
        let work = ConfinedWork { self.runAsyncWrite(id, opensGroup: opensGroup, block) }
        core.requestWriterTurn { schedule { work.run() } }
        return id
    }

    /// What runs the realm's asynchronous work: its queue, its actor, or the main queue for the
    /// main thread's realm; traps for a realm confined to another thread.
    private var asyncScheduler: @Sendable (@escaping @Sendable () -> Void) -> Void {
        guard let schedule = core.confinement.asyncWriteScheduler else {
            burrowPreconditionFailure("Asynchronous writes need a Realm confined to a queue, an actor or the main thread: open it with Realm(configuration:queue:) or Realm.open().")
        }
        return schedule
    }

    /// Runs an asynchronous write whose turn came, on the realm's queue or actor.
    private func runAsyncWrite(_ id: AsyncTransactionId, opensGroup: Bool, _ block: @escaping () -> Void) {
        if core.writeState != nil {
            // A synchronous write of this realm is open: run after it.
            let work = ConfinedWork { self.runAsyncWrite(id, opensGroup: opensGroup, block) }
            core.confinement.asyncWriteScheduler? { work.run() }
            return
        }
        core.claimWriterTurn()
        guard core.asyncWrites.take(id) else {
            core.passWriterTurn()  // cancelled
            return
        }
        do {
            try core.beginWriteInTurn(opensGroup: opensGroup)
        } catch {
            burrowPreconditionFailure(Realm.Error.message(of: error))
        }
        core.asyncWrites.isRunningBlock = true
        block()
        core.asyncWrites.isRunningBlock = false
        // A block that returns without ending its write cancels it, as in RealmSwift.
        if core.writeState != nil { cancelWrite() }
    }

    /// Commits the write transaction and calls `onComplete` with its error (or `nil`) later, on
    /// the realm's queue or actor.
    ///
    /// ```swift
    /// realm.commitAsyncWrite { error in if let error { print(error) } }
    /// ```
    /// The commit itself happens now, in the call, and is durable when it returns (a write that
    /// joined a group of writes commits the group). `allowGrouping` is accepted for RealmSwift's
    /// signature: ``writeAsync(_:onComplete:)`` and ``asyncWrite(_isolation:_:)`` are the writes
    /// that are grouped. Returns an identifier with which ``cancelAsyncWrite(_:)`` stops the callback.
    @discardableResult
    public func commitAsyncWrite(allowGrouping: Bool = false, _ onComplete: ((Swift.Error?) -> Void)? = nil) -> AsyncTransactionId {
        core.verifyThread()
        let schedule = asyncScheduler
        burrowPrecondition(core.writeState != nil, TrapMessage.noWriteToCommit)
        let id = core.asyncWrites.schedule()
        var failure: Swift.Error?
        do {
            try commitWrite()
        } catch {
            failure = error
        }
        let outcome = failure
        let work = ConfinedWork {
            if self.core.asyncWrites.take(id) { onComplete?(outcome) }
        }
        schedule { work.run() }
        return id
    }

    /// Cancels an asynchronous write that has not begun (it never runs) or the callback of an
    /// asynchronous commit that has not been called (the commit stands).
    ///
    /// ```swift
    /// let id = realm.beginAsyncWrite { … }
    /// try realm.cancelAsyncWrite(id)
    /// ```
    /// An identifier that already ran, or is unknown, is ignored.
    /// - Throws: nothing today; kept throwing for RealmSwift's signature.
    public func cancelAsyncWrite(_ asyncTransactionId: AsyncTransactionId) throws {
        core.verifyThread()
        core.asyncWrites.cancel(asyncTransactionId)
    }

    /// Whether asynchronous writes or commit callbacks of this realm are pending or running.
    public var isPerformingAsynchronousWriteOperations: Bool {
        core.verifyThread()
        return core.asyncWrites.isBusy
    }
}
