/// Moves a file's data to a new schema version: given to the ``MigrationBlock`` that runs once,
/// when a realm opens a file with a lower schema version.
///
/// ```swift
/// var config = Realm.Configuration(schemaVersion: 2)
/// config.migrationBlock = { migration, oldSchemaVersion in
///     if oldSchemaVersion < 2 {
///         migration.renameProperty(onType: "Person", from: "name", to: "fullName")
///         migration.enumerateObjects(ofType: "Person") { oldObject, newObject in
///             newObject!["age"] = Int(oldObject!["age"] as! String) ?? 0
///         }
///         migration.deleteData(forType: "Legacy")
///     }
/// }
/// let realm = try Realm(configuration: config)
/// ```
/// Before the block runs, added properties hold their defaults, removed ones are gone from the
/// new objects (the old objects still have them), and a property whose type changed holds its
/// default, to be converted by the block. The whole migration is one write transaction: if the
/// block traps, or the process dies during it, the file stays as it was.
public final class Migration {
    let run: MigrationRun

    init(run: MigrationRun) {
        self.run = run
    }

    /// The schema of the file before the migration.
    public var oldSchema: Schema { Schema(run.oldCatalog.schema.classes.map(\.objectSchema)) }

    /// The schema after the migration: the program's model classes.
    public var newSchema: Schema { Schema(run.session.schema.classes.filter { run.models[$0.name] != nil }.map(\.objectSchema)) }

    /// Calls `block` with each object of class `typeName` the file held before the migration,
    /// and the same object in the new schema (`nil` once deleted, or when the new schema has no
    /// such class). Objects created during the migration are not enumerated.
    ///
    /// ```swift
    /// migration.enumerateObjects(ofType: "Dog") { old, new in new?["age"] = (old!["age"] as! Int) * 7 }
    /// ```
    public func enumerateObjects(ofType typeName: String, _ block: MigrationObjectEnumerateBlock) {
        do {
            try run.enumerateObjects(ofType: typeName, block)
        } catch {
            run.fail(error)
        }
    }

    /// Creates an object of class `typeName` in the new schema, from a dictionary of property
    /// names to values or an array of values in property order; properties it does not give
    /// take the model class's defaults.
    ///
    /// ```swift
    /// migration.create("Dog", value: ["name": "Rex", "age": 3])
    /// ```
    /// Traps for a class the new schema does not have, or a primary key already taken.
    @discardableResult
    public func create(_ typeName: String, value: Any = [Any]()) -> MigrationObject {
        do {
            return try run.create(typeName, value: value)
        } catch {
            run.fail(error)
            return run.newSide.object(typeName, ObjectKey(0))
        }
    }

    /// Deletes a new object of the migration (the second argument of the enumeration block).
    ///
    /// ```swift
    /// migration.enumerateObjects(ofType: "Dog") { _, new in if (new!["age"] as! Int) < 0 { migration.delete(new!) } }
    /// ```
    public func delete(_ object: MigrationObject) {
        do {
            try run.delete(object)
        } catch {
            run.fail(error)
        }
    }

    /// Deletes every object of class `typeName`; a class the new schema does not have leaves
    /// the file altogether. Returns whether the file had the class.
    ///
    /// ```swift
    /// migration.deleteData(forType: "Legacy")
    /// ```
    @discardableResult
    public func deleteData(forType typeName: String) -> Bool {
        do {
            return try run.deleteData(forType: typeName)
        } catch {
            run.fail(error)
            return false
        }
    }

    /// Renames property `oldName` of class `typeName` to `newName`, keeping its values: the old
    /// schema has `oldName`, the new one `newName`, of the same type (it may become optional).
    ///
    /// ```swift
    /// migration.renameProperty(onType: "Person", from: "name", to: "fullName")
    /// ```
    /// Traps when a property is missing or the types differ, with RealmSwift's messages.
    public func renameProperty(onType typeName: String, from oldName: String, to newName: String) {
        do {
            try run.renameProperty(onType: typeName, from: oldName, to: newName)
        } catch {
            run.fail(error)
        }
    }
}

/// An object in a migration, read and written by property name.
public typealias MigrationObject = DynamicObject

/// The block ``Migration/enumerateObjects(ofType:_:)`` calls with each old object and its new form.
public typealias MigrationObjectEnumerateBlock = (_ oldObject: MigrationObject?, _ newObject: MigrationObject?) -> Void

/// Moves the data of a file with schema version `oldSchemaVersion` to the configuration's
/// ``Realm/Configuration/schemaVersion``; see ``Migration``.
public typealias MigrationBlock = @Sendable (_ migration: Migration, _ oldSchemaVersion: UInt64) -> Void
