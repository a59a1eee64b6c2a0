/// What opening a file with the program's model classes changes in its stored schema: per model
/// class, the stored class it becomes, and the differences RealmSwift would report.
///
/// A class keeps its id, and a property keeps its id while its name, kind, collection and
/// linked class stay the same: databases are named by ids, so what keeps its id keeps its data.
/// A property whose type changed is a new property (its values are converted by the migration
/// block), and the old one is removed.
struct MigrationPlan {
    /// One model class and what it becomes.
    struct ClassChange {
        let info: ClassInfo
        /// The stored class, when the file has one of this name.
        let old: StoredClass?
        /// The stored class after the migration.
        var new: StoredClass
        let kind: Kind
    }

    enum Kind {
        /// Stored exactly as the model declares it (property order aside).
        case unchanged
        /// Only indexes were added or removed (and perhaps properties renamed): no new schema
        /// version needed.
        case indexesOnly
        /// Only names changed: the model names a stored property by its column name, or maps a
        /// property to the column a stored one has. The schema record changes, the data does not.
        case renamed
        /// Properties added, removed or changed: needs a migration.
        case restructured
        /// Not in the file yet.
        case added
    }

    private(set) var changes: [ClassChange] = []
    /// The stored schema after the migration: the file's classes, changed and added ones in
    /// their new form.
    private(set) var schema: StoredSchema
    /// The differences that need a migration, in RealmSwift's words.
    private(set) var differences: [String] = []
    /// Whether opening changes indexes or names without anything else changing.
    var adjustsAtOpen: Bool { changes.contains { $0.kind == .indexesOnly || $0.kind == .renamed } }

    /// With `encrypted`, added classes never take their primary key as object key, which is
    /// stored in the clear.
    init(stored: StoredSchema, models: [ClassInfo], encrypted: Bool = false) {
        schema = stored
        for info in models {
            guard let old = stored.storedClass(named: info.className) else {
                var new = StoredClass(id: schema.nextClassID, info: info)
                if encrypted, new.primaryKeyColumn != nil { new.primaryKeyIsObjectKey = false }
                schema.nextClassID += 1
                schema.classes.append(new)
                changes.append(ClassChange(info: info, old: nil, new: new, kind: .added))
                continue
            }
            let structural = old.differences(from: info, includingIndexes: false)
            let all = old.differences(from: info)
            let kind: Kind = !structural.isEmpty ? .restructured : !all.isEmpty ? .indexesOnly : old.isRenamed(by: info) ? .renamed : .unchanged
            let new = kind == .unchanged ? old : Self.migrated(old, to: info)
            differences += structural
            changes.append(ClassChange(info: info, old: old, new: new, kind: kind))
            schema.classes[schema.classes.firstIndex { $0.id == old.id }!] = new
        }
    }

    /// `old` in the form `info` declares, keeping the ids of the properties that hold the same
    /// kind of value.
    static func migrated(_ old: StoredClass, to info: ClassInfo) -> StoredClass {
        var new = StoredClass(id: old.id, info: info)
        var nextID = old.nextPropertyID
        for index in new.properties.indices {
            let property = new.properties[index]
            if let kept = old.properties.first(where: { $0.storedName == property.storedName && $0.holdsSameValues(as: property) }) {
                new.properties[index].id = kept.id
            } else {
                new.properties[index].id = nextID
                nextID += 1
            }
        }
        new.nextPropertyID = nextID
        new.primaryKeyIsObjectKey = primaryKeyIsObjectKey(old: old, new: new)
        return new
    }

    /// `old` with the names `info` gives its properties, matched by column name; nothing else
    /// changes.
    static func renamed(_ old: StoredClass, by info: ClassInfo) -> StoredClass {
        var renamed = old
        for index in renamed.properties.indices {
            guard let field = info.fields.first(where: { !$0.isComputed && $0.columnName == old.properties[index].storedName }) else { continue }
            renamed.properties[index].name = field.name
            renamed.properties[index].columnName = field.columnName == field.name ? nil : field.columnName
        }
        return renamed
    }

    /// `catalog` with the model's property names where they differ from the file's, for a
    /// realm that cannot write them: the layouts keep their databases.
    func renamingInMemory(_ catalog: Catalog) -> Catalog {
        var catalog = catalog
        for change in changes {
            guard let old = change.old, old.isRenamed(by: change.info), let layout = catalog.layouts[old.name],
                  let index = catalog.schema.classes.firstIndex(where: { $0.id == old.id }) else { continue }
            let renamed = Self.renamed(old, by: change.info)
            catalog.schema.classes[index] = renamed
            catalog.layouts[old.name] = layout.renamed(as: renamed)
        }
        return catalog
    }

    /// Object keys stay what they are: they remain the primary key's bits only while the primary
    /// key is the same non-optional integer property.
    private static func primaryKeyIsObjectKey(old: StoredClass, new: StoredClass) -> Bool? {
        guard let newKey = new.primaryKeyColumn.map({ new.properties[$0] }) else { return nil }
        let oldKey = old.primaryKeyColumn.map { old.properties[$0] }
        if old.keysArePrimaryKeys, oldKey?.id == newKey.id, !newKey.isOptional { return old.primaryKeyIsObjectKey }
        return false
    }
}

extension StoredProperty {
    /// Whether `other` stores the same kind of value (optionality aside), so that its data can
    /// be kept as it is.
    func holdsSameValues(as other: StoredProperty) -> Bool {
        kind == other.kind && collection == other.collection && objectClassName == other.objectClassName
    }
}
