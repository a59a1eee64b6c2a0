import Foundation
import LMDB

extension RealmSession {
    /// Traps for a change to an object or collection outside a write, with RealmSwift's message
    /// (a frozen one's says to thaw it).
    func refuseModificationOutsideWrite() -> Never {
        if isFrozen { burrowPreconditionFailure("Attempting to modify a frozen object - call thaw on the Object instance first.") }
        burrowPreconditionFailure("Attempting to modify object outside of a write transaction - call beginWrite on a Realm instance first.")
    }

    /// The open write transaction; traps with a precise message when there is none.
    func verifyWrite(doing action: String) -> WriteState {
        verifyThread()
        burrowPrecondition(!isFrozen, TrapMessage.frozenWrite)
        guard let writeState else {
            burrowPreconditionFailure("Cannot \(action) a Realm outside of a write transaction - call beginWrite() or write {} first.")
        }
        return writeState
    }

    /// Runs a storage step of `write`. A failure (disk full, map full, I/O) is kept and thrown by
    /// `commitWrite`; the steps after it are skipped, since LMDB has poisoned the transaction.
    /// Returns whether the step ran and succeeded.
    @discardableResult
    func perform(in write: WriteState, _ step: () throws -> Void) -> Bool {
        guard write.failure == nil else { return false }
        do {
            try step()
            return true
        } catch {
            write.failure = Realm.Error(translating: error, path: coordinator.path, operation: .write,
                                        maximumFileSize: coordinator.configuredMapLimit)
        }
        return false
    }

    // MARK: The write's lifecycle
    //
    // Every write goes through here, whichever API began it: the writer turn is entered and
    // passed on, the read snapshot paused and resumed, the map grown, the layout checked, the
    // commit prepared and made, and observers told, in one place.

    /// The realm's place in the file's queue of writers.
    private var writer: ObjectIdentifier { ObjectIdentifier(self) }

    /// Waits for the file's writer turn (writers of this process in the order they asked, then
    /// other processes), then begins the write.
    ///
    /// - Throws: what ``beginWriteInTurn()`` throws; the turn is then passed on.
    func beginWrite() throws(Realm.Error) {
        coordinator.writerGate.enter(for: writer)
        try beginWriteInTurn()
    }

    /// Asks for the writer turn without waiting: `granted` runs once it is this realm's (on
    /// the thread that passes it on), and the realm then takes it with ``claimWriterTurn()``.
    func requestWriterTurn(whenGranted granted: @escaping @Sendable () -> Void) {
        coordinator.writerGate.enter(for: writer, whenGranted: granted)
    }

    /// A request for the writer turn of an asynchronous write made in a task, which the task's
    /// cancellation withdraws (``WriterTurnRequest/granted()``).
    func writerTurnRequest() -> WriterTurnRequest {
        WriterTurnRequest(gate: coordinator.writerGate, writer: writer)
    }

    /// Takes the writer turn granted to this realm, on the realm's own thread, queue or actor.
    func claimWriterTurn() {
        coordinator.writerGate.claim(for: writer)
    }

    /// Passes the writer turn on, at the end of a write or without beginning one (a cancelled
    /// asynchronous write); an open group of writes takes the next asynchronous writer in or
    /// commits first.
    func passWriterTurn() {
        coordinator.passWriterTurn(from: writer)
    }

    /// Begins the write once the realm holds the file's writer turn: the realm moves to the
    /// latest version, which the write builds on.
    ///
    /// The write joins the open group of writes when there is one (its turn was passed inside
    /// the group); else, with `opensGroup`, it opens a group that asynchronous writers waiting
    /// meanwhile join (``WriteGroup``).
    ///
    /// - Throws: ``Realm/Error/Code/schemaMismatch`` when another process migrated the file
    ///   since this process opened it, ``Realm/Error/Code/addressSpaceExhausted`` when another
    ///   process grew it past this process's map while other snapshots of this process keep it
    ///   from being remapped; the turn is then passed on.
    func beginWriteInTurn(opensGroup: Bool = false) throws(Realm.Error) {
        // When the latest version is out of reach, the realm keeps its snapshot and the write
        // does not begin.
        if latestVersionOutOfReach {
            passWriterTurn()
            throw Realm.Error(translating: LMDBError.mapResized, path: coordinator.path, operation: .write)
        }
        pauseReading()
        let transaction: Transaction
        let group: WriteGroup?
        do {
            if let open = coordinator.openWriteGroup {
                group = open
            } else if opensGroup {
                group = try coordinator.openNewWriteGroup()
            } else {
                group = nil
                coordinator.growMapIfNeeded()
            }
            transaction = try group?.transaction.beginNestedTransaction() ?? coordinator.environment.beginTransaction()
        } catch {
            resumeReading()
            passWriterTurn()
            burrowPreconditionFailure("Cannot begin a write transaction on '\(coordinator.path)': \(error)")
        }
        do {
            try coordinator.catalogs.verifyLayout(seenBy: transaction)
        } catch {
            transaction.abort()
            // The realm's snapshot stays released: its next read meets the migration and traps
            // with this message instead of reading the new layout through the old catalog.
            passWriterTurn()
            throw Realm.Error(.schemaMismatch, "\(error)", fileURL: URL(fileURLWithPath: coordinator.path))
        }
        writeState = WriteState(transaction: transaction, catalogs: coordinator.catalogs, realm: self, group: group)
        Logger.log(.trace, "DB: \(getpid()) Begin write on version \(transaction.id)\(group == nil ? "" : " in a group of writes"): \(coordinator.path)")
    }

