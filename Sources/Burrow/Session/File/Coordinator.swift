import Foundation
import LMDB
import Synchronization

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
        weak var realm: RealmSession?
    }

    /// This process's writers of the file, queued in order.
    let writerGate: WriterGate
    /// This coordinator's key in the registry.
    let registryKey: CoordinatorRegistry.Key

    /// Object keys handed out to this process's writes.
    let objectKeys: ObjectKeyAllocator

    /// Wakes observed realms on commits.
    let commitWatcher: CommitWatcher
    /// Whether any process observes the file, which decides whether writes log their changes.
    let observerPresence: ObserverPresence
    /// Whether the file is synced (``isJournaling``).
    let journaling = Atomic<Bool>(false)
    /// Who is told of each journaled commit of this process: the file's sync thread.
    let journalListeners = Locked<[ObjectIdentifier: @Sendable () -> Void]>([:])

    /// How many unresolved thread-safe references of this process keep a snapshot of the file.
    let referenceSnapshots = Atomic<Int>(0)

    /// The group of writes open now (``WriteGroup``), handed from one writer to the next with
    /// the writer turn.
    let writeGroup = Locked<WriteGroup?>(nil)
    private let commitThreadStore = Locked<CommitThread?>(nil)

    /// The thread that begins and commits groups of writes, started by the first group.
    var commitThread: CommitThread {
        commitThreadStore.withLock { thread in
            if let thread { return thread }
            let started = CommitThread(name: "Burrow commits")
            thread = started
            return started
        }
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
        objectKeys = ObjectKeyAllocator(metadata: catalogs.metadata)
        commitWatcher = CommitWatcher(environment: catalogs.environment)
        observerPresence = ObserverPresence(dataPath: catalogs.environment.path)
    }

    deinit {
        Logger.log(.detail, "DB: \(getpid()) Close file: \(path)")
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

    // MARK: Frozen realms

    /// The live frozen realm pinning version `id`, or the one `make` returns, kept for the
    /// next caller. `make` runs under the registry's lock, so two threads freezing one version
    /// at once get one realm.
    func frozenRealm(at id: Int, orMake make: () throws -> RealmSession) rethrows -> RealmSession {
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
    func forgetFrozen(_ realm: RealmSession) {
        let id = realm.readTransaction.id
        frozenRealms.withLock { realms in
            if realms[id] != nil, realms[id]?.realm == nil || realms[id]?.realm === realm { realms[id] = nil }
        }
    }

    /// How many versions frozen realms of this process pin.
    var frozenVersionCount: Int { frozenRealms.withLock { $0.values.filter { $0.realm != nil }.count } }

    // MARK: Ending writes

    /// Grows the map ahead of a write when the file nears it and nothing else reads.
    func growMapIfNeeded() {
        guard configuredMapLimit == nil else { return }
        let size = environment.mapSize
        if environment.usedBytes > size / 4 * 3 {
            try? environment.growMap(to: size * 2)
        }
    }
}
