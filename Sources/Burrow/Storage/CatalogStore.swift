import Dispatch
import Foundation
import LMDB
import Synchronization

/// The classes of one file and the handles of their databases: the catalog as committed writes
/// left it (published to every realm of the process), and the drafts of writes that change it.
///
/// LMDB lets one transaction at a time open databases, until it ends: a write that opens one
/// (adding a class or the backlink index) takes the opening lock and holds it until it commits
/// or aborts, and so does reading another process's additions.
final class CatalogStore: @unchecked Sendable {
    let environment: Environment
    let metadata: MetadataStore
    private let published: Locked<Catalog>
    /// The published catalog's revision.
    private let publishedRevision = Atomic<UInt64>(0)
    /// Where revisions come from, for the published catalog and for drafts alike, so that no two
    /// catalogs share one.
    private let revisions = Atomic<UInt64>(0)
    /// Held from the opening of a database to the end of the transaction that opened it. A
    /// semaphore, not a mutex: a write of a group is ended by the group's commit thread, not by
    /// the thread that opened the database.
    private let openingLock = DispatchSemaphore(value: 1)

    init(environment: Environment, metadata: MetadataStore, catalog: Catalog) {
        self.environment = environment
        self.metadata = metadata
        published = Locked(catalog)
    }

    /// The published catalog: what every committed write made of the schema.
    var catalog: Catalog { published.withLock { $0 } }

    /// The published catalog's revision: what was resolved against it stays valid while it holds.
    var revision: UInt64 { publishedRevision.load(ordering: .acquiring) }

    /// The catalog a write with `changes` sees: its draft once it changed the schema.
    func catalog(seenBy changes: CatalogChanges?) -> Catalog { changes?.draft?.catalog ?? catalog }

    /// The revision of ``catalog(seenBy:)``.
    func revision(seenBy changes: CatalogChanges?) -> UInt64 { changes?.draft?.revision ?? revision }

    private func publish(_ catalog: Catalog) {
        published.withLock { $0 = catalog }
        publishedRevision.store(revisions.add(1, ordering: .relaxed).newValue, ordering: .releasing)
    }

    private func draft(_ catalog: Catalog, in changes: CatalogChanges) {
        changes.draft = CatalogDraft(catalog: catalog, revision: revisions.add(1, ordering: .relaxed).newValue)
    }

    // MARK: Reading

    /// The catalog stored in the file `txn` reads, with its databases opened (none created).
    /// `handleEpoch` is the epoch from which other transactions may use the handles it opens.
    static func read(in txn: Transaction, metadata: MetadataStore, handleEpoch: UInt64 = 0) throws -> Catalog {
        var catalog = Catalog()
        catalog.schema = try metadata.schema(in: txn)
        catalog.schemaGeneration = try metadata.schemaGeneration(in: txn)
        catalog.layoutEpoch = try metadata.layoutEpoch(in: txn)
        catalog.schemaVersion = try metadata.schemaVersion(in: txn)
        for storedClass in catalog.schema.classes {
            catalog.layouts[storedClass.name] = try TableLayout.open(storedClass, in: txn, create: false, handleEpoch: handleEpoch)
        }
        // Read as runs found by a seek to the target: a cursor checks each page it reaches whole.
        catalog.links = try openIfPresent(FileHeader.linksName, in: txn)?.checkingPages(.wholePages)
        catalog.linksVisibility = HandleVisibility(epoch: handleEpoch)
        return catalog
    }

    /// Picks up classes (and the backlink index) another process added, when the stored schema
    /// generation moved past ours. Called at open and refresh, outside write transactions;
    /// returns whether the catalog changed, in which case `txn` predates the new handles and
    /// must be renewed to use them.
    func synchronize(seenBy txn: Transaction) throws -> Bool {
        guard try metadata.schemaGeneration(in: txn) > published.withLock({ $0.schemaGeneration }) else { return false }
        openingLock.wait()
        defer { openingLock.signal() }
        // Handles opened by a read transaction serve only transactions begun after it ends;
        // older snapshots keep seeing the databases they already had.
        let epoch = environment.handleEpoch + 1
        let reader = try environment.beginReadTransaction()
        var loaded = try Self.read(in: reader, metadata: metadata, handleEpoch: epoch)
        try reader.commit()
        environment.publishHandleEpoch(epoch)
        let current = catalog
        guard loaded.schemaGeneration > current.schemaGeneration else { return false }
        try Self.verifyLayoutEpoch(loaded.layoutEpoch, of: current, path: environment.path)
        for (name, layout) in current.layouts where loaded.layouts[name]?.classID == layout.classID {
            loaded.layouts[name] = layout
        }
        if current.links != nil {
            loaded.links = current.links
            loaded.linksVisibility = current.linksVisibility
        }
        publish(loaded)
        return true
    }

