/// Every object class a realm stores.
///
/// ```swift
/// for objectSchema in realm.schema.objectSchema { print(objectSchema.className) }
/// let dog = realm.schema["Dog"]
/// ```
public struct Schema: Equatable, Sendable, CustomStringConvertible {
    /// The classes, sorted by name.
    public let objectSchema: [ObjectSchema]

    init(_ objectSchema: [ObjectSchema]) {
        self.objectSchema = objectSchema.sorted { $0.className < $1.className }
    }

    /// The class called `className`, if the realm stores it.
    public subscript(className: String) -> ObjectSchema? {
        objectSchema.first { $0.className == className }
    }

    public var description: String {
        "Schema {\n" + objectSchema.map { "\($0)" }.joined(separator: "\n") + "\n}"
    }
}

extension Schema {
    /// The schema of a realm whose configuration lists `declared` classes (with what they link
    /// to), over a file storing `stored`: exactly the declared classes; with none declared,
    /// every model class of the program (``ModelDiscovery``) and every class the file stores.
    static func of(declared: [ClassInfo]?, stored: StoredSchema) -> Schema {
        if let declared { return Schema(declared.map(\.objectSchema)) }
        return of(models: ClassInfo.closure(of: ModelDiscovery.modelTypes), stored: stored)
    }

    /// The schema of the model classes `models` over a file storing `stored`: every model and
    /// every stored class no model describes. Traps when two models share a stored name
    /// (`models` holds each class once, as ``ClassInfo/closure(of:)`` gives them).
    static func of(models: [ClassInfo], stored: StoredSchema) -> Schema {
        var byName: [String: ClassInfo] = [:]
        for info in models {
            if let other = byName.updateValue(info, forKey: info.className) {
                burrowPreconditionFailure("Two model classes are both stored as '\(info.className)': '\(String(reflecting: other.type))' and "
                                          + "'\(String(reflecting: info.type))'. List the classes this realm stores in Realm.Configuration.objectTypes.")
            }
        }
        let unmodelled = stored.classes.filter { byName[$0.name] == nil }.map(\.objectSchema)
        return Schema(models.map(\.objectSchema) + unmodelled)
    }
}
