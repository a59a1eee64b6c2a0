import Foundation

/// A property that holds a value of any stored type, or an object, or nothing.
///
/// ```swift
/// final class Setting: Object {
///     @Persisted var value: AnyRealmValue
/// }
/// try realm.write { setting.value = .string("dark") }
/// if case .string(let theme) = setting.value { print(theme) }
/// settings.filter("value == 'dark'")   // compares with the value, whatever its kind
/// ```
///
/// Values of different kinds never compare equal; numbers compare across integer and floating
/// kinds. An object held here is added with its holder, and deleting it sets the value to `.none`.
///
/// A value can also be a list or a dictionary of further values, nested to any depth up to
/// ``maximumNestingDepth``. Read from a managed object, such a collection is live: changing it
/// inside a write changes the stored value. It is found again at each use by its path from the
/// property (list indexes and dictionary keys), so after inserting or removing list elements
/// before it, read it again from its parent.
///
/// ```swift
/// try realm.write {
///     setting.value = .fromDictionary(["sizes": .fromArray([.int(1), .int(2)]), "theme": .string("dark")])
///     setting.value.dictionaryValue?["sizes"]?.listValue?.append(.int(3))
/// }
/// settings.filter("value['theme'] == 'dark'")   // a key of a held dictionary
/// settings.filter("value['sizes'][0] > 1")        // a path of keys and indexes
/// settings.filter("value.@size == 2")             // elements or entries held
/// ```
public enum AnyRealmValue: Hashable {
    case none
    case int(Int)
    case bool(Bool)
    case float(Float)
    case double(Double)
    case string(String)
    case data(Data)
    case date(Date)
    case objectId(ObjectId)
    case decimal128(Decimal128)
    case uuid(UUID)
    case object(Object)
    /// A dictionary of further values.
    case dictionary(Map<String, AnyRealmValue>)
    /// A list of further values.
    case list(List<AnyRealmValue>)

    /// The integer held, if any.
    public var intValue: Int? { if case .int(let v) = self { v } else { nil } }
    /// The Boolean held, if any.
    public var boolValue: Bool? { if case .bool(let v) = self { v } else { nil } }
    /// The `Float` held, if any.
    public var floatValue: Float? { if case .float(let v) = self { v } else { nil } }
    /// The `Double` held, if any.
    public var doubleValue: Double? { if case .double(let v) = self { v } else { nil } }
    /// The string held, if any.
    public var stringValue: String? { if case .string(let v) = self { v } else { nil } }
    /// The data held, if any.
    public var dataValue: Data? { if case .data(let v) = self { v } else { nil } }
    /// The date held, if any.
    public var dateValue: Date? { if case .date(let v) = self { v } else { nil } }
    /// The object id held, if any.
    public var objectIdValue: ObjectId? { if case .objectId(let v) = self { v } else { nil } }
    /// The decimal held, if any.
    public var decimal128Value: Decimal128? { if case .decimal128(let v) = self { v } else { nil } }
    /// The UUID held, if any.
    public var uuidValue: UUID? { if case .uuid(let v) = self { v } else { nil } }

    /// The object held, if it is a `T`.
    public func object<T: Object>(_ type: T.Type) -> T? {
        if case .object(let object) = self { return object as? T }
        return nil
    }

    /// Objects are equal when they are the same stored object; lists and dictionaries when they
    /// hold equal values (under equal keys).
    public static func == (lhs: AnyRealmValue, rhs: AnyRealmValue) -> Bool {
        switch (lhs, rhs) {
        case (.object(let a), .object(let b)): a === b || a.isSameObject(as: b)
        case (.list(let a), .list(let b)): a === b || a.elementsEqual(b)
        case (.dictionary(let a), .dictionary(let b)): a === b || byteOrderedEntries(a).elementsEqual(byteOrderedEntries(b)) { $0 == $1 }
        case (.object, _), (_, .object), (.list, _), (_, .list), (.dictionary, _), (_, .dictionary): false
        default: lhs.scalar == rhs.scalar
        }
    }