    /// Refuses to read or write a file another process migrated since `catalog` was read: its
    /// tables are no longer laid out as the catalog says.
    ///
    /// - Throws: ``MigratedElsewhere``.
    static func verifyLayoutEpoch(_ epoch: UInt64, of catalog: Catalog, path: String) throws {
        guard epoch == catalog.layoutEpoch else { throw MigratedElsewhere(path: path) }
    }

    /// Refuses a write transaction `txn` over a file another process migrated; see
    /// ``verifyLayoutEpoch(_:of:path:)``.
    func verifyLayout(seenBy txn: Transaction) throws {
        try Self.verifyLayoutEpoch(try metadata.layoutEpoch(in: txn), of: catalog, path: environment.path)
    }

    // MARK: Changing

    /// The table of class `name` in the write `txn` with `changes`, created from `make(id)` (the
    /// stored class under a fresh id) when the file has none.
    func table(named name: String, creatingWith make: (UInt32) -> StoredClass, in txn: Transaction,
               changes: CatalogChanges) throws -> TableLayout {
        if let known = catalog(seenBy: changes).layouts[name] { return known }
        takeOpeningLock(for: changes)
        // Another process may have changed the schema since we read it: start from the file.
        var catalog = try Self.read(in: txn, metadata: metadata)
        let seen = self.catalog(seenBy: changes)
        if let links = seen.links(visibleTo: txn) {
            catalog.links = links
            catalog.linksVisibility = seen.linksVisibility
        }
        if let existing = catalog.layouts[name] {
            draft(catalog, in: changes)
            return existing
        }
        var storedClass = make(catalog.schema.nextClassID)
        if environment.isEncrypted, storedClass.primaryKeyColumn != nil {
            // Object keys are stored in the clear: in an encrypted file they never carry a value.
            storedClass.primaryKeyIsObjectKey = false
        }
        catalog.schema.nextClassID += 1
        catalog.schema.classes.append(storedClass)
        catalog.schemaGeneration += 1
        let layout = try TableLayout.open(storedClass, in: txn, create: true)
        catalog.layouts[storedClass.name] = layout
        try metadata.write(catalog.schema, schemaGeneration: catalog.schemaGeneration, in: txn)
        draft(catalog, in: changes)
        return layout
    }

    /// The backlink index as the write `txn` sees it, created when the file has none and
    /// `create`; `nil` otherwise (another process may have created it since this one looked).
    func links(in txn: Transaction, changes: CatalogChanges, create: Bool) throws -> Database? {
        if let links = catalog(seenBy: changes).links(visibleTo: txn) { return links }
        takeOpeningLock(for: changes)
        let links: Database
        if let existing = try Self.openIfPresent(FileHeader.linksName, in: txn) {
            links = existing.checkingPages(.wholePages)
        } else {
            guard create else { return nil }
            links = try txn.openDatabase(named: FileHeader.linksName, create: true, sealed: true).checkingPages(.wholePages)
            // Other processes learn of the new database through the schema generation.
            try metadata.writeSchemaGeneration(try metadata.schemaGeneration(in: txn) + 1, in: txn)
        }
        var catalog = self.catalog(seenBy: changes)
        catalog.links = links
        catalog.linksVisibility = HandleVisibility(createdInTransaction: txn.id)
        draft(catalog, in: changes)
        return links
    }

    /// Publishes the draft of a write that `committed`, or forgets it, and releases the
    /// opening lock.
    func finish(_ changes: CatalogChanges, committed: Bool) {
        if let draft = changes.draft {
            if committed {
                publish(draft.catalog)
            } else {
                // LMDB closed the handles this write opened: make the objects the write created
                // read as deleted rather than through handles a later table reuses.
                let current = catalog
                for (name, layout) in draft.catalog.layouts where current.layouts[name]?.classID != layout.classID {
                    layout.discard()
                }
            }
            changes.draft = nil
        }
        if changes.holdsOpeningLock {
            changes.holdsOpeningLock = false
            openingLock.signal()
        }
    }

    private func takeOpeningLock(for changes: CatalogChanges) {
        guard !changes.holdsOpeningLock else { return }
        openingLock.wait()
        changes.holdsOpeningLock = true
    }

    /// The database `name` in `txn`, or `nil` when the file has none.
    private static func openIfPresent(_ name: String, in txn: Transaction) throws -> Database? {
        do {
            return try txn.openDatabase(named: name, sealed: true)
        } catch LMDBError.notFound {
            return nil
        }
    }
}

/// Another process migrated the file (or changed its indexes) while this one had it open.
struct MigratedElsewhere: Error, CustomStringConvertible {
    let path: String

    var description: String {
        "'\(path)' was migrated to a new schema by another process while this process had it open: close every realm of the file in this process and open it again."
    }
}
