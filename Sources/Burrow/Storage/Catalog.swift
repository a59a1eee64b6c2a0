import LMDB

/// A write's private version of the catalog, with a revision no other catalog has, so that
/// what realms resolved against one is never taken for the other.
struct CatalogDraft {
    var catalog: Catalog
    let revision: UInt64
}

/// What a coordinator knows of a file's schema and databases.
struct Catalog: Sendable {
    var schema = StoredSchema()
    /// The schema's generation, stored in the file: every write that adds a class or a
    /// backlink index moves it, so that other processes know to read the catalog again. (The
    /// realm's `generation` is another counter: of what one realm reads, in memory.)
    var schemaGeneration: UInt64 = 0
    /// The file's layout epoch when the catalog was read: a migration moves it, and a catalog
    /// of another epoch cannot read the file's tables.
    var layoutEpoch: UInt64 = 0
    /// The file's schema version when the catalog was read.
    var schemaVersion: UInt64 = 0
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

/// What one write changed in the catalog, and whether it holds the opening lock.
final class CatalogChanges {
    /// The catalog as the write changed it (a class or the backlink index added).
    var draft: CatalogDraft?
    /// Whether the write holds the ``CatalogStore``'s database-opening lock.
    var holdsOpeningLock = false
}
