/// The type of a stored property, as RealmSwift names it.
///
/// ```swift
/// realm.schema["Dog"]?["age"]?.type == .int
/// ```
public enum PropertyType: Int, Sendable, CustomStringConvertible {
    /// Any integer width.
    case int
    case bool
    case float
    case double
    case string
    case data
    case date
    /// A mixed value (`AnyRealmValue`).
    case any
    /// A link to another object.
    case object
    /// Backlinks (`LinkingObjects`).
    case linkingObjects
    case objectId
    /// ``Decimal128``, and Foundation `Decimal`, which is stored as one.
    case decimal128
    case UUID

    public var description: String {
        switch self {
        case .int: "int"
        case .bool: "bool"
        case .float: "float"
        case .double: "double"
        case .string: "string"
        case .data: "data"
        case .date: "date"
        case .any: "mixed"
        case .object: "object"
        case .linkingObjects: "linking objects"
        case .objectId: "object id"
        case .decimal128: "decimal128"
        case .UUID: "uuid"
        }
    }
}
