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
/// A `List`, `MutableSet` or `Map` of `AnyRealmValue` holds values only: it refuses `.object`.
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
    case decimal128(Decimal)
    case uuid(UUID)
    case object(Object)

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
    public var decimal128Value: Decimal? { if case .decimal128(let v) = self { v } else { nil } }
    /// The UUID held, if any.
    public var uuidValue: UUID? { if case .uuid(let v) = self { v } else { nil } }

    /// The object held, if it is a `T`.
    public func object<T: Object>(_ type: T.Type) -> T? {
        if case .object(let object) = self { return object as? T }
        return nil
    }

    public static func == (lhs: AnyRealmValue, rhs: AnyRealmValue) -> Bool {
        switch (lhs, rhs) {
        case (.object(let a), .object(let b)): a === b || a.isSameObject(as: b)
        case (.object, _), (_, .object): false
        default: lhs.scalar == rhs.scalar
        }
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
        case .object: preconditionFailure("An object in an AnyRealmValue is stored through its holder.")
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
        case .null, .link, .typedLink: self = .none
        }
    }
}

extension AnyRealmValue: RealmCollectionValue {
    public static var _storageKind: _StorageKind { .mixed }
    public static var _isOptional: Bool { true }
    public static var _defaultValue: AnyRealmValue { .none }

    public var _persistedValue: _PersistedValue {
        switch self {
        case .none: return .null
        case .object(let object):
            guard let management = object.management else {
                preconditionFailure("An unmanaged object in an AnyRealmValue is added with its holder; add the holder first.")
            }
            return .mixed(.typedLink(classID: management.bound.layout.classID, key: management.key.rawValue))
        default:
            return .mixed(scalar)
        }
    }

    public static func _fromPersisted(_ value: _PersistedValue) -> AnyRealmValue {
        if case .mixed(.typedLink) = value {
            preconditionFailure("An object in an AnyRealmValue is read through its holder.")
        }
        return AnyRealmValue(scalar: value)
    }

    public static func _fromAny(_ value: Any) -> AnyRealmValue? {
        switch value {
        case let value as AnyRealmValue: value
        case is NSNull: AnyRealmValue.none
        case let optional as any OptionalValue where optional.isNil: AnyRealmValue.none
        case let object as Object: .object(object)
        case let value as Int: .int(value)
        case let value as Bool: .bool(value)
        case let value as Double: .double(value)
        case let value as Float: .float(value)
        case let value as String: .string(value)
        case let value as Data: .data(value)
        case let value as Date: .date(value)
        case let value as ObjectId: .objectId(value)
        case let value as Decimal: .decimal128(value)
        case let value as UUID: .uuid(value)
        default: nil
        }
    }

    public static func _get(from object: ObjectBase, column: Int) -> AnyRealmValue {
        let value = object.managedValue(column: column, kind: .mixed)
        guard case .mixed(.typedLink(let classID, let key)) = value, let management = object.management else {
            return AnyRealmValue(scalar: value)
        }
        guard let target = management.realm.mixedLinkTarget(classID: classID, key: ObjectKey(key)) else { return .none }
        return .object(target)
    }

    public static func _set(_ value: AnyRealmValue, on object: ObjectBase, column: Int) {
        guard case .object(let target) = value else {
            object.setManagedValue(value._persistedValue, column: column)
            return
        }
        object.setLinkedObject(target, column: column)
    }
}
