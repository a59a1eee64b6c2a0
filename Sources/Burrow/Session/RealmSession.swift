import Foundation
import LMDB
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The engine's realm: one file seen from one thread at one version, with its snapshot, its
/// open write, its confinement and its uses. The realm the API works with (`RealmCore`) is this
/// with the model classes it has resolved against the file; every session is one.
///
/// `Realm` is a struct (as in RealmSwift) so that `Realm()` can hand back the thread's cached
/// instance; every copy shares this object.
class RealmSession {
    /// What the engine needs of the configuration the realm was opened with.
    let options: FileOptions
    let coordinator: Coordinator
    /// The pinned snapshot this realm reads outside writes.
    let readTransaction: Transaction
    // The mutable state below is read on every object access and changed only on the realm's
    // thread, never while another access to it is under way: it skips the runtime's
    // exclusivity check, which costs more than the read.
    /// The open write transaction, if any. Beginning or ending one starts a new generation.
    @exclusivity(unchecked) var writeState: WriteState? {
        willSet { startGeneration() }
    }
    /// Where the realm may be used.
    let confinement: Confinement
    /// The thread of a thread-confined realm, compared on every access.
    private let owningThread: pthread_t?
    /// The generation of the current snapshot: moved by refresh and by the start and end of a write.
    @exclusivity(unchecked) private var snapshotGeneration: UInt64 = 1

    /// The cache of the realm's thread, queue or actor, which keeps it while it is used, and its
    /// key there; a frozen realm is in no cache.
    let cacheEntries: RealmInstanceCache.Entries?
    let cacheIdentity: String
    /// A frozen realm's lock around its caches and those of everything read through it: any
    /// number of threads read it at once. `nil` for live realms, which one thread uses at a time.
    let frozenLock: NSRecursiveLock?
    /// The catalog a frozen realm reads through: the one published when it was frozen.
    private let frozenCatalog: (catalog: Catalog, revision: UInt64)?
    /// ``Realm/autorefresh``: whether the realm's observations move it to each new version.
    @exclusivity(unchecked) var autorefresh = true

    /// Whether the file has a newer version than the one the realm reads.
    var newerVersionWaits: Bool {
        !readTransaction.isReset && coordinator.environment.lastTransactionID > readTransaction.id
    }
    /// Asynchronous writes scheduled on the realm's queue or actor.
    let asyncWrites = AsyncWriteQueue()
    /// The realm's observations, once it has had one.
    @exclusivity(unchecked) var observers: RealmObservers?
    /// How many `Realm` values, managed objects and results use this realm (a collection uses it
    /// through its owner).
    private let uses = Atomic<Int>(0)

    init(options: FileOptions, coordinator: Coordinator, confinement: Confinement,
         cacheEntries: RealmInstanceCache.Entries, cacheIdentity: String) throws(Realm.Error) {
        self.options = options
        self.coordinator = coordinator
        self.cacheIdentity = cacheIdentity
        self.confinement = confinement
        self.cacheEntries = cacheEntries
        owningThread = confinement.owningThread
        frozenLock = nil
        frozenCatalog = nil
        do {
            readTransaction = try coordinator.environment.beginReadTransaction()
            if try coordinator.synchronizeCatalog(seenBy: readTransaction) { try readTransaction.renew() }
            newestSnapshotID = readTransaction.id
        } catch {
            throw Realm.Error(translating: error, path: coordinator.path, operation: .read)
        }
    }

    /// A frozen realm reading `snapshot` (which it takes over and shares across threads), with
    /// `live`'s configuration.
    required init(frozenFrom live: RealmSession, snapshot: Transaction) {
        options = live.options
        coordinator = live.coordinator
        cacheIdentity = live.cacheIdentity
        confinement = .frozen
        owningThread = nil
        cacheEntries = nil
        readTransaction = snapshot
        snapshot.shareAcrossThreads()
        frozenLock = NSRecursiveLock()
        frozenCatalog = (coordinator.catalog(seenBy: nil), coordinator.revision)
    }

    deinit {
        if frozenLock != nil { coordinator.forgetFrozen(self) }
    }

    /// Whether the realm is frozen: it never changes and any thread may read it.
    var isFrozen: Bool { frozenLock != nil }

