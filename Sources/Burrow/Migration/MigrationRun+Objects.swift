import Foundation

/// The objects a migration block enumerates, creates and deletes.
extension MigrationRun {
    /// Calls `body` with each object of class `name` in the old schema and its new form (`nil`
    /// once deleted, or when the new schema does not have the class).
    func enumerateObjects(ofType name: String, _ body: (DynamicObject?, DynamicObject?) -> Void) throws {
        guard let old = oldCatalog.layouts[name] else { return }
        let inNewSchema = models[name] != nil
        for key in try keys(of: old, in: oldSnapshot) {
            let new = try inNewSchema && newSide.contains(name, key) ? newSide.object(name, key) : nil
            body(oldSide.object(name, key), new)
        }
    }

    /// Creates an object of class `name` in the new schema from `value`: a dictionary of
    /// property names to values, an array of values in property order, or another dynamic
    /// object. Properties `value` does not give take the model class's defaults.
    func create(_ name: String, value: Any) throws -> DynamicObject {
        guard let layout = newLayout(of: name), models[name] != nil else {
            preconditionFailure("Object type '\(name)' is not in the new schema of the migration.")
        }
        let storedClass = layout.storedClass
        let given = givenValues(value, of: storedClass)
        let defaults = models[name]!.type.init()
        let info = models[name]!
        var values = [_PersistedValue](repeating: .null, count: storedClass.properties.count)
        for (column, property) in storedClass.properties.enumerated() where property.collection == nil {
            if let entry = given[property.name] {
                values[column] = try newSide.storedValue(entry, for: property, of: name)
            } else if let field = info.fieldIndex[property.name], property.kind != .link, property.kind != .mixed {
                values[column] = StoredValueConversion.adapted(info.unmanagedValue(field, in: defaults), to: property)
            } else {
                values[column] = StoredValueConversion.defaultValue(of: property)
            }
        }
        let key = try claimKey(for: values, in: layout)
        try tables.insert(values, key: key, in: layout)
        let object = newSide.object(name, key)
        for property in storedClass.properties where property.collection != nil {
            if let entry = given[property.name] { object[property.name] = entry }
        }
        return object
    }

    /// `value`'s values by property name.
    private func givenValues(_ value: Any, of storedClass: StoredClass) -> [String: Any?] {
        switch value {
        case let entries as [String: Any?]:
            for name in entries.keys where !storedClass.properties.contains(where: { $0.name == name }) {
                preconditionFailure("Invalid property name '\(name)' for class '\(storedClass.name)'.")
            }
            return entries
        case let items as [Any?]:
            precondition(items.count <= storedClass.properties.count,
                         "Invalid array input: more values (\(items.count)) than properties (\(storedClass.properties.count)) of '\(storedClass.name)'.")
            return Dictionary(uniqueKeysWithValues: zip(storedClass.properties.map(\.name), items))
        case let object as DynamicObject:
            return Dictionary(uniqueKeysWithValues: storedClass.properties.map { ($0.name, object[$0.name]) })
        default:
            preconditionFailure("Invalid value '\(value)' to create an object of type '\(storedClass.name)': use a dictionary or an array.")
        }
    }

    /// The key a created object takes: its primary key's bits, or a fresh one.
    private func claimKey(for values: [_PersistedValue], in layout: TableLayout) throws -> ObjectKey {
        guard let column = layout.primaryKeyColumn else { return try nextObjectKey(for: layout) }
        let primaryKey = values[column]
        let taken: Bool
        let key: ObjectKey
        if layout.usesPrimaryKeyAsObjectKey, case .int(let integer) = primaryKey {
            key = ObjectKey(primaryKey: integer)
            taken = try layout.row(key, in: write) != nil
        } else {
            key = try nextObjectKey(for: layout)
            taken = try layout.find(primaryKey: primaryKey, in: write) != nil
        }
        precondition(!taken, "Attempting to create an object of type '\(layout.className)' with an existing primary key value \(primaryKey.displayText).")
        return key
    }

    /// Deletes the new object `object`.
    func delete(_ object: DynamicObject) throws {
        precondition(object.store === newSide, "Only new objects of the migration can be deleted: pass the new object of the enumeration.")
        guard let layout = newLayout(of: object.storedClassName) else { return }
        try tables.delete(object.objectKey, in: layout)
    }
}
