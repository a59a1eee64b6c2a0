import LMDB

/// The state of a realm's open write transaction.
final class WriteState {
    let transaction: Transaction
    /// Reused buffers, so that writes allocate nothing per object. Only `TableLayout`'s leaf
    /// encoders use them, each for one encode-and-store that calls nothing else that could: the
    /// runtime's exclusivity check on every use is skipped.
    @exclusivity(unchecked) var rowScratch: [UInt8] = []
    @exclusivity(unchecked) var keyScratch: [UInt8] = []
    // The state below is read for every object written and only changed by simple assignments
    // on the writing thread, never during another access: it skips the runtime's exclusivity
    // check.
    /// Next object keys handed out in this transaction, by class id; persisted at commit.
    @exclusivity(unchecked) var nextKeys: [UInt32: UInt64] = [:]
    /// Keys claimed by objects being added whose links are being followed, so that a cycle
    /// back to one of them finds its key.
    @exclusivity(unchecked) var pendingKeys: [ObjectIdentifier: ObjectKey] = [:]
    /// The update policy for objects reached while adding or creating one (its links, its
    /// collections' elements): the caller's, so that an upsert updates nested objects too.
    @exclusivity(unchecked) private(set) var nestedUpdatePolicy: UpdatePolicy = .error
    /// Classes resolved for writing in this transaction, by model type.
    @exclusivity(unchecked) var boundClasses: [ObjectIdentifier: BoundClass] = [:]
    /// The class resolved last: adding many objects of one class skips the dictionary.
    @exclusivity(unchecked) var lastBound: BoundClass?
    /// The catalog as this transaction changed it (a class or the backlink index added): seen
    /// only by this write until it commits, when the coordinator publishes it.
    var draft: CatalogDraft?
    /// Whether this transaction holds the coordinator's database-opening lock.
    var holdsOpeningLock = false
    /// The first storage failure; once set the transaction can only be cancelled, and
    /// `commitWrite` throws it.
    @exclusivity(unchecked) var failure: Realm.Error?

    init(transaction: Transaction) {
        self.transaction = transaction
        rowScratch.reserveCapacity(256)
        keyScratch.reserveCapacity(64)
    }

    /// Runs `body` with `policy` for the objects it reaches, then restores the outer one.
    func withNestedUpdatePolicy<Result>(_ policy: UpdatePolicy, _ body: () -> Result) -> Result {
        let outer = nestedUpdatePolicy
        nestedUpdatePolicy = policy
        defer { nestedUpdatePolicy = outer }
        return body()
    }
}

/// A model class resolved against a file: its layout and where each field's column is.
///
/// A class, so that the managed objects holding one retain one reference, not three.
final class BoundClass {
    let info: ClassInfo
    let layout: TableLayout
    /// The row column of each field of `info`, by field index.
    let fieldColumns: [Int]

    init(info: ClassInfo, layout: TableLayout, fieldColumns: [Int]) {
        self.info = info
        self.layout = layout
        self.fieldColumns = fieldColumns
    }
}

/// A write's private version of the catalog, with a revision no other catalog has, so that
/// what realms resolved against one is never taken for the other.
struct CatalogDraft {
    var catalog: Catalog
    let revision: UInt64
}

/// What a coordinator knows of a file's schema and databases.
struct Catalog: Sendable {
    var schema = StoredSchema()
    var generation: UInt64 = 0
    var layouts: [String: TableLayout] = [:]
    /// The backlink index, once a class with links exists.
    var links: Database?
    /// Which transactions can use the handle of ``links``.
    var linksVisibility = HandleVisibility()

    /// The backlink index, when `txn` can use its handle.
    func links(visibleTo txn: Transaction) -> Database? {
        guard let links, linksVisibility.allows(txn) else { return nil }
        return links
    }
}