    /// Runs `body` holding a frozen realm's lock; for a live realm, simply runs it. Every cache
    /// filled while reading (rows, keys of results, collections' positions) is filled inside.
    @inline(__always)
    func exclusively<Result>(_ body: () throws -> Result) rethrows -> Result {
        guard let frozenLock else { return try body() }
        frozenLock.lock()
        defer { frozenLock.unlock() }
        return try body()
    }

    // MARK: Uses

    /// Counts one more user of the realm: the thread's cache keeps it while there are any. Only
    /// ``RealmUse``, the cache's lookup (which hands its use to one) and managed objects count uses.
    @inline(__always)
    func addUse() {
        uses.add(1, ordering: .relaxed)
    }

    /// Counts one user fewer; the last lets the thread's cache release the realm.
    @inline(__always)
    func removeUse() {
        let remaining = uses.subtract(1, ordering: .acquiringAndReleasing).newValue
        assert(remaining >= 0, "A realm's uses went below zero.")
        if remaining == 0 { cacheEntries?.releaseIfUnused(self) }
    }

    var useCount: Int { uses.load(ordering: .acquiring) }

    // No deinit ends a write: an open write keeps its realm (WriteState holds a use), so the
    // realm lives until the write is committed or cancelled, on its own thread.

    // MARK: Thread confinement

    /// Traps unless called where the realm is confined: its thread, its queue or its actor.
    @inline(__always)
    func verifyThread() {
        if let owningThread, pthread_equal(owningThread, pthread_self()) != 0 { return }
        verifyConfinement()
    }

    /// The check for realms not confined to a thread, and the trap for the wrong thread.
    @inline(never)
    private func verifyConfinement() {
        switch confinement {
        case .thread:
            if confinement.isOnMainQueueOfMainThread { return }
        case .queue:
            if let cacheEntries, RealmInstanceCache.isRunningOnQueue(of: cacheEntries) { return }
        case .actor(let isolation):
            if isolation.isCurrent { return }
        case .frozen:
            return
        }
        burrowPreconditionFailure(TrapMessage.wrongThread)
    }

    /// Whether `layout`'s table holds `key` at the realm's current version.
    ///
    /// A failed read traps with its error: it is not an answer about the object.
    func contains(_ key: ObjectKey, in layout: TableLayout) -> Bool {
        do {
            return try layout.row(key, in: transaction) != nil
        } catch {
            burrowPreconditionFailure("Cannot read object of type '\(layout.className)' from '\(coordinator.path)': \(error)")
        }
    }

    /// The catalog this realm reads through: its write's draft once the write changed the
    /// schema, else the coordinator's published one.
    var catalog: Catalog { frozenCatalog?.catalog ?? coordinator.catalog(seenBy: writeState) }

    /// The revision of ``catalog``: what was resolved against it stays valid while it holds.
    var catalogRevision: UInt64 {
        // Asked at every object made: tested for `nil` first, so that neither the frozen
        // catalog nor the write state is copied (retained and released) when there is none.
        if writeState == nil && frozenCatalog == nil { return coordinator.catalogs.revision }
        return frozenCatalog?.revision ?? coordinator.revision(seenBy: writeState)
    }

    /// The transaction reads go through: the write transaction when one is open.
    @inline(__always)
    var transaction: Transaction {
        if let writeState { return writeState.transaction }
        if readTransaction.isReset { resumeAfterInvalidation() }
        // Tested first: frozen realms, which threads read at once, never store it.
        if !hasRead { hasRead = true }
        return readTransaction
    }

    /// Whether anything was read through the realm, or its version moved, since it was opened
    /// (``openingDidEnd()``): a realm that has read nothing yet may still take an older version
    /// (``moveForResolving(madeAt:pinned:)``), as RealmSwift's realm before its first read.
    @exclusivity(unchecked) private var hasRead = true

    /// Forgets the reads of the opening itself (its schema check), unless the opening wrote.
    func openingDidEnd() {
        if snapshotGeneration == 1 { hasRead = false }
    }

    // MARK: Versions

