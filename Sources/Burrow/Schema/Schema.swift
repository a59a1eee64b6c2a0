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
