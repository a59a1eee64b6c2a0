import Foundation
import LMDB

/// One migration of a file, in one write transaction: nothing of it is visible to anyone, and
/// nothing of it is left in the file, until it commits. A block that traps or a process killed
/// during it leaves the file exactly as it was.
///
/// The old objects are read from a snapshot of the file taken when the write began, through
/// the old catalog; the new ones live in the write. Before the block runs, every row of a class
/// whose properties changed is rewritten in its new form (kept values kept, added properties at
/// their defaults); while it runs, such classes are written without their indexes; afterwards
/// their indexes are built anew from the rows (which is when primary keys are checked to be
/// unique), and the databases of removed properties and classes are deleted.
final class MigrationRun {
    let path: String
    let plan: MigrationPlan
    /// The file before the migration.
    let oldCatalog: Catalog
    let oldSnapshot: Transaction
    /// Where the new objects are written.
    let tables: TableWriter
    let metadata: MetadataStore
    /// The catalog the migration's writes see: the new schema, its changed classes without indexes.
    private(set) var session: Catalog
    /// The complete layouts of the classes whose indexes are rebuilt after the block.
    private(set) var rebuilt: [String: TableLayout] = [:]
    /// Every database this migration opened, by name: the ones no class uses at the end go.
    private(set) var openedDatabases: [String: Database] = [:]
    /// Classes whose data and schema ``deleteData(forType:)`` removed.
    private(set) var deletedClasses: [StoredClass] = []
    /// Object keys handed out to created objects, by class id.
    private(set) var nextKeys: [UInt32: UInt64] = [:]
    /// The model classes of the new schema, by name: they give created objects their defaults.
    let models: [String: ClassInfo]
    /// The old and the new objects, as the block sees them.
    private(set) lazy var oldSide = MigrationSide(run: self, isOld: true)
    private(set) lazy var newSide = MigrationSide(run: self, isOld: false)
    /// The first error a step of the block met (a full disk, a damaged row): the migration
    /// then fails with it.
    private(set) var failure: (any Error)?

    /// Keeps the first failure of a step the block cannot be told of.
    func fail(_ error: any Error) {
        if failure == nil { failure = error }
    }

    /// Begins the migration's write and takes the snapshot of the file as it is.
    init(environment: Environment, metadata: MetadataStore, catalog: Catalog, plan: MigrationPlan) throws {
        path = environment.path
        self.plan = plan
        self.metadata = metadata
        oldCatalog = catalog
        let write = try environment.beginTransaction()
        do {
            oldSnapshot = try environment.beginReadTransaction()
        } catch {
            write.abort()
            throw error
        }
        let catalogs = CatalogStore(environment: environment, metadata: metadata, catalog: catalog)
        tables = TableWriter(storage: StorageWrite(transaction: write), catalogs: catalogs)
        session = catalog
        session.schema = plan.schema
        models = Dictionary(plan.changes.map { ($0.info.className, $0.info) }, uniquingKeysWith: { first, _ in first })
    }

    var write: Transaction { tables.transaction }

    /// Ends the block: objects it kept can no longer be used.
    func endBlock() {
        oldSide.isActive = false
        newSide.isActive = false
    }

    /// Gives up: nothing the migration did reaches the file.
    func abort() {
        oldSnapshot.abort()
        write.abort()
        tables.catalogs.finish(tables.storage.catalogChanges, committed: false)
    }

    // MARK: Before the block

    /// Creates the added classes and rewrites the rows of the changed ones in their new form.
    func prepare() throws {
        for change in plan.changes {
            switch change.kind {
            case .unchanged:
                break
            case .added:
                session.layouts[change.new.name] = try open(change.new)
            case .indexesOnly:
                try replaceLayout(of: change.new)
            case .renamed:
                try rename(change.new)
            case .restructured:
                try replaceLayout(of: change.new)
                try rewriteRows(from: change.old!, to: change.new)
            }
        }
        publishSession()
    }

