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
    /// What this transaction changed in the catalog, seen only by this write until it commits.
    let catalogChanges = CatalogChanges()
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