    /// A dictionary's entries by their keys' UTF-8 bytes, as stored: an unmanaged `Map` orders
    /// its keys as Swift strings, where "é" and "e\u{301}" are one key.
    private static func byteOrderedEntries(_ map: Map<String, AnyRealmValue>) -> [(key: [UInt8], value: AnyRealmValue)] {
        zip(map.keys, map.values).map { (Array($0.utf8), $1) }.sorted { $0.key.lexicographicallyPrecedes($1.key) }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .object(let object):
            if let management = object.management {
                hasher.combine(management.bound.layout.classID)
                hasher.combine(management.key)
            } else {
                hasher.combine(ObjectIdentifier(object))
            }
        case .list:
            hasher.combine(NestedValueCodec.listTag)
        case .dictionary:
            hasher.combine(NestedValueCodec.dictionaryTag)
        default:
            hasher.combine(scalar)
        }
    }

    /// The stored form of a value that is not an object.
    var scalar: _PersistedValue {
        switch self {
        case .none: .null
        case .int(let v): .int(Int64(v))
        case .bool(let v): .bool(v)
        case .float(let v): .float(v)
        case .double(let v): .double(v)
        case .string(let v): .string(v)
        case .data(let v): .data(v)
        case .date(let v): .date(v)
        case .objectId(let v): .objectId(v)
        case .decimal128(let v): .decimal(v)
        case .uuid(let v): .uuid(v)
        case .object, .list, .dictionary:
            burrowPreconditionFailure("An object or collection in an AnyRealmValue is stored through its holder.")
        }
    }

    /// The value of a stored scalar.
    init(scalar value: _PersistedValue) {
        switch value {
        case .int(let v): self = .int(Int(v))
        case .bool(let v): self = .bool(v)
        case .float(let v): self = .float(v)
        case .double(let v): self = .double(v)
        case .string(let v): self = .string(v)
        case .data(let v): self = .data(v)
        case .date(let v): self = .date(v)
        case .objectId(let v): self = .objectId(v)
        case .decimal(let v): self = .decimal128(v)
        case .uuid(let v): self = .uuid(v)
        case .mixed(let inner): self.init(scalar: inner)
        case .list(let elements): self = .fromArray(elements.map(AnyRealmValue.init(scalar:)))
        case .dictionary(let keys, let values):
            self = .fromDictionary(Dictionary(zip(keys, values.map(AnyRealmValue.init(scalar:))), uniquingKeysWith: { $1 }))
        case .null, .link, .typedLink: self = .none
        }
    }
}

extension AnyRealmValue: RealmCollectionValue {
    /// Implementation detail of `_Persistable`; do not use.
    public static var _storageKind: _StorageKind { .mixed }
    /// Implementation detail of `_Persistable`; do not use.
    public static var _isOptional: Bool { true }
    /// Implementation detail of `_Persistable`; do not use.
    public static var _defaultValue: AnyRealmValue { .none }

    /// Implementation detail of `_Persistable`; do not use.
    public var _persistedValue: _PersistedValue {
        self == .none ? .null : .mixed(storedInner)
    }

    /// The stored form of the value, without its `.mixed` wrapper; the objects it holds must be
    /// managed already.
    var storedInner: _PersistedValue {
        switch self {
        case .object(let object):
            guard let management = object.management else {
                burrowPreconditionFailure("An unmanaged object in an AnyRealmValue is added with its holder; add the holder first.")
            }
            return .typedLink(classID: management.bound.layout.classID, key: management.key.rawValue)
        case .list(let list): return .list(list.map(\.storedInner))
        case .dictionary(let map): return .dictionary(keys: map.keys, values: map.values.map(\.storedInner))
        default: return scalar
        }
    }

    /// Implementation detail of `_Persistable`; do not use.
    public static func _fromPersisted(_ value: _PersistedValue) -> AnyRealmValue {
        if case .mixed(.typedLink) = value {
            burrowPreconditionFailure("An object in an AnyRealmValue is read through its holder.")
        }
        return AnyRealmValue(scalar: value)
    }

    /// Implementation detail of `_Persistable`; do not use.
    public static func _fromAny(_ value: Any) -> AnyRealmValue? {
        switch value {
        case let value as AnyRealmValue: value
        case is NSNull: AnyRealmValue.none
        case let optional as any OptionalValue where optional.isNil: AnyRealmValue.none
        case let object as Object: .object(object)
        case let list as List<AnyRealmValue>: .list(list)
        case let map as Map<String, AnyRealmValue>: .dictionary(map)
        case let items as [Any]: AnyRealmValue.fromArray(anyElements: items)
        case let entries as [String: Any]: AnyRealmValue.fromDictionary(anyEntries: entries)
        case let value as Int: .int(value)
        case let value as Bool: .bool(value)
        case let value as Double: .double(value)
        case let value as Float: .float(value)
        case let value as String: .string(value)
        case let value as Data: .data(value)
        case let value as Date: .date(value)
        case let value as ObjectId: .objectId(value)
        case let value as Decimal128: .decimal128(value)
        case let value as Decimal: .decimal128(Decimal128(value))
        case let value as UUID: .uuid(value)
        default: nil
        }
    }

    /// Implementation detail of `_Persistable`; do not use.
    public static func _get(from object: ObjectBase, column: Int) -> AnyRealmValue {
        guard case .mixed(let inner) = object.managedValue(column: column, kind: .mixed) else { return .none }
        return AnyRealmValue(stored: inner, in: NestedLocation(slot: PropertySlot(owner: object, column: column)))
    }

    /// Implementation detail of `_Persistable`; do not use.
    public static func _set(_ value: AnyRealmValue, on object: ObjectBase, column: Int) {
        guard let management = object.management else { burrowPreconditionFailure(TrapMessage.objectInvalidated) }
        management.realm.setMixed(value, on: object, management: management, column: column)
    }
}
