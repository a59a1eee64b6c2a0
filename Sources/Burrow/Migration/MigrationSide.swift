import LMDB

/// One side of a migration as ``DynamicObject``s see it: the old objects, read from the
/// snapshot of the file before the migration, or the new ones, read and written in the
/// migration's write.
final class MigrationSide: DynamicObjectStore {
    unowned let run: MigrationRun
    let isOld: Bool
    /// Whether the migration block is still running: objects used after it trap.
    var isActive = true

    init(run: MigrationRun, isOld: Bool) {
        self.run = run
        self.isOld = isOld
    }

    private var transaction: Transaction { isOld ? run.oldSnapshot : run.write }

    /// The class `className` on this side, if it has one.
    private func existingLayout(of className: String) -> TableLayout? {
        isOld ? run.oldCatalog.layouts[className] : run.newLayout(of: className)
    }

    private func layout(of className: String) -> TableLayout {
        burrowPrecondition(isActive, "Migration objects can only be used inside the migration block.")
        guard let layout = existingLayout(of: className) else {
            burrowPreconditionFailure("Object type '\(className)' is not in the \(isOld ? "old" : "new") schema of the migration.")
        }
        return layout
    }

    private func column(of name: String, in layout: TableLayout) -> Int {
        guard let column = layout.storedClass.properties.firstIndex(where: { $0.name == name }) else {
            burrowPreconditionFailure("Invalid property name '\(name)' for class '\(layout.className)'.")
        }
        return column
    }

    func objectSchema(of className: String) -> ObjectSchema { layout(of: className).storedClass.objectSchema }

    /// The object of class `className` and key `key` on this side.
    func object(_ className: String, _ key: ObjectKey) -> DynamicObject {
        DynamicObject(store: self, className: className, key: key)
    }

    /// Whether this side has the object.
    func contains(_ className: String, _ key: ObjectKey) throws -> Bool {
        guard let layout = existingLayout(of: className) else { return false }
        return try layout.row(key, in: transaction) != nil
    }

    // MARK: Reading

    func value(of name: String, in object: DynamicObject) -> Any? {
        let layout = layout(of: object.storedClassName)
        let column = column(of: name, in: layout)
        let property = layout.storedClass.properties[column]
        do {
            if let database = layout.collectionDatabase(of: column) {
                if property.collection == .map {
                    let entries = try MapEntries.entries(of: object.objectKey, in: database, kind: property.kind, txn: transaction)
                    return Dictionary(entries.map { ($0.key, swiftValue($0.value, of: property)) }, uniquingKeysWith: { $1 })
                }
                return try ListEntries.values(of: object.objectKey, in: database, kind: property.kind, txn: transaction)
                    .map { swiftValue($0, of: property) }
            }
            guard let row = try layout.row(object.objectKey, in: transaction) else {
                burrowPreconditionFailure("Object of type '\(layout.className)' has been deleted in the migration.")
            }
            return swiftValue(try RowReader(row, key: object.objectKey).checkedValue(column, kind: property.kind), of: property)
        } catch {
            burrowPreconditionFailure("Cannot read '\(layout.className).\(name)' in the migration of '\(run.path)': \(Realm.Error.message(of: error))")
        }
    }

    private func swiftValue(_ value: _PersistedValue, of property: StoredProperty) -> Any? {
        switch value {
        case .null: nil
        case .link(let key): object(property.objectClassName!, ObjectKey(key))
        case .mixed(let inner): mixedValue(inner)
        default: value.anyValue
        }
    }

    private func mixedValue(_ value: _PersistedValue) -> AnyRealmValue {
        switch value {
        case .typedLink(let classID, let key):
            let catalog = isOld ? run.oldCatalog : run.session
            guard let name = catalog.schema.classes.first(where: { $0.id == classID })?.name else { return .none }
            return .object(object(name, ObjectKey(key)))
        case .list(let elements): return .fromArray(elements.map(mixedValue))
        case .dictionary(let keys, let values): return .fromDictionary(Dictionary(zip(keys, values.map(mixedValue)), uniquingKeysWith: { $1 }))
        default: return AnyRealmValue(scalar: value)
        }
    }

    // MARK: Writing

    func setValue(_ value: Any?, of name: String, in object: DynamicObject) {
        burrowPrecondition(!isOld, "Cannot modify '\(object.storedClassName).\(name)' of an old object: the old objects of a migration are read-only.")
        do {
            var layout = layout(of: object.storedClassName)
            let column = column(of: name, in: layout)
            let property = layout.storedClass.properties[column]
            if property.isPrimary && !run.isRebuilt(layout.className) {
                try run.releasePrimaryKey(of: layout.className)
                layout = self.layout(of: object.storedClassName)
            }
            // A value that does not fit is the migration block's mistake.
            if property.collection != nil {
                try StoredValueConversion.trappingInvalidValues { try writer.replaceCollection(of: object.objectKey, column: column, in: layout, with: value) }
                return
            }
            let stored = try StoredValueConversion.trappingInvalidValues { try writer.storedValue(value, for: property, of: layout.className) }
            guard let row = try layout.row(object.objectKey, in: run.write) else {
                burrowPreconditionFailure("Object of type '\(layout.className)' has been deleted in the migration.")
            }
            try run.tables.update(object.objectKey, column: column, to: stored, row: row, in: layout)
        } catch {
            run.fail(error)
        }
    }

    /// Writes loosely typed values into the new objects.
    var writer: DynamicValueWriter {
        DynamicValueWriter(tables: run.tables, linkedKey: { [unowned self] value, className in try linkedKey(value, className: className) },
                           storedMixed: { [unowned self] value in .mixed(try storedMixed(value)) })
    }

    /// The key of the new object `value` stands for: a new object itself, the new form of an
    /// old object, or a dictionary or array of values for an object created here.
    private func linkedKey(_ value: Any, className: String) throws -> ObjectKey {
        if let linked = value as? DynamicObject {
            burrowPrecondition(linked.storedClassName == className,
                               "Object of type '\(linked.storedClassName)' cannot be linked from a property of type '\(className)'.")
            if linked.store === self { return linked.objectKey }
            let hasNewForm = try linked.store === run.oldSide && contains(className, linked.objectKey)
            burrowPrecondition(hasNewForm,
                               "Object of type '\(className)' is not in the new schema of the migration.")
            return linked.objectKey
        }
        if value is [String: Any] || value is [Any] { return try run.create(className, value: value).objectKey }
        burrowPreconditionFailure("Invalid value '\(value)' of type '\(type(of: value))' for a link to '\(className)'.")
    }

    private func storedMixed(_ value: AnyRealmValue) throws -> _PersistedValue {
        switch value {
        case .object(let linked):
            guard let linked = linked as? DynamicObject else {
                burrowPreconditionFailure("An AnyRealmValue in a migration can only hold objects of the migration.")
            }
            let key = try linkedKey(linked, className: linked.storedClassName)
            return .typedLink(classID: layout(of: linked.storedClassName).classID, key: key.rawValue)
        case .list(let list): return .list(try list.map(storedMixed))
        case .dictionary(let map):
            let entries = zip(map.keys, map.values).sorted { $0.0.utf8.lexicographicallyPrecedes($1.0.utf8) }
            return .dictionary(keys: entries.map(\.0), values: try entries.map { try storedMixed($0.1) })
        default: return value.scalar
        }
    }
}
