import Foundation

/// Stores loosely typed values, given by property name, in objects of a class known from the
/// stored schema: what a ``DynamicObject``'s setter and a dynamic create write, in a live write
/// and in a migration alike. Where links point and how an `AnyRealmValue`'s objects are stored
/// is the caller's: a migration links to its own objects, a realm to its own.
struct DynamicValueWriter {
    let tables: TableWriter
    /// The key of the object `value` stands for as the target of a link to class `className`:
    /// an object, or the values of a new one.
    let linkedKey: (_ value: Any, _ className: String) throws -> ObjectKey
    /// The stored form of an `AnyRealmValue` other than `.none`.
    let storedMixed: (AnyRealmValue) throws -> _PersistedValue

    /// The stored form of `value` for the property `property` (not a collection) of `className`.
    func storedValue(_ value: Any?, for property: StoredProperty, of className: String) throws -> _PersistedValue {
        switch property.kind {
        case .link:
            guard let value = StoredValueConversion.unwrapped(value) else { return .null }
            return .link(try linkedKey(value, property.objectClassName!).rawValue)
        case .mixed:
            guard let value = StoredValueConversion.unwrapped(value) else { return .null }
            guard let mixed = AnyRealmValue._fromAny(value) else {
                throw Realm.Error(.invalidValue, "Invalid value '\(value)' for 'mixed' property '\(className).\(property.name)'.")
            }
            if case .none = mixed { return .null }
            return try storedMixed(mixed)
        default:
            return try StoredValueConversion.scalar(value, for: property, of: className)
        }
    }

    /// The row of a new object of `storedClass` from `given` values by property name; a
    /// property missing from `given` takes the default of `model` (the model class of that
    /// name), else `nil` when it may hold it. Collections are left empty.
    ///
    /// Traps, unless `requiringEveryValue` is `false`, for a required property missing with no
    /// model to give its default, as RealmSwift does; an update, which writes only what is
    /// given, leaves such a property `nil` and checks with ``requireEveryValue(_:of:)`` only
    /// if it turns out to add an object.
    func newRow(_ given: [String: Any?], of storedClass: StoredClass, model: ClassInfo?, requiringEveryValue: Bool = true) throws -> [_PersistedValue] {
        let defaults = model?.type.init()
        var values = [_PersistedValue](repeating: .null, count: storedClass.properties.count)
        for (column, property) in storedClass.properties.enumerated() where property.collection == nil {
            if let entry = given[property.name] {
                values[column] = try storedValue(entry, for: property, of: storedClass.name)
            } else if let model, let defaults, let field = model.fieldIndex[property.name], property.kind != .link,
                      property.kind != .mixed, model.fields[field].kind == property.kind {
                values[column] = StoredValueConversion.adapted(model.unmanagedValue(field, in: defaults), to: property)
            }
        }
        if requiringEveryValue { try Self.requireEveryValue(values, of: storedClass) }
        return values
    }

    /// Refuses a required property of `storedClass` that `values` (a new row) leaves `nil`.
    ///
    /// - Throws: ``Realm/Error/Code/invalidValue``.
    static func requireEveryValue(_ values: [_PersistedValue], of storedClass: StoredClass) throws(Realm.Error) {
        for (column, property) in storedClass.properties.enumerated() where property.collection == nil && values[column].isNull {
            guard property.isOptional || property.kind == .link || property.kind == .mixed else {
                throw Realm.Error(.invalidValue, "Missing value for property '\(storedClass.name).\(property.name)'.")
            }
        }
    }

    /// Replaces the list, set or map in `column` of `owner` by the elements of `value` (an
    /// array, or a dictionary for a map; `nil` empties it).
    func replaceCollection(of owner: ObjectKey, column: Int, in layout: TableLayout, with value: Any?) throws {
        let property = layout.storedClass.properties[column]
        var element = property
        element.collection = nil
        let description = "\(layout.className).\(property.name)"
        switch property.collection {
        case .map?:
            let entries = try StoredValueConversion.unwrapped(value).map { value throws(Realm.Error) -> [(key: String, value: Any?)] in
                if let ordered = value as? OrderedMapEntries { return ordered.entries }
                guard let entries = value as? [String: Any?] else { throw Realm.Error(.invalidValue, "Invalid value '\(value)' for map property '\(description)'.") }
                return entries.map { ($0.key, $0.value) }
            } ?? []
            try tables.removeMap(of: owner, column: column, in: layout)
            for (key, entry) in entries {
                try tables.setMapValue(try storedValue(entry, for: element, of: layout.className), for: key, owner: owner, column: column, in: layout)
            }
        default:
            let elements = try StoredValueConversion.unwrapped(value).map { value throws(Realm.Error) -> [Any?] in
                guard let elements = Self.elements(of: value) else {
                    throw Realm.Error(.invalidValue, "Invalid value '\(value)' for collection property '\(description)'.")
                }
                return elements
            } ?? []
            if property.collection == .set {
                try tables.removeSet(of: owner, column: column, in: layout)
                for entry in elements {
                    try tables.insertIntoSet(try storedValue(entry, for: element, of: layout.className), owner: owner, column: column, in: layout)
                }
            } else {
                try tables.removeList(of: owner, column: column, in: layout)
                for (index, entry) in elements.enumerated() {
                    try tables.putListElement(try storedValue(entry, for: element, of: layout.className), owner: owner,
                                              position: UInt64(index + 1) * ListEntries.gap, column: column, in: layout)
                }
            }
        }
    }

    /// The elements of an array, or of a list or set of any element type, as given to a
    /// collection property.
    private static func elements(of value: Any) -> [Any?]? {
        if let items = value as? [Any?] { return items }
        if let collection = value as? any Sequence, !(value is String), !(value is Data), !(value is [String: Any?]) {
            return collection.map { $0 }
        }
        return nil
    }

    /// `value`'s values by property name: a dictionary, an array in property order, or an
    /// object with the same property names.
    ///
    /// - Throws: ``Realm/Error/Code/invalidValue`` for a name the class does not have, more
    ///   values than properties, or a value of another shape.
    static func givenValues(_ value: Any, of storedClass: StoredClass) throws(Realm.Error) -> [String: Any?] {
        let names = storedClass.properties.map(\.name)
        func named(_ entries: [String: Any?]) throws(Realm.Error) -> [String: Any?] {
            for name in entries.keys where !names.contains(name) {
                throw Realm.Error(.invalidValue, "Invalid property name '\(name)' for class '\(storedClass.name)'.")
            }
            return entries
        }
        // A dictionary of `Any`, what most callers pass: its cast to `[String: Any?]` below
        // would convert it value by value.
        if Swift.type(of: value) == [String: Any].self, let entries = value as? [String: Any] {
            return try named(entries.mapValues { $0 })
        }
        switch value {
        case let entries as [String: Any?]:
            return try named(entries)
        case let items as [Any?]:
            guard items.count <= names.count else {
                throw Realm.Error(.invalidValue, "Invalid array input: more values (\(items.count)) than properties (\(names.count)) of '\(storedClass.name)'.")
            }
            return Dictionary(uniqueKeysWithValues: zip(names, items))
        case let object as Object:
            return Dictionary(uniqueKeysWithValues: names.map { ($0, object[$0]) })
        default:
            throw Realm.Error(.invalidValue, "Invalid value '\(value)' to create an object of type '\(storedClass.name)': use a dictionary or an array.")
        }
    }
}