    /// Moves the realm to the latest committed version; returns whether anything changed.
    ///
    /// Results and managed objects read the new version from then on.
    @discardableResult
    func refresh() -> Bool {
        verifyThread()
        guard writeState == nil, !isFrozen else { return false }
        let before = readTransaction.id
        do {
            guard try moveToLatestInReach() else {
                // The realm keeps the version it reads, whole (an invalidated one stays so).
                if !readTransaction.isReset { deliverNotifications() }
                return false
            }
        } catch {
            burrowPreconditionFailure(snapshotFailure(error, doing: .refresh))
        }
        let moved = readTransaction.id != before
        if moved {
            startGeneration()
            Logger.log(.trace, "DB: \(getpid()) Refresh from version \(before) to \(readTransaction.id): \(coordinator.path)")
        }
        // Pending notifications are delivered whether or not the version moved: an observation
        // registered since the last delivery reports its initial state.
        deliverNotifications()
        return moved
    }

    /// Moves whenever what the realm reads may have changed: a new snapshot, or any change its
    /// write transaction made. It is derived from the transaction's own count of changes, so no
    /// write path can forget to move it; cached rows and results of an older generation are stale.
    @inline(__always)
    var generation: UInt64 { snapshotGeneration &+ (writeState?.transaction.mutationCount ?? 0) }

    /// Starts a generation past every one this realm has had.
    private func startGeneration() {
        snapshotGeneration = generation &+ 1
        hasRead = true
    }

    /// Objects that became managed in a generation before this one were read before
    /// ``invalidate()`` and stay invalidated.
    @exclusivity(unchecked) private var invalidationGeneration: UInt64 = 0

    /// Whether what was made in `generation` (an object, results, a collection) predates the
    /// last ``invalidate()``.
    @inline(__always)
    func invalidated(since generation: UInt64) -> Bool { generation < invalidationGeneration }

    /// Releases the snapshot until something reads again (outside a write).
    func invalidate() {
        verifyThread()
        guard writeState == nil, !isFrozen, !readTransaction.isReset else { return }
        readTransaction.reset()
        startGeneration()
        invalidationGeneration = generation
    }

    /// Brings the realm to the version `version` a ``ThreadSafeReference`` was made at, before
    /// the reference is resolved in it, as RealmSwift's resolve does: a realm behind it moves up
    /// to it, and a realm that has read nothing since it opened starts at it; a realm at or past
    /// it (or in a write, or frozen) stays where it is. `pinned`, a snapshot at `version` the
    /// reference kept, becomes the realm's; without one (the source read an older version than
    /// the latest, or kept none) a realm behind moves to the latest version instead. Ends
    /// `pinned` in every case.
    func moveForResolving(madeAt version: Int, pinned: Transaction?) {
        defer { pinned?.abort() }
        guard writeState == nil, !isFrozen else { return }
        let current = readTransaction.isReset ? nil : readTransaction.id
        let behind = (current ?? 0) < version
        let unread = !hasRead && observers == nil
        guard behind || (unread && current != version) else { return }
        guard let pinned, pinned.isActive, pinned.id == version else {
            if behind { refresh() }
            return
        }
        if current == nil { _ = transaction }  // an invalidated realm takes a snapshot to exchange
        readTransaction.exchangeSnapshot(with: pinned)
        newestSnapshotID = version
        startGeneration()
        if behind { deliverNotifications() }
    }

    /// Takes in a snapshot exchanged into the read transaction (see ``frozen()``): picks up the
    /// classes it may show, and starts a generation.
    func adoptNewSnapshot() throws {
        if try coordinator.synchronizeCatalog(seenBy: readTransaction) { try renewToLatest() }
        newestSnapshotID = max(newestSnapshotID, readTransaction.id)
        startGeneration()
    }

