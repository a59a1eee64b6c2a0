import Foundation
import LMDB

/// Converting between loosely typed Swift values and the stored values of a property known only
/// from the stored schema (the dynamic accessors of ``DynamicObject``).
enum StoredValueConversion {
    /// The value a new required property holds in existing objects, as RealmSwift gives it:
    /// zero, empty, the 1970 epoch, the all-zero UUID and ObjectId. Optional properties, links,
    /// `AnyRealmValue`s and collections start empty (`null`).
    static func defaultValue(of property: StoredProperty) -> _PersistedValue {
        guard !property.isOptional, property.collection == nil else { return .null }
        switch property.kind {
        case .bool: return .bool(false)
        case .int: return .int(0)
        case .float: return .float(0)
        case .double: return .double(0)
        case .string: return .string("")
        case .data: return .data(Data())
        case .date: return .date(Date(timeIntervalSince1970: 0))
        case .uuid: return .uuid(UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)))
        case .objectId: return .objectId(ObjectId(bytes: [UInt8](repeating: 0, count: 12))!)
        case .decimal: return .decimal(Decimal128())
        case .link, .mixed: return .null
        }
    }

    /// `value` as `property` stores it after a change of optionality: a `nil` becomes the
    /// default of a property made required.
    static func adapted(_ value: _PersistedValue, to property: StoredProperty) -> _PersistedValue {
        value.isNull ? defaultValue(of: property) : value
    }

    /// The Swift type whose values a property of `kind` holds (integers of every width read as `Int`).
    static func swiftType(of kind: _StorageKind) -> (any _Persistable.Type)? {
        switch kind {
        case .bool: Bool.self
        case .int: Int.self
        case .float: Float.self
        case .double: Double.self
        case .string: String.self
        case .data: Data.self
        case .date: Date.self
        case .uuid: UUID.self
        case .objectId: ObjectId.self
        case .decimal: Decimal128.self
        case .mixed: AnyRealmValue.self
        case .link: nil
        }
    }

    /// `value` without the `Optional` a caller may have wrapped it in; `nil` for a `nil` one.
    static func unwrapped(_ value: Any?) -> Any? {
        guard let value else { return nil }
        // Most values are neither: a lookup by type skips the casts, which cost more than the
        // rest of a write of a value.
        guard mayWrapNil(Swift.type(of: value)) else { return value }
        if let optional = value as? any OptionalValue { return optional.wrappedAny.flatMap(unwrapped) }
        if value is NSNull { return nil }
        return value
    }

    /// Whether values of `type` are an `Optional` or `NSNull`, remembered by type.
    static func mayWrapNil(_ type: Any.Type) -> Bool {
        // The types of most values, compared without the lock.
        if type == Int.self || type == String.self || type == Double.self || type == Bool.self { return false }
        let key = ObjectIdentifier(type)
        if let known = nilWrappingTypes.withLock({ $0[key] }) { return known }
        let answer = type is any OptionalValue.Type || type is NSNull.Type
        nilWrappingTypes.withLock { $0[key] = answer }
        return answer
    }

    private static let nilWrappingTypes = Locked<[ObjectIdentifier: Bool]>([:])

    /// The stored form of a scalar `value` (not a link, not a collection) for `property` of
    /// `className`.
    ///
    /// - Throws: ``Realm/Error/Code/invalidValue`` with RealmSwift's message when the value
    ///   does not fit.
    static func scalar(_ value: Any?, for property: StoredProperty, of className: String) throws(Realm.Error) -> _PersistedValue {
        guard let value = unwrapped(value) else {
            guard property.isOptional || property.kind == .mixed else {
                throw Realm.Error(.invalidValue, "Invalid value 'nil' for required property '\(className).\(property.name)'.")
            }
            return .null
        }
        if let exact = exactScalar(value, kind: property.kind) { return exact }
        guard let type = swiftType(of: property.kind), let stored = type._fromAny(value)?._persistedValue else {
            throw Realm.Error(.invalidValue, "Invalid value '\(value)' of type '\(Swift.type(of: value))' for '\(property.kind.propertyType)' property '\(className).\(property.name)'.")
        }
        return stored
    }

    /// The stored form of `value` when it is exactly the type most properties of `kind` are
    /// given: the conversion through ``swiftType(of:)`` looks up generic metadata on each call.
    private static func exactScalar(_ value: Any, kind: _StorageKind) -> _PersistedValue? {
        switch kind {
        case .int: (value as? Int).map { .int(Int64($0)) }
        case .string: (value as? String).map(_PersistedValue.string)
        case .double: (value as? Double).map(_PersistedValue.double)
        case .bool: (value as? Bool).map(_PersistedValue.bool)
        default: nil
        }
    }

    /// `body`'s result, trapping with its message for a value that does not fit: for the
    /// setters the program calls, where a wrong value is the program's mistake (RealmSwift
    /// raises an exception there).
    static func trappingInvalidValues<T>(_ body: () throws -> T) rethrows -> T {
        do {
            return try body()
        } catch let error as Realm.Error where error.code == .invalidValue {
            burrowPreconditionFailure(error.message)
        }
    }
}
