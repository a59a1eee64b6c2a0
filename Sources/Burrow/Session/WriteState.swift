import LMDB

/// The state of a realm's open write transaction: what storage needs (``tables``), and what
/// adding objects needs on top of it.
final class WriteState {
    /// Where every change to rows, collections and links goes.
    let tables: TableWriter
    /// The write transaction, held here too: every read inside a write reaches it.
    let transaction: Transaction
    /// Keeps the realm in its thread's cache while the write is open, as RealmSwift does:
    /// `try Realm().beginWrite()` then `try Realm().create(...)` write in one transaction.
    private let use: RealmUse
    // The state below is read for every object written and only changed by simple assignments
    // on the writing thread, never during another access: it skips the runtime's exclusivity
    // check.
    /// Keys claimed by objects being added whose links are being followed, so that a cycle
    /// back to one of them finds its key.
    @exclusivity(unchecked) var pendingKeys: [ObjectIdentifier: ObjectKey] = [:]
    /// The update policy for objects reached while adding or creating one (its links, its
    /// collections' elements): the caller's, so that an upsert updates nested objects too.
    @exclusivity(unchecked) private(set) var nestedUpdatePolicy: UpdatePolicy = .error
    /// What this transaction changed in the catalog, seen only by this write until it commits.
    var catalogChanges: CatalogChanges { tables.storage.catalogChanges }
    /// The first storage failure; once set the transaction can only be cancelled, and
    /// `commitWrite` throws it.
    @exclusivity(unchecked) var failure: Realm.Error?
    /// The id the write commits as, once its transaction committed.
    var committedID = 0
    /// Whether the write applies changes that came from the sync server: the journal does not
    /// record them for upload, since the server has them.
    @exclusivity(unchecked) var appliesServerChanges = false
    /// Rows of values given back by objects already stored, for the next objects to fill: adding
    /// an object allocates no array of its own. A stack, since storing an object stores the
    /// objects it links to first.
    @exclusivity(unchecked) private var spareRows: [[_PersistedValue]] = []

    /// A row of `count` null values, from those given back when there is one.
    func borrowRow(count: Int) -> [_PersistedValue] {
        guard var row = spareRows.popLast() else { return [_PersistedValue](repeating: .null, count: count) }
        row.removeAll(keepingCapacity: true)
        row.append(contentsOf: repeatElement(.null, count: count))
        return row
    }

    /// Keeps `row` for the next ``borrowRow(count:)``.
    func giveBack(_ row: consuming [_PersistedValue]) {
        spareRows.append(row)
    }

    /// The group of writes this one belongs to (its transaction is nested in the group's), or
    /// `nil` for a write with a transaction of its own.
    let group: WriteGroup?

    init(transaction: Transaction, catalogs: CatalogStore, realm: RealmSession, group: WriteGroup? = nil) {
        self.transaction = transaction
        self.group = group
        use = RealmUse(realm)
        // Writes nobody observes skip the change log (see ObserverPresence).
        let coordinator = realm.coordinator
        tables = TableWriter(storage: StorageWrite(transaction: transaction, recordingChanges: coordinator.observerPresence.isObserved,
                                                   capturingDeletions: coordinator.isJournaling),
                             catalogs: catalogs)
    }

    /// Runs `body` with `policy` for the objects it reaches, then restores the outer one.
    func withNestedUpdatePolicy<Result>(_ policy: UpdatePolicy, _ body: () throws -> Result) rethrows -> Result {
        let outer = nestedUpdatePolicy
        nestedUpdatePolicy = policy
        defer { nestedUpdatePolicy = outer }
        return try body()
    }
}