    /// Moves to the latest version unless it is out of this process's reach: another process
    /// grew the file past this process's map, and other snapshots of this process keep LMDB
    /// from mapping it larger (README, "Map size"). Then the realm keeps its snapshot and this
    /// returns `false`. Near the map's end, with other snapshots held, the new snapshot is taken
    /// beside the old one, so that a commit growing the file past the map meanwhile cannot
    /// leave the realm without either.
    private func moveToLatestInReach() throws -> Bool {
        let environment = coordinator.environment
        guard othersHoldSnapshots else {
            // Nothing else of the process reads: LMDB can map the file larger if it must.
            try moveToLatest()
            return true
        }
        let fill = environment.mapFill
        if fill > 1 { return false }
        guard fill > 0.75, !readTransaction.isReset else {
            try moveToLatest()
            return true
        }
        let snapshot: Transaction
        do {
            snapshot = try environment.beginReadTransaction()
        } catch LMDBError.mapResized {
            return false
        }
        defer { snapshot.abort() }
        guard snapshot.id >= readTransaction.id else { return false }
        readTransaction.exchangeSnapshot(with: snapshot)
        try adoptNewSnapshot()
        return true
    }

    /// Whether transactions of this process other than this realm's snapshot are open (frozen
    /// realms, realms of other threads and queues): LMDB cannot map the file larger meanwhile.
    private var othersHoldSnapshots: Bool {
        coordinator.environment.activeTransactionCount > (readTransaction.isReset ? 0 : 1)
    }

    /// Whether the latest version is out of this realm's reach for now: another process grew
    /// the file past this process's map, and others hold snapshots (``othersHoldSnapshots``).
    var latestVersionOutOfReach: Bool { othersHoldSnapshots && !coordinator.environment.mapHoldsLatestVersion }

    /// Renews the read transaction at the latest version, with the classes another process
    /// may have added to it (a new catalog needs a snapshot begun after its databases opened).
    private func moveToLatest() throws {
        try renewToLatest()
        if try coordinator.synchronizeCatalog(seenBy: readTransaction) { try renewToLatest() }
    }

    /// Takes the latest snapshot when a read follows ``invalidate()``.
    @inline(never)
    private func resumeAfterInvalidation() {
        do {
            try moveToLatest()
        } catch {
            burrowPreconditionFailure(snapshotFailure(error, doing: .readAfterInvalidation))
        }
        startGeneration()
    }

    /// The message of a trap for `error`, met taking a snapshot while doing `action` to the
    /// file. A snapshot out of reach (another process grew the file past this process's map,
    /// and other snapshots of it are held) is told as such.
    func snapshotFailure(_ error: Error, doing operation: FileOperation) -> String {
        if let error = error as? LMDBError, error == .mapResized {
            return Realm.Error(translating: error, path: coordinator.path, operation: operation).message
        }
        return "Cannot \(operation.action) '\(coordinator.path)': \(error)"
    }

    /// Releases the snapshot before a write, and takes the latest one after.
    func pauseReading() { readTransaction.reset() }

    /// `committed`: the id the write just committed as, which the new snapshot must reach.
    func resumeReading(after committed: Int = 0) {
        // A write that changed nothing commits no new version: the file's last id tells.
        if committed > newestSnapshotID {
            newestSnapshotID = min(committed, coordinator.environment.lastTransactionID)
        }
        do {
            try renewToLatest()
        } catch LMDBError.mapResized {
            // Another process grew the file past this process's map since the write began, and
            // other snapshots of the process keep it from growing: the realm reads nothing until
            // a refresh or read finds the latest version in reach (README, "Map size").
            readTransaction.reset()
        } catch {
            burrowPreconditionFailure(snapshotFailure(error, doing: .renewAfterWrite))
        }
        startGeneration()
    }

    /// The newest snapshot this realm has read (or committed): it never reads an older one.
    @exclusivity(unchecked) private var newestSnapshotID = 0

    /// Renews the read transaction at the latest version, and never at one older than the realm
    /// has seen. LMDB 0.9.24 can hand a renewing reader the snapshot before the latest when a
    /// commit races its reader-slot setup (about once in 40 million renewals under contention):
    /// the transaction id tells, and renewing again reads the latest.
    private func renewToLatest() throws(LMDBError) {
        try readTransaction.renew()
        // Bounded: a version the file no longer reaches (it was replaced) is not waited for.
        var attempts = 0
        while readTransaction.id < newestSnapshotID, attempts < 1_000 {
            attempts += 1
            if attempts > 3 { sched_yield() }
            try readTransaction.renew()
        }
        newestSnapshotID = readTransaction.id
    }

    /// Called once the open write ended, committed or not, for the layer above to drop what it
    /// kept for that write.
    func writeDidEnd() {}
}
