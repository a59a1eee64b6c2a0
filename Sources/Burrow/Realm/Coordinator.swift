import Foundation
import LMDB
import Synchronization

/// Everything one process shares about one realm file, whichever threads use it: the LMDB
/// environment, the schema catalog and the databases' handles.
///
/// Coordinators come from ``open(_:)``, which returns the live one for the same file or
/// in-memory identifier. The file is closed when the last ``Realm`` using it is released.
final class Coordinator: @unchecked Sendable {
    let environment: Environment
    let path: String
    let isInMemory: Bool
    let isReadOnly: Bool
    let metadata: Database
    let configuredMapLimit: Int?

    private let catalogState: Mutex<Catalog>
    /// Moves whenever the published catalog changes, so realms can cache what they resolved
    /// against it.
    private let catalogRevision = Atomic<UInt64>(0)
    /// Where revisions come from, for the published catalog and for writes' drafts alike.
    private let revisions = Atomic<UInt64>(0)
    /// Counters of object keys handed out by this process, so that a cancelled write never
    /// lets a key be used again for another object while stale accessors might still hold it.
    private let keyHighWater = Mutex<[UInt32: UInt64]>([:])
    /// Cache of field-to-column maps, by class id and model type.
    private let columnMaps = Mutex<[ColumnMapKey: [Int]]>([:])
    /// LMDB allows one transaction at a time to open databases, until it ends; a write that
    /// opens one holds this lock until it commits or aborts.
    let openingLock = NSLock()

    private struct ColumnMapKey: Hashable {
        let classID: UInt32
        let type: ObjectIdentifier
    }

    private struct WeakCoordinator { weak var coordinator: Coordinator? }

    /// What a coordinator is registered under: the file itself, whatever path reached it, so
    /// that one file has one coordinator (one catalog, one opening lock) as it has one LMDB
    /// environment; or an in-memory realm's identifier.
    private enum RegistryKey: Hashable {
        case file(Environment.FileIdentity)
        case memory(String)

        /// The key of `configuration`'s realm, or `nil` when its file does not exist yet (so
        /// no coordinator can have it open).
        init?(_ configuration: Realm.Configuration) {
            if let identifier = configuration.inMemoryIdentifier {
                self = .memory(identifier)
            } else if let url = configuration.fileURL, let identity = Environment.FileIdentity(path: url.path) {
                self = .file(identity)
            } else {
                return nil
            }
        }
    }

    private static let registry = Mutex<[RegistryKey: WeakCoordinator]>([:])

    /// This coordinator's key in the registry.
    private let registryKey: RegistryKey

    private init(environment: Environment, path: String, isInMemory: Bool, isReadOnly: Bool,
                 metadata: Database, catalog: Catalog, mapLimit: Int?, inMemoryIdentifier: String?) {
        self.registryKey = inMemoryIdentifier.map { .memory($0) } ?? .file(environment.identity)
        self.environment = environment
        self.path = path
        self.isInMemory = isInMemory
        self.isReadOnly = isReadOnly
        self.metadata = metadata
        self.catalogState = Mutex(catalog)
        self.configuredMapLimit = mapLimit
    }

    deinit {
        // Under the registry's lock, which `open` waits on: a new coordinator for this file
        // opens only after this one is gone (and, in memory, its files with it).
        Self.registry.withLock { entries in
            if isInMemory {
                // The data of an in-memory realm dies with its last instance.
                unlink(path)
                unlink(path + "-lock")
            }
            if entries[registryKey]?.coordinator == nil { entries[registryKey] = nil }
        }
    }

    /// The published catalog: what every committed write made of the schema.
    var catalog: Catalog { catalogState.withLock { $0 } }

    /// The published catalog's revision: resolved classes stay valid while it does not move.
    var revision: UInt64 { catalogRevision.load(ordering: .acquiring) }

    /// The catalog `write` sees: its draft once it changed the schema, else the published one.
    func catalog(seenBy write: WriteState?) -> Catalog { write?.draft?.catalog ?? catalog }

