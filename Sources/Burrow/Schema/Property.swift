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

    public var description: String {
        var flags: [String] = []
        if isPrimary { flags.append("primary key") }
        if isIndexed { flags.append("indexed") }
        if isOptional { flags.append("optional") }
        let suffix = flags.isEmpty ? "" : " (\(flags.joined(separator: ", ")))"
        let typeName = objectClassName.map { "<\($0)>" }.map { "\(type)\($0)" } ?? "\(type)"
        return "\(name): \(typeName)\(suffix)"
    }
}
