import Foundation

/// The storage kind of a property: how its values are laid out in rows and index keys.
///
/// Every integer width is stored as a 64-bit integer; `Float` keeps its own width.
///
/// Implementation detail of Burrow; do not use.
public enum _StorageKind: UInt8, Codable, Sendable {
    case bool = 1, int, float, double, string, data, date, uuid, objectId, decimal
    /// A to-one link: the target's object key (its class comes from the schema).
    case link
    /// An `AnyRealmValue`: each value carries its own kind.
    case mixed

    /// Bytes a value of this kind takes in a row, or `nil` for variable-length kinds.
    var fixedWidth: Int? {
        switch self {
        case .bool: 1
        case .int, .double, .date, .link: 8
        case .float: 4
        case .uuid: 16
        case .objectId: 12
        case .string, .data, .decimal, .mixed: nil
        }
    }

    /// Whether values of this kind can be indexed or be a primary key's type family.
    var isIndexable: Bool {
        switch self {
        case .bool, .int, .string, .date, .uuid, .objectId: true
        case .float, .double, .data, .decimal, .link, .mixed: false
        }
    }

    /// The public property type for this kind.
    var propertyType: PropertyType {
        switch self {
        case .bool: .bool
        case .int: .int
        case .float: .float
        case .double: .double
        case .string: .string
        case .data: .data
        case .date: .date
        case .uuid: .UUID
        case .objectId: .objectId
        case .decimal: .decimal128
        case .link: .object
        case .mixed: .any
        }
    }
}

/// The collection a property holds, if any.
///
/// Implementation detail of Burrow; do not use.
public enum _CollectionKind: UInt8, Codable, Sendable {
    /// An ordered `List`.
    case list = 1
    /// `LinkingObjects`: computed from the links to the object, never stored.
    case linkingObjects = 2
    /// A `MutableSet` of distinct elements.
    case set = 3
    /// A `Map` from strings to elements.
    case map = 4
}

/// One stored value, the common currency between model properties, rows and index keys.
///
/// Implementation detail of Burrow; do not use.
public enum _PersistedValue: Hashable, Sendable {
    case null
    case bool(Bool)
    case int(Int64)
    case float(Float)
    case double(Double)
    case string(String)
    case data(Data)
    case date(Date)
    case uuid(UUID)
    case objectId(ObjectId)
    case decimal(Decimal128)
    /// A to-one link: the raw object key of the target.
    case link(UInt64)
    /// A link that names its class too, as an `AnyRealmValue` holds it.
    case typedLink(classID: UInt32, key: UInt64)
    /// A value of an `AnyRealmValue` property: the value with its own kind.
    indirect case mixed(_PersistedValue)
    /// A list held by an `AnyRealmValue`: its elements, each with its own kind (never `.mixed`).
    indirect case list([_PersistedValue])
    /// A dictionary held by an `AnyRealmValue`: its keys in UTF-8 byte order, distinct by
    /// their bytes, and their values, each with its own kind (never `.mixed`).
    indirect case dictionary(keys: [String], values: [_PersistedValue])

    /// Whether this is `.null`: a tag check, where `== .null` goes through the whole equality.
    @inlinable
    var isNull: Bool {
        if case .null = self { true } else { false }
    }

    /// Equality as stored: strings compare by their UTF-8 bytes, as rows, indexes and queries
    /// do, so canonically equivalent but differently encoded strings are different values.
    public static func == (lhs: _PersistedValue, rhs: _PersistedValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case let (.bool(a), .bool(b)): a == b
        case let (.int(a), .int(b)): a == b
        case let (.float(a), .float(b)): a == b
        case let (.double(a), .double(b)): a == b
        case let (.string(a), .string(b)): a.utf8.elementsEqual(b.utf8)
        case let (.data(a), .data(b)): a == b
        case let (.date(a), .date(b)): a == b
        case let (.uuid(a), .uuid(b)): a == b
        case let (.objectId(a), .objectId(b)): a == b
        case let (.decimal(a), .decimal(b)): a == b
        case let (.link(a), .link(b)): a == b
        case let (.typedLink(classA, keyA), .typedLink(classB, keyB)): classA == classB && keyA == keyB
        case let (.mixed(a), .mixed(b)): a == b
        case let (.list(a), .list(b)): a == b
        case let (.dictionary(keysA, valuesA), .dictionary(keysB, valuesB)):
            keysA.count == keysB.count && zip(keysA, keysB).allSatisfy { $0.utf8.elementsEqual($1.utf8) } && valuesA == valuesB
        default: false
        }
    }

    /// The value as a plain Swift value (`nil` for null), for dynamic access.
    package var anyValue: Any? {
        switch self {
        case .null: nil
        case .bool(let v): v
        case .int(let v): Int(v)
        case .float(let v): v
        case .double(let v): v
        case .string(let v): v
        case .data(let v): v
        case .date(let v): v
        case .uuid(let v): v
        case .objectId(let v): v
        case .decimal(let v): v
        case .link(let v): v
        case .typedLink(_, let key): key
        case .mixed(let inner): inner.anyValue
        case .list(let elements): elements.map(\.anyValue)
        case .dictionary(let keys, let values): Dictionary(zip(keys, values.map(\.anyValue)), uniquingKeysWith: { $1 })
        }
    }

    /// The kind of a non-null value.
    var kind: _StorageKind? {
        switch self {
        case .null: nil
        case .bool: .bool
        case .int: .int
        case .float: .float
        case .double: .double
        case .string: .string
        case .data: .data
        case .date: .date
        case .uuid: .uuid
        case .objectId: .objectId
        case .decimal: .decimal
        case .link, .typedLink: .link
        case .mixed, .list, .dictionary: .mixed
        }
    }

    /// Text for messages: strings quoted, others as Swift prints them.
    @usableFromInline
    var displayText: String {
        switch self {
        case .null: "nil"
        case .string(let v): "'\(v)'"
        // Foundation traps describing a date that is not a finite time.
        case .date(let v) where !v.timeIntervalSinceReferenceDate.isFinite: "Date(timeIntervalSinceReferenceDate: \(v.timeIntervalSinceReferenceDate))"
        default: "\(anyValue!)"
        }
    }
}