    /// The revision of ``catalog(seenBy:)``.
    func revision(seenBy write: WriteState?) -> UInt64 { write?.draft?.revision ?? revision }

    private func publish(_ catalog: Catalog) {
        catalogState.withLock { $0 = catalog }
        catalogRevision.store(revisions.add(1, ordering: .relaxed).newValue, ordering: .releasing)
    }

    /// Makes `catalog` `write`'s draft, under a new revision.
    private func draft(_ catalog: Catalog, in write: WriteState) {
        write.draft = CatalogDraft(catalog: catalog, revision: revisions.add(1, ordering: .relaxed).newValue)
    }

    /// Whether this process has the realm of `configuration` open.
    static func isOpen(_ configuration: Realm.Configuration) -> Bool {
        // The weak load happens outside the lock: if it held the last reference, releasing it
        // there would run the deinit, which takes the lock.
        guard let key = RegistryKey(configuration) else { return false }
        let entry = registry.withLock { $0[key] }
        return entry?.coordinator != nil
    }

    // MARK: Opening

    /// The coordinator of `configuration`'s file, opening the file if this process has not.
    static func open(_ configuration: Realm.Configuration) throws -> Coordinator {
        while true {
            guard let coordinator = try openOnce(configuration) else {
                usleep(100)  // the file's last coordinator is closing on another thread
                continue
            }
            if coordinator.isReadOnly && !configuration.readOnly {
                throw Realm.Error(.fail, "Realm at '\(coordinator.path)' is already open read-only in this process; it cannot also be opened for writing.",
                                  fileURL: URL(fileURLWithPath: coordinator.path))
            }
            return coordinator
        }
    }

    /// The open coordinator of the file or a new one; `nil` while the previous one is closing.
    private static func openOnce(_ configuration: Realm.Configuration) throws -> Coordinator? {
        try registry.withLock { entries throws -> Coordinator? in
            if let key = RegistryKey(configuration), let entry = entries[key] {
                // An entry without a coordinator is one whose deinit has not run yet.
                return entry.coordinator
            }
            let coordinator = try openFile(configuration)
            entries[coordinator.registryKey] = WeakCoordinator(coordinator: coordinator)
            return coordinator
        }
    }

    private static func openFile(_ configuration: Realm.Configuration) throws -> Coordinator {
        let isInMemory = configuration.inMemoryIdentifier != nil
        let path = try prepareLocation(configuration)
        let url = URL(fileURLWithPath: path)
        let lockPath = path + "-lock"
        let lockExisted = FileManager.default.fileExists(atPath: lockPath)
        let dataExisted = FileManager.default.fileExists(atPath: path)
        if configuration.readOnly && !dataExisted {
            throw Realm.Error(.fileNotFound, "Cannot open '\(path)' read-only: the file does not exist.", fileURL: url)
        }
        var options = Environment.Options()
        options.readOnly = configuration.readOnly
        options.noSync = isInMemory
        options.fileMode = configuration.filePermissions
        if let limit = configuration.maximumFileSize { options.mapSize = limit }
        let result = Result { () throws -> Coordinator in
            let environment: Environment
            switch Result(catching: { () throws(LMDBError) in try Environment.open(path: path, options: options) }) {
            case .success(let opened): environment = opened
            case .failure(let error): throw Realm.Error(error, path: path, doing: "open")
            }
            let (metadata, catalog) = try loadCatalog(environment, configuration: configuration)
            return Coordinator(environment: environment, path: path, isInMemory: isInMemory,
                               isReadOnly: configuration.readOnly, metadata: metadata, catalog: catalog,
                               mapLimit: configuration.maximumFileSize, inMemoryIdentifier: configuration.inMemoryIdentifier)
        }
        if case .failure = result {
            // Leave a file that is not ours exactly as it was: remove only what we created.
            if !lockExisted && !Environment.isOpen(path: path) { unlink(lockPath) }
            if !dataExisted && !isInMemory { unlink(path) }
        }
        return try result.get()
    }