    /// Opens (creating what is missing) the databases of `storedClass` in the write.
    private func open(_ storedClass: StoredClass) throws -> TableLayout {
        let layout = try TableLayout.open(storedClass, in: write, create: true)
        for (name, database) in layout.namedDatabases { openedDatabases[name] = database }
        return layout
    }

    /// Makes `storedClass` the class's new form: written without indexes until the block ends,
    /// then its indexes are rebuilt. A class being made embedded stays top-level until then, so
    /// that the block can move its objects between owners.
    private func replaceLayout(of storedClass: StoredClass) throws {
        let layout = try open(storedClass)
        rebuilt[storedClass.name] = layout
        let becomesEmbedded = storedClass.isEmbedded == true && oldCatalog.schema.storedClass(named: storedClass.name)?.isEmbedded != true
        session.layouts[storedClass.name] = layout.withoutIndexes(asTopLevel: becomesEmbedded)
        if let index = session.schema.classes.firstIndex(where: { $0.id == storedClass.id }) {
            session.schema.classes[index] = storedClass
        }
    }

    /// Makes `storedClass`, the same class under other property names, the class's record:
    /// its databases are named by ids, so none changes.
    private func rename(_ storedClass: StoredClass) throws {
        session.layouts[storedClass.name] = try open(storedClass)
        if let index = session.schema.classes.firstIndex(where: { $0.id == storedClass.id }) {
            session.schema.classes[index] = storedClass
        }
    }

    /// Lets the writes of the migration see the session catalog.
    private func publishSession() {
        tables.storage.catalogChanges.draft = CatalogDraft(catalog: session, revision: 0)
    }

    /// Rewrites every row of `old`'s table in `new`'s columns: values of kept properties carried
    /// over (a `nil` in a property made required becomes its default), added properties at
    /// their defaults.
    private func rewriteRows(from old: StoredClass, to new: StoredClass) throws {
        let oldLayout = oldCatalog.layouts[old.name]!
        let sources = new.properties.map { property in old.properties.firstIndex { $0.id == property.id } }
        var row: [UInt8] = []
        try forEachRow(of: oldLayout, in: oldSnapshot) { key, reader in
            let values = try new.properties.indices.map { column throws(StorageError) -> _PersistedValue in
                let property = new.properties[column]
                guard let source = sources[column] else { return StoredValueConversion.defaultValue(of: property) }
                return StoredValueConversion.adapted(try reader.checkedValue(source, kind: old.properties[source].kind), to: property)
            }
            try storeRow(values, key: key, in: oldLayout.rows, buffer: &row)
        }
    }

    /// Writes the row of `values` under `key`, over what the key held; `buffer` is reused.
    private func storeRow(_ values: [_PersistedValue], key: ObjectKey, in rows: Database, buffer: inout [UInt8]) throws {
        RowCodec.encode(values, into: &buffer)
        try key.withBytes { keyBytes in
            try buffer.withUnsafeBytes { try write.put(keyBytes, $0, in: rows) }
        }
    }

    /// Calls `body` with the key and row of every object of `layout`'s table that `txn` reads.
    func forEachRow(of layout: TableLayout, in txn: Transaction, _ body: (ObjectKey, RowReader) throws -> Void) throws {
        let cursor = try txn.openCursor(layout.rows)
        var entry = try cursor.first()
        while let (keyBytes, row) = entry {
            let key = try ObjectKey(checking: keyBytes, in: layout.className)
            try body(key, RowReader(row, key: key))
            entry = try cursor.next()
        }
    }

    /// The keys of every object of `layout`'s table that `txn` reads.
    func keys(of layout: TableLayout, in txn: Transaction) throws -> [ObjectKey] {
        var keys: [ObjectKey] = []
        try forEachRow(of: layout, in: txn) { key, _ in keys.append(key) }
        return keys
    }

    // MARK: During the block

    /// The class `name` as the migration writes it, when the new schema has it.
    func newLayout(of name: String) -> TableLayout? { session.layouts[name] }

    /// Whether the class's primary key is rebuilt after the block, so its values may change.
    func isRebuilt(_ name: String) -> Bool { rebuilt[name] != nil }

