import Foundation
import LMDB

/// Everything one process shares about one realm file, whichever threads use it: the LMDB
/// environment, the catalog of classes and their databases, and the object keys handed out.
///
/// Coordinators come from ``CoordinatorRegistry``, which returns the live one for the same
/// file or in-memory identifier. The file is closed when the last ``Realm`` using it is released.
final class Coordinator: @unchecked Sendable {
    let environment: Environment
    let path: String
    let isInMemory: Bool
    let isReadOnly: Bool
    let configuredMapLimit: Int?
    /// The classes of the file, published and drafted.
    let catalogs: CatalogStore
    /// The frozen realms of this process, by the transaction id of the version each pins:
    /// freezing many values of one version pins it once.
    private let frozenRealms = Locked<[Int: WeakFrozenRealm]>([:])

    /// Frozen realms are read by any thread; the registry only hands them out.
    private struct WeakFrozenRealm: @unchecked Sendable {
        weak var realm: RealmCore?
    }

    /// This process's writers of the file, queued in order.
    let writerGate: WriterGate
    /// This coordinator's key in the registry.
    let registryKey: CoordinatorRegistry.Key

    /// Counters of object keys handed out by this process, so that a cancelled write never
    /// lets a key be used again for another object while stale accessors might still hold it.
    private let keyHighWater = Locked<[UInt32: UInt64]>([:])
    /// Cache of field-to-column maps, by class id and model type.
    let columnMaps = Locked<[ColumnMapKey: [Int]]>([:])

    /// Classes read by name (``DynamicObject``s), by stored name.
    let dynamicInfos = Locked<[String: ClassInfo]>([:])

    /// Wakes observed realms on commits.
    let commitWatcher: CommitWatcher
    /// Whether any process observes the file, which decides whether writes log their changes.
    let observerPresence: ObserverPresence

    struct ColumnMapKey: Hashable {
        let classID: UInt32
        let type: ObjectIdentifier
    }

    init(catalogs: CatalogStore, isInMemory: Bool, isReadOnly: Bool, mapLimit: Int?, inMemoryIdentifier: String?) {
        self.catalogs = catalogs
        environment = catalogs.environment
        path = catalogs.environment.path
        registryKey = inMemoryIdentifier.map { .memory($0) } ?? .file(catalogs.environment.identity)
        self.isInMemory = isInMemory
        self.isReadOnly = isReadOnly
        configuredMapLimit = mapLimit
        writerGate = WriterGate(environment: catalogs.environment)
        commitWatcher = CommitWatcher(environment: catalogs.environment)
        observerPresence = ObserverPresence(dataPath: catalogs.environment.path)
    }

    deinit {
        let path = path, isInMemory = isInMemory
        CoordinatorRegistry.remove(registryKey) {
            if isInMemory {
                // The data of an in-memory realm dies with its last instance.
                unlink(path)
                unlink(path + "-lock")
            }
        }
    }

    /// The metadata records of the file.
    var metadata: MetadataStore { catalogs.metadata }

    // MARK: Catalog

    /// The published catalog: what every committed write made of the schema.
    var catalog: Catalog { catalogs.catalog }

    /// The published catalog's revision: resolved classes stay valid while it does not move.
    var revision: UInt64 { catalogs.revision }

    /// The catalog `write` sees: its draft once it changed the schema, else the published one.
    func catalog(seenBy write: WriteState?) -> Catalog { catalogs.catalog(seenBy: write?.catalogChanges) }

    /// The revision of ``catalog(seenBy:)``.
    func revision(seenBy write: WriteState?) -> UInt64 { catalogs.revision(seenBy: write?.catalogChanges) }

    /// Picks up classes another process added; see ``CatalogStore/synchronize(seenBy:)``.
    func synchronizeCatalog(seenBy txn: Transaction) throws -> Bool {
        try catalogs.synchronize(seenBy: txn)
    }

    /// The schema version stored in the file.
    func schemaVersion(in txn: Transaction) throws -> UInt64 {
        try metadata.schemaVersion(in: txn)
    }

