import Foundation

extension Realm {
    /// Adds the classes of `schemas` that the file does not have, in the write under way: the
    /// dynamic API's way to give a file classes no model class describes (`burrow import` makes
    /// a new file from an export's schema this way). Classes the file has are left as they are;
    /// if the write is cancelled, so are the classes.
    ///
    /// ```swift
    /// let realm = try Realm(configuration: Realm.Configuration(fileURL: url, objectTypes: []))
    /// try realm.write {
    ///     try realm.addClasses(schemas)
    ///     realm.dynamicCreate("Dog", value: ["id": 1, "name": "Rex"])
    /// }
    /// ```
    ///
    /// - Throws: ``Realm/Error`` `schemaMismatch` naming the first schema that a model class
    ///   could not declare (a primary key of another type than integers, strings, UUIDs and
    ///   object ids, two primary keys, an index on a type that cannot have one, a link to a
    ///   class neither in `schemas` nor in the file, a repeated name); LMDB's errors creating
    ///   the tables, translated. Traps outside a write transaction.
    package func addClasses(_ schemas: [ObjectSchema]) throws {
        let existing = Set(fileSchema.objectSchema.map(\.className))
        let added = schemas.filter { !existing.contains($0.className) }
        guard !added.isEmpty else { return }
        let known = existing.union(added.map(\.className))
        let stored = try added.map { try StoredClass(id: 0, checking: $0, classes: known) }
        let write = core.verifyWrite(doing: "add classes to")
        do {
            for storedClass in stored {
                _ = try core.coordinator.catalogs.table(named: storedClass.name, creatingWith: { id in
                    var made = storedClass
                    made.id = id
                    return made
                }, in: write.transaction, changes: write.catalogChanges)
            }
        } catch {
            throw Realm.Error(translating: error, path: core.coordinator.path, operation: .write)
        }
    }
}

extension StoredClass {
    /// The stored form of `schema`, checked as a model class's would be; `classes` are the
    /// names its links may name.
    ///
    /// - Throws: ``Realm/Error`` `schemaMismatch` for a schema no model class could declare.
    init(id: UInt32, checking schema: ObjectSchema, classes: Set<String>) throws {
        func refuse(_ reason: String) -> Realm.Error {
            Realm.Error(.schemaMismatch, "Class '\(schema.className)' cannot be created: \(reason).")
        }
        guard !schema.className.isEmpty else { throw Realm.Error(.schemaMismatch, "A class cannot be created without a name.") }
        guard Set(schema.properties.map(\.name)).count == schema.properties.count else { throw refuse("two properties have one name") }
        guard schema.properties.filter(\.isPrimary).count <= 1 else { throw refuse("it has two primary keys") }
        var properties: [StoredProperty] = []
        for (index, property) in schema.properties.enumerated() {
            guard !property.name.isEmpty else { throw refuse("a property has no name") }
            let kind: _StorageKind
            switch property.type {
            case .int: kind = .int
            case .bool: kind = .bool
            case .float: kind = .float
            case .double: kind = .double
            case .string: kind = .string
            case .data: kind = .data
            case .date: kind = .date
            case .any: kind = .mixed
            case .objectId: kind = .objectId
            case .decimal128: kind = .decimal
            case .UUID: kind = .uuid
            case .object:
                guard let target = property.objectClassName, classes.contains(target) else {
                    throw refuse("property '\(property.name)' links to '\(property.objectClassName ?? "")', which is not a class of the file")
                }
                kind = .link
            case .linkingObjects:
                continue  // backlinks are not stored
            }
            let collections = [property.isArray, property.isSet, property.isMap].filter { $0 }.count
            guard collections <= 1 else { throw refuse("property '\(property.name)' is more than one kind of collection") }
            if property.isPrimary {
                guard collections == 0, [.int, .string, .uuid, .objectId].contains(kind) else {
                    throw refuse("property '\(property.name)' of type \(property.type) cannot be a primary key")
                }
                guard !schema.isEmbedded else { throw refuse("an embedded class cannot have a primary key") }
            }
            if property.isIndexed && !property.isPrimary {
                guard collections == 0, kind.isIndexable else { throw refuse("property '\(property.name)' of type \(property.type) cannot be indexed") }
            }
            if kind == .link && property.isOptional != (collections == 0 || property.isMap) {
                throw refuse("property '\(property.name)' links to objects as no model class can: to-one links and maps of objects "
                             + "are optional, lists and sets of objects are not")
            }
            let collection: _CollectionKind? = property.isArray ? .list : property.isSet ? .set : property.isMap ? .map : nil
            properties.append(StoredProperty(id: UInt32(index + 1), name: property.name, kind: kind,
                                             isOptional: property.isOptional, isIndexed: property.isIndexed && !property.isPrimary,
                                             isPrimary: property.isPrimary, objectClassName: kind == .link ? property.objectClassName : nil,
                                             collection: collection, columnName: nil))
        }
        self.init(id: id, name: schema.className, properties: properties, nextPropertyID: UInt32(schema.properties.count + 1))
        isEmbedded = schema.isEmbedded ? true : nil
    }
}