    /// Lets the block change primary-key values of class `name`: the class keeps its object
    /// keys, writes without indexes, and its primary key is indexed anew after the block.
    func releasePrimaryKey(of name: String) throws {
        guard rebuilt[name] == nil, var storedClass = session.schema.storedClass(named: name) else { return }
        if storedClass.keysArePrimaryKeys { storedClass.primaryKeyIsObjectKey = false }
        try replaceLayout(of: storedClass)
        publishSession()
    }

    /// Moves the values of the old property `from` of class `name` into its new property `to`,
    /// which takes the old one's id, so that its collections and links stay as they are.
    func renameProperty(onType name: String, from oldName: String, to newName: String) throws {
        guard let old = oldCatalog.schema.storedClass(named: name) else {
            burrowPreconditionFailure("Cannot rename properties on type '\(name)' because it does not exist.")
        }
        guard var new = session.schema.storedClass(named: name) else {
            burrowPreconditionFailure("Cannot rename properties on type '\(name)' because it has been removed from the Realm.")
        }
        guard let source = old.properties.first(where: { $0.name == oldName }) else {
            burrowPreconditionFailure("Cannot rename property '\(name).\(oldName)' because it does not exist.")
        }
        guard let target = new.properties.firstIndex(where: { $0.name == newName }) else {
            burrowPreconditionFailure("Renamed property '\(name).\(newName)' does not exist.")
        }
        burrowPrecondition(!new.properties.contains { $0.id == source.id && $0.name != newName },
                           "Cannot rename property '\(name).\(oldName)' to '\(newName)' because the old property still exists.")
        let property = new.properties[target]
        burrowPrecondition(source.holdsSameValues(as: property),
                           "Cannot rename property '\(name).\(oldName)' to '\(newName)' because it would change from type '\(source.typeName)' to '\(property.typeName)'.")
        burrowPrecondition(!source.isOptional || property.isOptional,
                           "Cannot rename property '\(name).\(oldName)' to '\(newName)' because it would change from optional to required.")
        new.properties[target].id = source.id
        try replaceLayout(of: new)
        publishSession()
        let layout = session.layouts[name]!
        let sourceColumn = old.properties.firstIndex { $0.id == source.id }!
        var row: [UInt8] = []
        try forEachRow(of: oldCatalog.layouts[name]!, in: oldSnapshot) { key, reader in
            let value = StoredValueConversion.adapted(try reader.checkedValue(sourceColumn, kind: source.kind), to: property)
            guard var values = try tables.values(of: key, in: layout) else { return }  // deleted by the block
            values[target] = value
            try storeRow(values, key: key, in: layout.rows, buffer: &row)
        }
    }

    /// A fresh object key for class `layout`, past every key its table holds.
    func nextObjectKey(for layout: TableLayout) throws -> ObjectKey {
        let id = layout.classID
        var next = try nextKeys[id] ?? metadata.nextObjectKey(classID: id, in: write)
        if nextKeys[id] == nil, let (last, _) = try write.openCursor(layout.rows).last() {
            let lastKey = try ObjectKey(checking: last, in: layout.className).rawValue
            guard lastKey < .max else {
                throw Realm.Error(.limitExceeded, "Cannot create an object of '\(layout.className)' in the migration of '\(path)': its object keys are used up.")
            }
            next = max(next, lastKey + 1)
        }
        nextKeys[id] = next + 1
        return ObjectKey(next)
    }

    /// Deletes every object of class `name`; a class the new schema does not have leaves the
    /// file too. Returns whether the file had the class.
    func deleteData(forType name: String) throws -> Bool {
        guard let layout = session.layouts[name] else { return false }
        for key in try keys(of: layout, in: write) { try tables.delete(key, in: layout) }
        if models[name] == nil, let storedClass = session.schema.storedClass(named: name) {
            deletedClasses.append(storedClass)
            session.schema.classes.removeAll { $0.id == storedClass.id }
            session.layouts[name] = nil
            publishSession()
        }
        return true
    }
}