    // MARK: Object keys

    /// A fresh object key for `layout`'s class, never handed out before.
    func nextObjectKey(for layout: TableLayout, in write: WriteState) throws -> ObjectKey {
        let id = layout.classID
        let next: UInt64
        if let pending = write.nextKeys[id] {
            next = pending
        } else {
            let stored = try metadata.nextObjectKey(classID: id, in: write.transaction)
            next = max(stored, keyHighWater.withLock { $0[id] ?? 1 })
        }
        write.nextKeys[id] = next + 1
        return ObjectKey(next)
    }

    // MARK: Frozen realms

    /// The live frozen realm pinning version `id`, or the one `make` returns, kept for the
    /// next caller. `make` runs under the registry's lock, so two threads freezing one version
    /// at once get one realm.
    func frozenRealm(at id: Int, orMake make: () throws -> RealmCore) rethrows -> RealmCore {
        try frozenRealms.withLock { realms in
            if let existing = realms[id]?.realm { return existing }
            // The registry holds it weakly; `made` keeps it alive until the caller takes it.
            nonisolated(unsafe) let made = try make()
            realms[id] = WeakFrozenRealm(realm: made)
            return made
        }
    }

    /// Whether a frozen realm pins version `id`.
    func hasFrozenRealm(at id: Int) -> Bool {
        frozenRealms.withLock { $0[id]?.realm != nil }
    }

    /// Drops the entry of a frozen realm that is going away.
    func forgetFrozen(_ realm: RealmCore) {
        let id = realm.readTransaction.id
        frozenRealms.withLock { realms in
            if realms[id] != nil, realms[id]?.realm == nil || realms[id]?.realm === realm { realms[id] = nil }
        }
    }

    /// How many versions frozen realms of this process pin.
    var frozenVersionCount: Int { frozenRealms.withLock { $0.values.filter { $0.realm != nil }.count } }

    // MARK: Ending writes

    /// Persists what the write changed in the metadata; the caller then commits.
    func prepareCommit(_ write: WriteState) throws {
        for (id, next) in write.nextKeys {
            try metadata.writeNextObjectKey(next, classID: id, in: write.transaction)
        }
        // A write that changed nothing commits no version, and stays so.
        guard write.transaction.mutationCount > 0 else { return }
        if let changes = write.tables.storage.changes {
            try metadata.appendChanges(changes, in: write.transaction)
        } else {
            try metadata.markUnlogged(write.transaction)
        }
        try trimChangeLogNowAndThen(in: write.transaction)
    }

    /// Every few commits, deletes the change log records every reader of the file has seen:
    /// those up to the oldest version a reader of any process holds.
    private func trimChangeLogNowAndThen(in txn: Transaction) throws {
        guard txn.id % Self.commitsPerTrim == 0 else { return }
        let oldest = environment.activeReaders().map(\.transactionID).min() ?? txn.id - 1
        try metadata.trimChangeLog(through: min(oldest, txn.id - 1), in: txn)
    }

    /// How often a commit trims the change log: reading the reader table costs a few
    /// microseconds, and the log keeps at most this many records beyond what readers hold.
    static let commitsPerTrim = 16

    /// Settles process state after `write` committed (`committed`) or aborted: the key
    /// counters, and the catalog's draft.
    func finish(_ write: WriteState, committed: Bool) {
        keyHighWater.withLock { highWater in
            for (id, next) in write.nextKeys { highWater[id] = max(highWater[id] ?? 1, next) }
        }
        catalogs.finish(write.catalogChanges, committed: committed)
        writerGate.leave(for: write.writer)
        if committed { commitWatcher.committed() }
    }

    /// Grows the map ahead of a write when the file nears it and nothing else reads.
    func growMapIfNeeded() {
        guard configuredMapLimit == nil else { return }
        let size = environment.mapSize
        if environment.usedBytes > size / 4 * 3 {
            try? environment.growMap(to: size * 2)
        }
    }
}
