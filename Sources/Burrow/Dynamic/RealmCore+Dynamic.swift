import LMDB

/// Classes read and written by name, through ``DynamicObject``s: the storage is the same as for
/// model classes, the values come from the stored schema instead of a class's fields.
extension RealmCore {
    /// The file's class `name` read by name; traps when the file has no such class.
    func verifiedDynamicBound(named name: String) -> BoundClass {
        guard let bound = dynamicBound(named: name) else { burrowPreconditionFailure("Object type '\(name)' is not managed by the Realm.") }
        return bound
    }

    /// The model class stored as `name` that this realm's schema holds while the file has no
    /// table for it yet: the dynamic API reads it as empty, and its first dynamic write creates
    /// its table, as for its model class. Only a realm without ``Realm/Configuration/objectTypes``
    /// has such classes (every model class of the program; a table comes with its first
    /// object): listed classes have their tables from the open on, and an empty list reads the
    /// file's classes only.
    func pendingModelClass(named name: String) -> ClassInfo? {
        guard configuration.objectTypes == nil, catalog.layouts[name] == nil else { return nil }
        let candidates = ModelDiscovery.modelTypes.filter { ClassInfo.storedName(of: $0) == name }
        guard candidates.count == 1, let type = candidates.first else { return nil }
        return info(type)
    }

    /// The class `name` read by name: the file's, or a class of the schema the file has no table
    /// for yet (``pendingModelClass(named:)``), whose objects are none. Traps for any other name.
    func dynamicInfo(named name: String) -> (info: ClassInfo, layout: TableLayout?) {
        if let bound = dynamicBound(named: name) { return (bound.info, bound.layout) }
        guard let model = pendingModelClass(named: name) else { burrowPreconditionFailure("Object type '\(name)' is not managed by the Realm.") }
        return (ClassInfo.dynamic(StoredClass(id: 0, info: model)), nil)
    }

    /// A dynamic accessor for the object `key` of class `className`, or `nil` when it does not exist.
    func dynamicObject(_ key: ObjectKey, of className: String) -> DynamicObject? {
        dynamicBound(named: className).flatMap { existingObject(key, in: $0) } as? DynamicObject
    }

    /// Writes loosely typed values in `write`: links to objects of this realm (adding unmanaged
    /// ones), and new objects from dictionaries or arrays.
    func dynamicWriter(in write: WriteState) -> DynamicValueWriter {
        DynamicValueWriter(tables: write.tables, linkedKey: { [unowned self] value, className in
            try dynamicLinkedKey(value, className: className, in: write)
        }, storedMixed: { [unowned self] value in
            try storedMixed(value, update: write.nestedUpdatePolicy, in: write)
        })
    }

    private func dynamicLinkedKey(_ value: Any, className: String, in write: WriteState) throws -> ObjectKey {
        if let object = value as? ObjectBase {
            if object is DynamicObject, object.management == nil {
                burrowPreconditionFailure("A DynamicObject made with init() has no class and holds no values.")
            }
            let name = object.fileClassName
            burrowPrecondition(name == className, "Object of type '\(name)' cannot be linked from a property of type '\(className)'.")
            return try managedKey(of: object, update: write.nestedUpdatePolicy, in: write)
        }
        if value is [String: Any?] || value is [Any?] {
            return try dynamicCreate(className, value: value, update: write.nestedUpdatePolicy, in: write)
        }
        throw Realm.Error(.invalidValue, "Invalid value '\(value)' of type '\(type(of: value))' for a link to '\(className)'.")
    }

    /// Writes `value` to the property in `column` of the dynamic object `object`.
    func setDynamicValue(_ value: Any?, column: Int, property: StoredProperty, on object: DynamicObject, management: ObjectBase.Management) {
        verifyThread()
        guard let write = writeState else { refuseModificationOutsideWrite() }
        let writer = dynamicWriter(in: write)
        if property.collection != nil {
            _ = object.currentRow()
            perform(in: write) {
                try StoredValueConversion.trappingInvalidValues {
                    try writer.replaceCollection(of: management.key, column: column, in: management.bound.layout, with: value)
                }
            }
            return
        }
        var stored = _PersistedValue.null
        guard perform(in: write, {
            stored = try StoredValueConversion.trappingInvalidValues { try writer.storedValue(value, for: property, of: management.bound.layout.className) }
        }) else { return }
        update(object, key: management.key, layout: management.bound.layout, column: column, to: stored)
    }

    /// Creates an object of class `className` from `value` (a dictionary, an array in property
    /// order, or an object), or with `.all` or `.modified` updates the one with its primary key
    /// (only the properties `value` gives); returns its key.
    func dynamicCreate(_ className: String, value: Any, update: UpdatePolicy, in write: WriteState) throws -> ObjectKey {
        let layout = verifiedDynamicBound(named: className).layout
        let storedClass = layout.storedClass
        let given = try DynamicValueWriter.givenValues(value, of: storedClass)
        // An embedded object is always made anew, whatever the owner's update policy.
        if layout.primaryKeyColumn == nil && storedClass.isEmbedded != true {
            burrowPrecondition(update == .error, "'\(className)' does not have a primary key and can not be updated")
        }
        let writer = dynamicWriter(in: write)
        // Objects created for the new one's links are created (or updated) the same way.
        return try write.withNestedUpdatePolicy(update) {
            // An update of an existing object writes only what is given: the values it leaves
            // out are required only of a new object.
            let values = try writer.newRow(given, of: storedClass, model: ClassInfo.type(named: className).map(info), requiringEveryValue: false)
            let claim = try claimKey(values, in: layout, write: write)
            if try claim.exists ?? (layout.row(claim.key, in: write.transaction) != nil) {
                try updateGiven(given, values: values, of: claim.key, in: layout, update: update, writer: writer, write: write)
                return claim.key
            }
            try DynamicValueWriter.requireEveryValue(values, of: storedClass)
            try write.tables.insert(values, key: claim.key, in: layout)
            for (column, property) in storedClass.properties.enumerated() where property.collection != nil {
                if let entry = given[property.name] {
                    try writer.replaceCollection(of: claim.key, column: column, in: layout, with: entry)
                }
            }
            return claim.key
        }
    }

    /// Writes the properties `given` names (but the primary key) to the existing object `key`;
    /// with `.modified`, only the values that differ. `values` are the stored values made from
    /// `given` (a new embedded object among them): made once, so that none is left without
    /// an owner.
    private func updateGiven(_ given: [String: Any?], values: [_PersistedValue], of key: ObjectKey, in layout: TableLayout,
                             update: UpdatePolicy, writer: DynamicValueWriter, write: WriteState) throws {
        let storedClass = layout.storedClass
        guard update != .error else {
            let primaryKey = layout.primaryKeyColumn.map { storedClass.properties[$0] }
            throw Realm.Error(.primaryKeyExists,
                              "Attempting to create an object of type '\(layout.className)' with an existing primary key value '\(primaryKey.flatMap { given[$0.name] ?? nil } ?? "nil")'.")
        }
        for (column, property) in storedClass.properties.enumerated() where column != layout.primaryKeyColumn {
            guard let entry = given[property.name] else { continue }
            if property.collection != nil {
                try writer.replaceCollection(of: key, column: column, in: layout, with: entry)
                continue
            }
            let stored = values[column]
            guard let row = try layout.row(key, in: write.transaction) else { burrowPreconditionFailure(TrapMessage.objectInvalidated) }
            if update == .modified, RowReader(row, key: key).value(column, kind: property.kind) == stored { continue }
            try write.tables.update(key, column: column, to: stored, row: row, in: layout)
        }
    }
}