    /// Commits the open write: its changes become durable and visible to others, then the
    /// realm's observations are told, except those of `silenced`. A write in a group of writes
    /// commits the group with it.
    ///
    /// - Throws: ``Realm/Error``: the first storage failure of the write, `limitExceeded` past
    ///   `maximumNumberOfActiveVersions` or `maximumFileSize`, `outOfDiskSpace`, `fileAccess`;
    ///   the write is then cancelled.
    func commitWrite(silencing silenced: [NotificationToken]) throws(Realm.Error) {
        let write = try commitTransaction()
        observers?.noteCommit()
        guard let group = write.group else {
            Logger.log(.debug, "DB: \(getpid()) Commit of version \(write.committedID): \(coordinator.path)")
            end(write, committed: true, as: write.committedID)
            deliverNotifications(silencing: silenced)
            return
        }
        // Durable only once the group commits: it commits now, with the writes before this one.
        group.add(write, of: writer, whenDurable: nil)
        let outcome = coordinator.commitOpenWriteGroup() ?? .success(write.committedID)
        resumeReading(after: (try? outcome.get()) ?? 0)
        passWriterTurn()
        writeDidEnd()
        _ = try outcome.get()
        deliverNotifications(silencing: silenced)
    }

    /// Whether the open write belongs to a group of writes: an asynchronous write's block that
    /// cancels its write and begins another (`beginWrite()`) leaves one that does not.
    var openWriteIsGrouped: Bool { writeState?.group != nil }

    /// Commits the open write, which belongs to a group, into the group's transaction, and
    /// passes the turn on; `durable` is called (on the group's commit thread) once the group
    /// committed or failed, after which the realm calls ``finishGroupedWrite(_:)``. Until then
    /// the realm reads the version before the group.
    ///
    /// - Throws: ``Realm/Error`` as ``commitWrite(silencing:)`` does, when the write could not
    ///   join the group's transaction; the write is then cancelled and `durable` never called.
    func commitWriteToGroup(whenDurable durable: @escaping WriteGroup.Durability) throws(Realm.Error) {
        let write = try commitTransaction()
        guard let group = write.group else {
            burrowPreconditionFailure("A write outside a group of writes was committed to one.")
        }
        group.add(write, of: writer, whenDurable: durable)
        // Reading stays paused, as after `invalidate()`: a read before the group commits takes
        // the latest version then, the one before the group.
        passWriterTurn()
        writeDidEnd()
    }

    /// Ends a write committed to a group once the group ended: the realm moves to the version
    /// the group committed, and its observations are told.
    ///
    /// - Throws: the group's commit failure (``Realm/Error``): nothing of the write was kept.
    func finishGroupedWrite(_ outcome: Result<Int, Realm.Error>) throws(Realm.Error) {
        let committedID = try outcome.get()
        Logger.log(.debug, "DB: \(getpid()) Commit of a group of writes as version \(committedID): \(coordinator.path)")
        resumeReading(after: committedID)
        observers?.noteCommit()
        deliverNotifications()
    }

    /// Commits the open write's transaction, which is the file's commit unless the write
    /// belongs to a group (it then joins the group's transaction). Returns the write, which
    /// the realm no longer holds.
    ///
    /// - Throws: ``Realm/Error`` as ``commitWrite(silencing:)`` does; the write is then ended.
    private func commitTransaction() throws(Realm.Error) -> WriteState {
        guard let write = writeState else {
            burrowPreconditionFailure(TrapMessage.noWriteToCommit)
        }
        writeState = nil
        if let failure = write.failure {
            end(write, committed: false)
            throw failure
        }
        // A file deleted from under the realm would take the write with it when it closes: the
        // write fails instead of appearing to succeed.
        if !coordinator.isInMemory, coordinator.environment.dataFileWasDeleted {
            end(write, committed: false)
            throw Realm.Error(.fileNotFound, "The file at '\(coordinator.path)' was deleted while the realm had it open: "
                              + "the write was not committed, as nothing would keep it.",
                              fileURL: URL(fileURLWithPath: coordinator.path))
        }
        write.committedID = write.transaction.id
        do {
            try coordinator.verifyVersionLimit(options.maximumNumberOfActiveVersions, adding: 1, doing: .commit)
            try coordinator.journal(write)
            try write.tables.prepareCommit(keys: coordinator.objectKeys)
            try write.transaction.commit()
        } catch {
            end(write, committed: false)
            throw Realm.Error(translating: error, path: coordinator.path, operation: .commit, maximumFileSize: coordinator.configuredMapLimit)
        }
        return write
    }

    /// Cancels the open write: every change in it is undone.
    func cancelWrite() {
        guard let write = writeState else {
            burrowPreconditionFailure("Can't cancel a non-existing write transaction")
        }
        writeState = nil
        end(write, committed: false)
    }

    /// Ends `write`, committed as `committedID` or aborted: the realm reads the latest version,
    /// and the file's state and writer turn move on.
    private func end(_ write: WriteState, committed: Bool, as committedID: Int = 0) {
        if !committed { write.transaction.abort() }
        // A committed write's snapshot is taken before the writer's turn is given back: no other
        // process can commit meanwhile, so the newest version is this one, which fits this
        // process's map.
        resumeReading(after: committedID)
        write.tables.finish(committed: committed, keys: coordinator.objectKeys)
        passWriterTurn()
        if committed {
            coordinator.commitWatcher.committed()
            coordinator.journaledWriteDidCommit(write)
        }
        writeDidEnd()
    }
}
