/// One stored property of an object schema.
///
/// ```swift
/// let age = realm.schema["Dog"]!["age"]!
/// print(age.name, age.type, age.isOptional)   // age int false
/// ```
public struct Property: Equatable, Sendable, CustomStringConvertible {
    /// The property's name in the model class (without the wrapper's underscore).
    public let name: String
    /// The stored type.
    public let type: PropertyType
    /// Whether the property can hold `nil`.
    public let isOptional: Bool
    /// Whether the property has a secondary index.
    public let isIndexed: Bool
    /// Whether the property is the class's primary key.
    public let isPrimary: Bool
    /// The linked class's name for `.object` and `.linkingObjects` properties.
    public let objectClassName: String?
    /// Whether the property is a `List`.
    public let isArray: Bool
    /// Whether the property is a `MutableSet`.
    public let isSet: Bool
    /// Whether the property is a `Map`.
    public let isMap: Bool
    /// For a `LinkingObjects` property: the link property of `objectClassName` it follows back.
    public let linkOriginPropertyName: String?
    /// The name the file records for the property: its name, unless the class maps it to
    /// another (``Object/propertiesMapping()``).
    public let columnName: String

    package init(name: String, type: PropertyType, isOptional: Bool, isIndexed: Bool, isPrimary: Bool, objectClassName: String? = nil,
         isArray: Bool = false, isSet: Bool = false, isMap: Bool = false, linkOriginPropertyName: String? = nil,
         columnName: String? = nil) {
        self.name = name
        self.columnName = columnName ?? name
        self.type = type
        self.isOptional = isOptional
        self.isIndexed = isIndexed
        self.isPrimary = isPrimary
        self.objectClassName = objectClassName
        self.isArray = isArray
        self.isSet = isSet
        self.isMap = isMap
        self.linkOriginPropertyName = linkOriginPropertyName
    }

    /// The property in RealmSwift's layout: its name, then `type = …;`, the linked class and
    /// origin property of links, `columnName`, and `indexed`, `isPrimary`, `array`, `set`,
    /// `dictionary` and `optional` as `YES` or `NO`.
    public var description: String {
        func flag(_ value: Bool) -> String { value ? "YES" : "NO" }
        var lines = ["\ttype = \(type);"]
        if type == .object || type == .linkingObjects {
            lines.append("\tobjectClassName = \(objectClassName ?? "(null)");")
            lines.append("\tlinkOriginPropertyName = \(linkOriginPropertyName ?? "(null)");")
        }
        lines += ["\tcolumnName = \(columnName);", "\tindexed = \(flag(isIndexed));", "\tisPrimary = \(flag(isPrimary));",
                  "\tarray = \(flag(isArray));", "\tset = \(flag(isSet));", "\tdictionary = \(flag(isMap));", "\toptional = \(flag(isOptional));"]
        return "\(name) {\n" + lines.joined(separator: "\n") + "\n}"
    }
}