    /// The data file's path, creating the default or in-memory folder when needed.
    private static func prepareLocation(_ configuration: Realm.Configuration) throws -> String {
        if let identifier = configuration.inMemoryIdentifier {
            let shm = "/dev/shm"
            let folder = access(shm, W_OK) == 0 ? shm : NSTemporaryDirectory()
            var hasher = FNV1a()
            hasher.add(identifier.utf8)
            let name = "burrow-memory-\(getpid())-\(String(hasher.value, radix: 16)).realm"
            let path = URL(fileURLWithPath: folder).appendingPathComponent(name).path
            unlink(path)
            unlink(path + "-lock")
            return path
        }
        guard let url = configuration.fileURL else {
            throw Realm.Error(.fail, "The configuration has neither a fileURL nor an inMemoryIdentifier.")
        }
        let folder = url.deletingLastPathComponent()
        if !FileManager.default.fileExists(atPath: folder.path) {
            let defaultFolder = Realm.Configuration.defaultDirectory.standardizedFileURL.path
            guard folder.standardizedFileURL.path == defaultFolder, !configuration.readOnly else {
                throw Realm.Error(.fileNotFound, "Cannot open '\(url.path)': the folder '\(folder.path)' does not exist.", fileURL: url)
            }
            do {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            } catch {
                throw Realm.Error(.fileAccess, "Cannot create the folder '\(folder.path)': \(error.localizedDescription)", fileURL: url)
            }
        }
        return url.standardizedFileURL.path
    }

    /// Reads (or, for a new file, writes) the metadata, and opens every class's databases.
    private static func loadCatalog(_ environment: Environment, configuration: Realm.Configuration) throws -> (Database, Catalog) {
        let path = environment.path
        do {
            return try readOrInitializeCatalog(environment, configuration: configuration)
        } catch let error as Realm.Error {
            throw error
        } catch let error as LMDBError {
            throw Realm.Error(error, path: path, doing: "open")
        } catch {
            throw Realm.Error(.invalidDatabase, "Cannot read the metadata of '\(path)': \(error)", fileURL: URL(fileURLWithPath: path))
        }
    }

    private static func readOrInitializeCatalog(_ environment: Environment, configuration: Realm.Configuration) throws -> (Database, Catalog) {
        let path = environment.path
        let url = URL(fileURLWithPath: path)
        let probe = try environment.beginReadTransaction()
        let isNew = try probe.count(in: probe.openDatabase(named: nil)) == 0
        probe.abort()
        if isNew {
            guard !configuration.readOnly else {
                throw Realm.Error(.invalidDatabase, "'\(path)' is empty: not a Burrow file.", fileURL: url)
            }
            try initialize(environment, schemaVersion: configuration.schemaVersion)
        }
        let txn = try environment.beginReadTransaction()
        // No database `0`, or a plain record by that name: some other program's LMDB file.
        let metadata: Database?
        do {
            metadata = try openIfPresent(FileHeader.metadataDatabaseName, in: txn)
        } catch LMDBError.incompatible {
            metadata = nil
        }
        guard let metadata else {
            throw Realm.Error(.invalidDatabase, "'\(path)' is an LMDB file but not a Burrow file.", fileURL: url)
        }
        switch FileHeader.check(try txn.value(for: FileHeader.headerKey, in: metadata)) {
        case .valid: break
        case .notBurrow:
            throw Realm.Error(.invalidDatabase, "'\(path)' is not a Burrow file.", fileURL: url)
        case .unsupportedVersion(let version):
            throw Realm.Error(.unsupportedFileFormatVersion,
                              "'\(path)' has file format version \(version); this build reads version \(FileHeader.formatVersion).",
                              fileURL: url)
        }
        let loaded = try readCatalog(in: txn, metadata: metadata, path: path)
        try txn.commit()  // keeps the database handles opened by this transaction
        try reconcileSchemaVersion(stored: loaded.schemaVersion, configuration: configuration, environment: environment,
                                   metadata: metadata)
        return (metadata, loaded.catalog)
    }

