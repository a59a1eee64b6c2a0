import Dispatch

extension Realm {
    /// Opens the realm for `configuration` isolated to the calling actor: it may be used by
    /// any code isolated to that actor, across suspension points, whatever thread the actor's
    /// executor runs it on.
    ///
    /// ```swift
    /// actor Importer {
    ///     func run(_ config: Realm.Configuration) async throws {
    ///         let realm = try await Realm.open(configuration: config)
    ///         try await realm.asyncWrite { realm.add(Dog()) }
    ///     }
    /// }
    /// ```
    /// Opening the file (and compacting it, or copying a seed file) happens on a thread of
    /// Burrow's, never on the caller's executor. The actor's cached instance is returned when it
    /// has one.
    /// A synced realm first downloads the server's changes as `downloadBeforeOpen` asks
    /// (``OpenBehavior``; by default it opens at once).
    /// - Throws: ``Realm/Error`` as ``init(configuration:queue:)`` does, or `CancellationError`
    ///   when the task is cancelled; ``SyncError`` when a download asked for cannot finish.
    public static func open(configuration: Configuration = .defaultConfiguration,
                            _isolation actor: isolated any Actor = #isolation,
                            downloadBeforeOpen: OpenBehavior = .never) async throws -> Realm {
        let isNew = isNewFile(configuration)
        let coordinator = try await openFileInBackground(configuration)
        try Task.checkCancellation()
        let realm = try Realm(configuration: configuration, confinement: .actor(ActorIsolation(actor)), coordinator: coordinator)
        try await realm.download(as: downloadBeforeOpen, fileWasNew: isNew)
        return realm
    }

    /// Opens the realm for `configuration` isolated to `actor` (see
    /// ``open(configuration:_isolation:downloadBeforeOpen:)``).
    ///
    /// ```swift
    /// let realm = try await Realm(configuration: config, actor: MainActor.shared)
    /// ```
    /// - Throws: ``Realm/Error``, or `CancellationError` when the task is cancelled;
    ///   ``SyncError`` when a download asked for cannot finish.
    public init<A: Actor>(configuration: Configuration = .defaultConfiguration, actor: isolated A,
                          downloadBeforeOpen: OpenBehavior = .never) async throws {
        let isNew = Realm.isNewFile(configuration)
        let coordinator = try await Realm.openFileInBackground(configuration)
        try Task.checkCancellation()
        try self.init(configuration: configuration, confinement: .actor(ActorIsolation(actor)), coordinator: coordinator)
        try await download(as: downloadBeforeOpen, fileWasNew: isNew)
    }

    /// Opens (or finds open) the file of `configuration` on a Dispatch thread.
    private static func openFileInBackground(_ configuration: Configuration) async throws -> Coordinator {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Result { try Realm.checkedCoordinator(for: configuration) })
            }
        }
    }

    /// Runs `block` in a write transaction without blocking the actor's thread while other
    /// writers of this process go first; returns what the block returns.
    ///
    /// ```swift
    /// let dog = try await realm.asyncWrite { realm.create(Dog.self, value: ["name": "Rex"]) }
    /// ```
    /// The task suspends until it is this realm's turn among the process's writers, then runs
    /// the block on the actor, and suspends again until its change is durable. Writers that
    /// wait for their turn at the same moment (from any tasks, actors or queues of the process)
    /// are committed together: each block runs in a transaction of its own nested in one that
    /// the group shares, and one durable commit ends the group (group commit). Until then the
    /// realm reads the version before the write; when this returns, the write is durable and
    /// the realm reads it. If the block throws, only its own changes are undone and the error
    /// is rethrown. Only a writer of another process can make the begin wait on a thread.
    /// Traps unless the realm is isolated to an actor.
    /// - Throws: what `block` throws, `CancellationError` when the task is cancelled before the
    ///   write began (a task cancelled while it waits for its turn leaves the queue at once),
    ///   or ``Realm/Error`` from the commit (the group's commit failing fails every write of
    ///   the group).
    @discardableResult
    public func asyncWrite<Result>(_isolation actor: isolated any Actor = #isolation,
                                   _ block: () throws -> Result) async throws -> Result {
        guard case .actor = core.confinement else {
            burrowPreconditionFailure("asyncWrite() can only be called on actor-isolated Realms")
        }
        core.verifyThread()
        burrowPrecondition(!configuration.readOnly, TrapMessage.readOnlyWrite)
        burrowPrecondition(core.writeState == nil, TrapMessage.alreadyInWrite)
        let core = self.core
        // Counted as pending until it returns: `isPerformingAsynchronousWriteOperations`.
        let pending = core.asyncWrites.schedule()
        defer { _ = core.asyncWrites.take(pending) }
        // Cancelling the task while it waits for the turn takes it out of the queue.
        guard await core.writerTurnRequest().granted() else { throw CancellationError() }
        core.claimWriterTurn()
        if Task.isCancelled {
            core.passWriterTurn()
            throw CancellationError()
        }
        burrowPrecondition(core.writeState == nil, TrapMessage.alreadyInWrite)
        try core.beginWriteInTurn(opensGroup: true)
        let result = try runInWrite(block)
        // The block may have ended the write itself, or ended it and begun a write of its own,
        // which commits as any synchronous write does.
        guard core.writeState != nil else { return result }
        guard core.openWriteIsGrouped else {
            try commitWrite()
            return result
        }
        let outcome = await withCheckedContinuation { (durable: CheckedContinuation<Swift.Result<Int, Realm.Error>, Never>) in
            do throws(Realm.Error) {
                try core.commitWriteToGroup { durable.resume(returning: $0) }
            } catch {
                durable.resume(returning: .failure(error))
            }
        }
        try core.finishGroupedWrite(outcome)
        return result
    }

    /// Moves an actor-isolated realm to the latest version; returns whether it changed.
    ///
    /// ```swift
    /// await realm.asyncRefresh()
    /// ```
    /// Moving to the latest version only renews LMDB's snapshot, which never waits, so the
    /// task does not suspend. Traps unless the realm is isolated to an actor.
    @discardableResult
    public func asyncRefresh(_isolation actor: isolated any Actor = #isolation) async -> Bool {
        guard case .actor = core.confinement else {
            burrowPreconditionFailure("asyncRefresh() can only be called on actor-isolated Realms")
        }
        return refresh()
    }
}
