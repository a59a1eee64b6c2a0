/// The stored shape of one object class: its name and properties in declaration order.
///
/// ```swift
/// let schema = Dog().objectSchema
/// schema.className                   // "Dog"
/// schema.properties.map(\.name)      // ["name", "age"]
/// ```
public struct ObjectSchema: Equatable, Sendable, CustomStringConvertible {
    /// The class's unqualified name, under which it is stored.
    public let className: String
    /// The stored properties, in declaration order.
    public let properties: [Property]
    /// The computed properties: `LinkingObjects`, in declaration order.
    public let computedProperties: [Property]
    /// Whether the class is embedded (an ``EmbeddedObject``): its objects live inside their
    /// owner and cannot be queried or created alone.
    public let isEmbedded: Bool

    package init(className: String, properties: [Property], computedProperties: [Property] = [], isEmbedded: Bool = false) {
        self.className = className
        self.properties = properties
        self.computedProperties = computedProperties
        self.isEmbedded = isEmbedded
    }

    /// The model class this process uses for the class, or ``DynamicObject`` for a class of the
    /// file that no model class of this process declares.
    ///
    /// ```swift
    /// realm.schema["Dog"]?.objectClass == Dog.self    // true
    /// ```
    public var objectClass: ObjectBase.Type { ClassInfo.type(named: className) ?? DynamicObject.self }

    /// The primary key property, if the class has one.
    public var primaryKeyProperty: Property? { properties.first(where: \.isPrimary) }

    /// The stored or computed property called `propertyName`, if any.
    public subscript(propertyName: String) -> Property? {
        properties.first { $0.name == propertyName } ?? computedProperties.first { $0.name == propertyName }
    }

    /// The class in RealmSwift's layout: its name, then each property's description indented
    /// by a tab.
    public var description: String {
        let lines = properties.map { "\t" + $0.description.replacingOccurrences(of: "\n", with: "\n\t") }.joined(separator: "\n")
        return "\(className) {\n\(lines)\n}"
    }
}