    /// Refuses a lower schema version than the file's; records a higher one.
    private static func reconcileSchemaVersion(stored: UInt64, configuration: Realm.Configuration, environment: Environment,
                                               metadata: Database) throws {
        if stored > configuration.schemaVersion {
            throw Realm.Error(.schemaMismatch,
                              "Provided schema version \(configuration.schemaVersion) is less than last set version \(stored).",
                              fileURL: URL(fileURLWithPath: environment.path))
        }
        if stored < configuration.schemaVersion && !configuration.readOnly {
            let write = try environment.beginTransaction()
            try write.put(FileHeader.schemaVersionKey, FileHeader.encodeUInt64(configuration.schemaVersion), in: metadata)
            try write.commit()
        }
    }

    private static func initialize(_ environment: Environment, schemaVersion: UInt64) throws {
        let txn = try environment.beginTransaction()
        // Another process may have initialised the file since we looked.
        if try txn.count(in: txn.openDatabase(named: nil)) != 0 {
            txn.abort()
            return
        }
        let metadata = try txn.openDatabase(named: FileHeader.metadataDatabaseName, create: true)
        try txn.put(FileHeader.headerKey, FileHeader.newHeader(), in: metadata)
        try txn.put(FileHeader.schemaVersionKey, FileHeader.encodeUInt64(schemaVersion), in: metadata)
        try txn.put(FileHeader.schemaKey, Array(StoredSchema().encoded()), in: metadata)
        try txn.put(FileHeader.schemaGenerationKey, FileHeader.encodeUInt64(0), in: metadata)
        try txn.commit()
    }

    private struct LoadedCatalog {
        let catalog: Catalog
        let schemaVersion: UInt64
    }

    /// Reads the stored schema in `txn` and opens its databases (without creating any).
    /// `handleEpoch` is the epoch from which other transactions may use handles it opens.
    private static func readCatalog(in txn: Transaction, metadata: Database, path: String,
                                    handleEpoch: UInt64 = 0) throws -> LoadedCatalog {
        guard let schemaBytes = try txn.value(for: FileHeader.schemaKey, in: metadata) else {
            throw Realm.Error(.invalidDatabase, "'\(path)' has no schema record.", fileURL: URL(fileURLWithPath: path))
        }
        var catalog = Catalog()
        catalog.schema = try StoredSchema.decode(schemaBytes)
        catalog.generation = try FileHeader.number(FileHeader.schemaGenerationKey, in: metadata, txn: txn, absent: 0)
        for storedClass in catalog.schema.classes {
            catalog.layouts[storedClass.name] = try TableLayout.open(storedClass, in: txn, create: false, handleEpoch: handleEpoch)
        }
        catalog.links = try openIfPresent(FileHeader.linksName, in: txn)
        catalog.linksVisibility = HandleVisibility(epoch: handleEpoch)
        let version = try FileHeader.number(FileHeader.schemaVersionKey, in: metadata, txn: txn, absent: 0)
        return LoadedCatalog(catalog: catalog, schemaVersion: version)
    }

    /// The schema version stored in the file.
    func schemaVersion(in txn: Transaction) throws -> UInt64 {
        try FileHeader.number(FileHeader.schemaVersionKey, in: metadata, txn: txn, absent: 0)
    }

    // MARK: Catalog changes from other processes

