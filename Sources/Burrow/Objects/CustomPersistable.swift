/// What ``CustomPersistable`` and ``FailableCustomPersistable`` share: a type of your own stored
/// as another type a realm stores, its `PersistedType`.
///
/// Implementation detail of Burrow: conformances and members of this protocol are for Burrow's use, not yours.
public protocol _CustomPersistable: _RealmCollectionValueInsideOptional where PersistedType: _Persistable {
    /// The stored form of the value.
    var persistableValue: PersistedType { get }
    /// The value of a stored form, or `nil` when it has none (always one for
    /// ``CustomPersistable``).
    static func _value(fromPersisted value: PersistedType) -> Self?
}

/// A type of your own that a `@Persisted` property, a list, a set or a map stores as its
/// `PersistedType`, as in RealmSwift: it is queried, indexed and used as a primary key as that
/// type.
///
/// ```swift
/// struct Cents: CustomPersistable, Hashable {
///     typealias PersistedType = Int
///     var amount: Int
///     init(persistedValue: Int) { amount = persistedValue }
///     var persistableValue: Int { amount }
/// }
/// final class Item: Object {
///     @Persisted(indexed: true) var price: Cents
/// }
/// items.where { $0.price > Cents(persistedValue: 500) }
/// items.filter("price < %@", Cents(persistedValue: 100))
/// ```
public protocol CustomPersistable: _CustomPersistable {
    /// The value of a stored form.
    init(persistedValue: PersistedType)
}

/// A type of your own stored as its `PersistedType` when not every stored value makes one:
/// reading a value that does not traps for a required property, and reads `nil` for an
/// optional one.
///
/// ```swift
/// extension URL: FailableCustomPersistable {
///     public typealias PersistedType = String
///     public init?(persistedValue: String) { self.init(string: persistedValue) }
///     public var persistableValue: String { absoluteString }
/// }
/// ```
public protocol FailableCustomPersistable: _CustomPersistable {
    /// The value of a stored form, or `nil` when it has none.
    init?(persistedValue: PersistedType)
}

extension CustomPersistable {
    /// Implementation detail of `_CustomPersistable`; do not use.
    public static func _value(fromPersisted value: PersistedType) -> Self? { Self(persistedValue: value) }
}

extension FailableCustomPersistable {
    /// Implementation detail of `_CustomPersistable`; do not use.
    public static func _value(fromPersisted value: PersistedType) -> Self? { Self(persistedValue: value) }

    /// Implementation detail of `_Persistable`; do not use.
    public static var _defaultMayFail: Bool { true }
}

extension _CustomPersistable {
    /// Implementation detail of `_Persistable`; do not use.
    public static var _storageKind: _StorageKind { PersistedType._storageKind }
    /// Implementation detail of `_Persistable`; do not use.
    public static var _linkedType: ObjectBase.Type? { PersistedType._linkedType }

    /// An object type is stored as a link, which is always optional, as in RealmSwift: a
    /// missing object reads as the value of a new one.
    ///
    /// Implementation detail of Burrow; do not use.
    public static var _isOptional: Bool { PersistedType._linkedType != nil || PersistedType._isOptional }

    /// The type's value of its stored type's default (of a new object, for an object type);
    /// traps when there is none.
    ///
    /// Implementation detail of Burrow; do not use.
    public static var _defaultValue: Self {
        guard let value = _defaultIfBuildable else {
            burrowPreconditionFailure("Failed to default construct a \(Self.self) using the default value for persisted type \(PersistedType.self). This conversion must either succeed, the property must be optional, or you must explicitly specify a default value for the property.")
        }
        return value
    }

    /// The type's value of its stored type's default, or `nil` when it has none.
    ///
    /// Implementation detail of Burrow; do not use.
    public static var _defaultIfBuildable: Self? {
        PersistedType._linkedType != nil ? _fromLinkedObject(nil) : _value(fromPersisted: PersistedType._defaultValue)
    }

    /// Implementation detail of `_Persistable`; do not use.
    public var _linkedObject: ObjectBase? { persistableValue._linkedObject }

    /// Implementation detail of `_Persistable`; do not use.
    public static func _fromLinkedObject(_ object: ObjectBase?) -> Self {
        guard let linkedType = PersistedType._linkedType else { burrowPreconditionFailure("\(Self.self) is not a link type.") }
        return converted(PersistedType._fromLinkedObject(object ?? linkedType.init()))
    }

    /// Implementation detail of `_Persistable`; do not use.
    public static func _get(from object: ObjectBase, column: Int) -> Self {
        if let linkedType = PersistedType._linkedType {
            return _fromLinkedObject(object.linkedObject(column: column, of: linkedType))
        }
        return _fromPersisted(object.managedValue(column: column, kind: _storageKind))
    }

    /// Implementation detail of `_Persistable`; do not use.
    public static func _set(_ value: Self, on object: ObjectBase, column: Int) {
        if PersistedType._linkedType != nil {
            object.setLinkedObject(value._linkedObject, column: column)
        } else {
            object.setManagedValue(value._persistedValue, column: column)
        }
    }

    /// Implementation detail of `_Persistable`; do not use.
    public var _persistedValue: _PersistedValue { persistableValue._persistedValue }

    /// Implementation detail of `_Persistable`; do not use.
    public static func _persistedValue(at pointer: UnsafeRawPointer) -> _PersistedValue {
        pointer.assumingMemoryBound(to: Self.self).pointee._persistedValue
    }

    /// Implementation detail of `_Persistable`; do not use.
    public static func _fromPersisted(_ value: _PersistedValue) -> Self {
        converted(PersistedType._fromPersisted(value))
    }

    /// Implementation detail of `_Persistable`; do not use.
    public static func _optionalFromPersisted(_ value: _PersistedValue) -> Self? {
        _value(fromPersisted: PersistedType._fromPersisted(value))
    }

    /// Implementation detail of `_Persistable`; do not use.
    public static func _fromAny(_ value: Any) -> Self? {
        if let exact = value as? Self { return exact }
        return PersistedType._fromAny(value).flatMap(_value(fromPersisted:))
    }

    /// The value of a stored form; traps, naming both, when there is none.
    private static func converted(_ stored: PersistedType) -> Self {
        guard let value = _value(fromPersisted: stored) else {
            burrowPreconditionFailure("Failed to convert persisted value '\(stored)' to type '\(Self.self)' in a non-optional context.")
        }
        return value
    }
}

