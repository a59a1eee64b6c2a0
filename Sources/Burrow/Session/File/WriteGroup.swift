import LMDB

/// Writes of several realms of this process that one durable commit ends (group commit).
///
/// Asynchronous writers (``Realm/asyncWrite(_isolation:_:)``, ``Realm/writeAsync(_:onComplete:)``)
/// that wait for the file's writer turn while a write is under way write one after another in
/// one LMDB transaction, each in a transaction nested in it: a write that fails or is cancelled
/// undoes only itself. The group then commits once, with one pair of `fsync`s for all of them,
/// and each writer returns only after that commit.
///
/// The outermost transaction begins and commits on the file's ``CommitThread``. A group is
/// touched by the writer holding the turn, then by the commit thread, never by two threads at
/// once: the writer turn hands it over.
final class WriteGroup: @unchecked Sendable {
    /// What a member is told once the group ended: the id it committed as, or why it failed.
    typealias Durability = @Sendable (Result<Int, Realm.Error>) -> Void


    /// The most writes one group takes: the first waits for all of them.
    static let mostMembers = 64
    /// The most changes one group takes before it commits: LMDB's nested transactions share the
    /// outermost one's room for dirty pages.
    static let mostMutations: UInt64 = 16_384

    /// The outermost transaction, begun on the commit thread.
    let transaction: Transaction
    /// The writes that joined, until the group commits: they keep their realms open.
    private var writes: [WriteState] = []
    /// Whom to tell how the group ended.
    private var waiting: [Durability] = []
    /// Whether a member changed the catalog: the group then takes no more writes, since the
    /// catalog a later write would see is published only once the group commits.
    private var changedCatalog = false
    /// The realms whose writes joined.
    private var realms: Set<ObjectIdentifier> = []

    init(transaction: Transaction) {
        self.transaction = transaction
    }

    /// Whether a write of `realm` may join: the group is not full, and holds no write of
    /// `realm` yet, so that each write of a realm is a version of its own to it (its
    /// notifications report each one, as RealmSwift's do).
    func accepts(_ realm: ObjectIdentifier) -> Bool {
        !changedCatalog && writes.count < Self.mostMembers && transaction.mutationCount < Self.mostMutations
            && !realms.contains(realm)
    }

    /// Adds `write` of `realm`, whose nested transaction just committed; `durable` is called on
    /// the commit thread once the group ended.
    func add(_ write: WriteState, of realm: ObjectIdentifier, whenDurable durable: Durability?) {
        realms.insert(realm)
        writes.append(write)
        if let durable { waiting.append(durable) }
        if write.catalogChanges.draft != nil || write.catalogChanges.holdsOpeningLock { changedCatalog = true }
    }

    /// Commits the group, on the commit thread, and settles its members' process state (their
    /// object keys and catalog drafts) before any other write begins.
    func commit(in coordinator: Coordinator) -> Result<Int, Realm.Error> {
        let id = transaction.id
        let outcome: Result<Int, Realm.Error>
        do {
            try transaction.commit()
            outcome = .success(id)
        } catch {
            outcome = .failure(Realm.Error(translating: error, path: coordinator.path, operation: .commit,
                                           maximumFileSize: coordinator.configuredMapLimit))
        }
        let committed = (try? outcome.get()) != nil
        for write in writes { write.tables.finish(committed: committed, keys: coordinator.objectKeys) }
        if committed {
            coordinator.commitWatcher.committed()
            for write in writes { coordinator.journaledWriteDidCommit(write) }
        }
        writes.removeAll()
        return outcome
    }

    /// Tells every member how the group ended.
    func notifyMembers(_ outcome: Result<Int, Realm.Error>) {
        let waiting = self.waiting
        self.waiting.removeAll()
        for durable in waiting { durable(outcome) }
    }
}
