import LMDB

/// What a predicate needs to follow to-one links: the classes of the file, and, while results
/// are evaluated, the transaction to read target rows from.
final class LinkResolver {
    let catalog: Catalog
    /// The transaction of the evaluation under way.
    var transaction: Transaction?

    init(catalog: Catalog) {
        self.catalog = catalog
    }

    /// The row of `key` in `layout`'s table, or `nil` when there is none.
    @inline(__always)
    func row(_ key: UInt64, in layout: TableLayout) -> UnsafeRawBufferPointer? {
        guard let transaction else { return nil }
        return (try? layout.row(ObjectKey(key), in: transaction)) ?? nil
    }
}