    /// Picks up classes (and the backlink index) another process added, when the stored schema
    /// generation moved past ours. Called at open and refresh, outside write transactions;
    /// returns whether the catalog changed, in which case `txn` predates the new handles and
    /// must be renewed to use them.
    func synchronizeCatalog(seenBy txn: Transaction) throws -> Bool {
        let stored = try FileHeader.number(FileHeader.schemaGenerationKey, in: metadata, txn: txn, absent: 0)
        guard stored > catalogState.withLock({ $0.generation }) else { return false }
        openingLock.lock()
        defer { openingLock.unlock() }
        // Handles opened by a read transaction serve only transactions begun after it ends;
        // older snapshots keep seeing the databases they already had.
        let epoch = environment.handleEpoch + 1
        let reader = try environment.beginReadTransaction()
        var loaded = try Self.readCatalog(in: reader, metadata: metadata, path: path, handleEpoch: epoch).catalog
        try reader.commit()
        environment.publishHandleEpoch(epoch)
        let current = catalog
        guard loaded.generation > current.generation else { return false }
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

    // MARK: Binding classes

    /// `info` resolved for reading in `catalog`, or `nil` when the file has no table for it (yet).
    func bound(_ info: ClassInfo, in catalog: Catalog) -> BoundClass? {
        guard let layout = catalog.layouts[info.className] else { return nil }
        return BoundClass(info: info, layout: layout, fieldColumns: columns(of: info, in: layout))
    }

    /// `info` resolved for writing in `write`, creating its table when the file has none.
    func boundForWriting(_ info: ClassInfo, in write: WriteState) throws -> BoundClass {
        if let last = write.lastBound, last.info === info { return last }
        if let known = write.boundClasses[ObjectIdentifier(info.type)] {
            write.lastBound = known
            return known
        }
        let known = catalog(seenBy: write).layouts[info.className]
        let layout = if let known { known } else { try createTable(for: info, in: write) }
        let bound = BoundClass(info: info, layout: layout, fieldColumns: columns(of: info, in: layout))
        write.boundClasses[ObjectIdentifier(info.type)] = bound
        write.lastBound = bound
        return bound
    }

    /// Where each field of `info` lives in `layout`'s rows; traps when the stored class differs.
    func columns(of info: ClassInfo, in layout: TableLayout) -> [Int] {
        let key = ColumnMapKey(classID: layout.classID, type: ObjectIdentifier(info.type))
        if let known = columnMaps.withLock({ $0[key] }) { return known }
        let differences = layout.storedClass.differences(from: info)
        precondition(differences.isEmpty, Self.mismatchMessage(differences, path: path))
        let stored = layout.storedClass.properties
        let map = info.fields.indices.map { index in
            info.fields[index].isComputed ? LinkingObjectsColumn.column(ofField: index)
                                          : stored.firstIndex { $0.name == info.fields[index].name }!
        }
        columnMaps.withLock { $0[key] = map }
        return map
    }

    /// Checks model classes against the stored schema.
    ///
    /// - Throws: ``Realm/Error/Code/schemaMismatch`` listing every difference.
    func verify(_ infos: [ClassInfo]) throws {
        let catalog = self.catalog
        let differences = infos.flatMap { info in
            catalog.schema.storedClass(named: info.className)?.differences(from: info) ?? []
        }
        guard differences.isEmpty else {
            throw Realm.Error(.schemaMismatch, Self.mismatchMessage(differences, path: path), fileURL: URL(fileURLWithPath: path))
        }
    }

    private static func mismatchMessage(_ differences: [String], path: String) -> String {
        "Migration is required for '\(path)' due to the following errors:\n- " + differences.joined(separator: "\n- ")
    }

    /// Adds `info`'s class to the file inside `write`.
    private func createTable(for info: ClassInfo, in write: WriteState) throws -> TableLayout {
        let txn = write.transaction
        if !write.holdsOpeningLock {
            openingLock.lock()
            write.holdsOpeningLock = true
        }
        // Another process may have changed the schema since we read it: start from the file.
        let loaded = try Self.readCatalog(in: txn, metadata: metadata, path: path)
        var catalog = loaded.catalog
        if let links = self.catalog(seenBy: write).links(visibleTo: txn) {
            catalog.links = links
            catalog.linksVisibility = self.catalog(seenBy: write).linksVisibility
        }
        if let existing = catalog.layouts[info.className] {
            draft(catalog, in: write)
            return existing
        }
        let storedClass = StoredClass(id: catalog.schema.nextClassID, info: info)
        catalog.schema.nextClassID += 1
        catalog.schema.classes.append(storedClass)
        catalog.generation += 1
        let layout = try TableLayout.open(storedClass, in: txn, create: true)
        catalog.layouts[storedClass.name] = layout
        try txn.put(FileHeader.schemaKey, Array(catalog.schema.encoded()), in: metadata)
        try txn.put(FileHeader.schemaGenerationKey, FileHeader.encodeUInt64(catalog.generation), in: metadata)
        draft(catalog, in: write)
        return layout
    }

    // MARK: Links

    /// Whether any class of `catalog` links to `className`, or may through an `AnyRealmValue`.
    static func isLinkTarget(_ className: String, in catalog: Catalog) -> Bool {
        catalog.schema.classes.contains { storedClass in
            storedClass.properties.contains { $0.objectClassName == className || $0.kind == .mixed }
        }
    }

    /// The backlink index, created inside `write` when the file has none yet.
    func linksDatabase(in write: WriteState) throws -> Database {
        try openLinksDatabase(in: write, create: true)!
    }

    /// The backlink index as `write` sees it, or `nil` when the file has none: another process
    /// may have created it since this one read the catalog.
    func existingLinksDatabase(in write: WriteState) throws -> Database? {
        try openLinksDatabase(in: write, create: false)
    }

    private func openLinksDatabase(in write: WriteState, create: Bool) throws -> Database? {
        if let links = catalog(seenBy: write).links(visibleTo: write.transaction) { return links }
        if !write.holdsOpeningLock {
            openingLock.lock()
            write.holdsOpeningLock = true
        }
        let txn = write.transaction
        let links: Database
        if let existing = try Self.openIfPresent(FileHeader.linksName, in: txn) {
            links = existing
        } else {
            guard create else { return nil }
            links = try txn.openDatabase(named: FileHeader.linksName, create: true)
            // Other processes learn of the new database through the schema generation.
            let stored = try FileHeader.number(FileHeader.schemaGenerationKey, in: metadata, txn: txn, absent: 0)
            try txn.put(FileHeader.schemaGenerationKey, FileHeader.encodeUInt64(stored + 1), in: metadata)
        }
        var catalog = self.catalog(seenBy: write)
        catalog.links = links
        catalog.linksVisibility = HandleVisibility(createdInTransaction: txn.id)
        draft(catalog, in: write)
        return links
    }

    /// The database `name` in `txn`, or `nil` when the file has none.
    private static func openIfPresent(_ name: String, in txn: Transaction) throws -> Database? {
        do {
            return try txn.openDatabase(named: name)
        } catch {
            if error.code == LMDBError.notFound.code { return nil }
            throw error
        }
    }

    // MARK: Object keys

    /// A fresh object key for `layout`'s class, never handed out before.
    func nextObjectKey(for layout: TableLayout, in write: WriteState) throws -> ObjectKey {
        let id = layout.classID
        let next: UInt64
        if let pending = write.nextKeys[id] {
            next = pending
        } else {
            let stored = try FileHeader.number(FileHeader.nextObjectKeyKey(classID: id), in: metadata, txn: write.transaction, absent: 1)
            next = max(stored, keyHighWater.withLock { $0[id] ?? 1 })
        }
        write.nextKeys[id] = next + 1
        return ObjectKey(next)
    }

    // MARK: Ending writes

    /// Persists what the write changed in the metadata; the caller then commits.
    func prepareCommit(_ write: WriteState) throws {
        for (id, next) in write.nextKeys {
            try write.transaction.put(FileHeader.nextObjectKeyKey(classID: id), FileHeader.encodeUInt64(next), in: metadata)
        }
    }

    /// Settles process state after `write` committed (`committed`) or aborted.
    func finish(_ write: WriteState, committed: Bool) {
        keyHighWater.withLock { highWater in
            for (id, next) in write.nextKeys { highWater[id] = max(highWater[id] ?? 1, next) }
        }
        if let draft = write.draft {
            if committed {
                publish(draft.catalog)
            } else {
                // LMDB closed the handles this write opened: make the objects the write created
                // read as deleted rather than through handles a later table reuses.
                let published = catalog
                for (name, layout) in draft.catalog.layouts where published.layouts[name]?.classID != layout.classID {
                    layout.discard()
                }
            }
        }
        if write.holdsOpeningLock {
            write.holdsOpeningLock = false
            openingLock.unlock()
        }
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
