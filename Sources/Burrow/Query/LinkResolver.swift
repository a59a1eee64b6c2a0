import LMDB

/// What a predicate needs to follow links and read collections: the classes of the file, and,
/// while results are evaluated, the transaction to read from.
///
/// Compiled predicates are plain closures that cannot throw, so a read that fails inside one
/// is kept here: it stops the reads after it, and the evaluation throws it when it ends
/// (``throwFailure()``) instead of answering from a silently smaller set of values.
final class LinkResolver {
    let catalog: Catalog
    /// The transaction of the evaluation under way.
    var transaction: Transaction? {
        didSet {
            failure = nil
            evaluation &+= 1
        }
    }
    /// Moves with each evaluation, so that what one learnt is not taken for another's.
    private(set) var evaluation: UInt64 = 0
    /// The first read that failed in the evaluation under way.
    private(set) var failure: (any Error)?

    init(catalog: Catalog) {
        self.catalog = catalog
    }

    /// Throws the first read failure of the evaluation under way, if any.
    func throwFailure() throws {
        if let failure { throw failure }
    }

    /// Runs `body` on the evaluation's transaction; after a failure, returns `fallback`, which
    /// the evaluation then discards by throwing the failure.
    @inline(__always)
    func reading<T>(_ fallback: T, _ body: (Transaction) throws -> T) -> T {
        guard let transaction else { burrowPreconditionFailure("A predicate read links outside an evaluation.") }
        guard failure == nil else { return fallback }
        do {
            return try body(transaction)
        } catch {
            failure = error
            return fallback
        }
    }

    /// The stored values of `owner`'s list or set in `database`, in order.
    func listValues(of owner: ObjectKey, in database: Database, kind: _StorageKind) -> [_PersistedValue] {
        reading([]) { transaction in
            try ListEntries.values(of: owner, in: database, kind: kind, txn: transaction)
        }
    }

    /// The entries of `owner`'s map in `database`, in key order.
    func mapEntries(of owner: ObjectKey, in database: Database, kind: _StorageKind) -> [(key: String, value: _PersistedValue)] {
        reading([]) { transaction in try MapEntries.entries(of: owner, in: database, kind: kind, txn: transaction) }
    }

    /// The value under `key` in `owner`'s map in `database`, or `nil` when there is no such key.
    func mapValue(of owner: ObjectKey, key: String, in database: Database, kind: _StorageKind) -> _PersistedValue? {
        reading(nil) { transaction in try MapEntries.value(of: owner, key: key, in: database, kind: kind, txn: transaction) }
    }

    /// The row of `key` in `layout`'s table, or `nil` when there is none.
    @inline(__always)
    func row(_ key: UInt64, in layout: TableLayout) -> UnsafeRawBufferPointer? {
        reading(nil) { transaction in try layout.row(ObjectKey(key), in: transaction) }
    }
}
