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
            burrowPreconditionFailure("Object type '\(name)' is not in the new schema of the migration.")
        }
        let storedClass = layout.storedClass
        let given = try StoredValueConversion.trappingInvalidValues { try DynamicValueWriter.givenValues(value, of: storedClass) }
        let values = try StoredValueConversion.trappingInvalidValues { try newSide.writer.newRow(given, of: storedClass, model: models[name]) }
        let key = try claimKey(for: values, in: layout)
        try tables.insert(values, key: key, in: layout)
        let object = newSide.object(name, key)
        for property in storedClass.properties where property.collection != nil {
            if let entry = given[property.name] { object[property.name] = entry }
        }
        return object
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
        burrowPrecondition(!taken, "Attempting to create an object of type '\(layout.className)' with an existing primary key value \(primaryKey.displayText).")
        return key
    }

    /// Deletes the new object `object`.
    func delete(_ object: DynamicObject) throws {
        burrowPrecondition(object.store === newSide, "Only new objects of the migration can be deleted: pass the new object of the enumeration.")
        guard let layout = newLayout(of: object.storedClassName) else { return }
        try tables.delete(object.objectKey, in: layout)
    }
}
