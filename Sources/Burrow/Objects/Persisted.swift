/// Marks a property of an ``Object`` as stored in the realm.
///
/// ```swift
/// final class Person: Object {
///     @Persisted(primaryKey: true) var id = 0
///     @Persisted(indexed: true) var name = ""
///     @Persisted var nickname: String?
/// }
/// ```
///
/// Before the object is added to a realm the value lives in the wrapper; afterwards the
/// wrapper only remembers its column, and every read and write goes to the realm.
@propertyWrapper
public struct Persisted<Value: _Persistable> {
    /// Where the value lives.
    enum Storage {
        /// The object is unmanaged: the value is kept here.
        case unmanaged(Value)
        /// The object is managed: the value is in its row, at this column.
        case managed(column: Int)
    }

    var storage: Storage
    let isIndexed: Bool
    let isPrimaryKey: Bool

    /// A property holding the type's default (`0`, `""`, `nil`, the first enum case…).
    public init() {
        self.init(value: Value._defaultValue, indexed: false, primaryKey: false)
    }

    /// A property with an initial value.
    public init(wrappedValue value: Value) {
        self.init(value: value, indexed: false, primaryKey: false)
    }

    /// An indexed property (when `indexed` is true), holding the type's default.
    public init(indexed: Bool) {
        self.init(value: Value._defaultValue, indexed: indexed, primaryKey: false)
    }

    /// An indexed property (when `indexed` is true) with an initial value.
    public init(wrappedValue value: Value, indexed: Bool) {
        self.init(value: value, indexed: indexed, primaryKey: false)
    }

    /// The class's primary key (when `primaryKey` is true), holding the type's default.
    public init(primaryKey: Bool) {
        self.init(value: Value._defaultValue, indexed: false, primaryKey: primaryKey)
    }

    /// The class's primary key (when `primaryKey` is true) with an initial value.
    public init(wrappedValue value: Value, primaryKey: Bool) {
        self.init(value: value, indexed: false, primaryKey: primaryKey)
    }

    private init(value: Value, indexed: Bool, primaryKey: Bool) {
        storage = .unmanaged(value)
        isIndexed = indexed
        isPrimaryKey = primaryKey
    }

    @available(*, unavailable, message: "@Persisted can only be used on properties of Object subclasses")
    public var wrappedValue: Value {
        get { fatalError() }
        // swiftlint:disable:next unused_setter_value
        set { fatalError() }
    }

    /// Reads and writes the property through its enclosing object.
    public static subscript<EnclosingSelf: ObjectBase>(
        _enclosingInstance object: EnclosingSelf,
        wrapped wrappedKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Value>,
        storage storageKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Persisted<Value>>
    ) -> Value {
        get {
            switch object[keyPath: storageKeyPath].storage {
            case .unmanaged(let value):
                return value
            case .managed(let column):
                return Value._fromPersisted(object.managedValue(column: column, kind: Value._storageKind))
            }
        }
        set {
            switch object[keyPath: storageKeyPath].storage {
            case .unmanaged:
                object[keyPath: storageKeyPath].storage = .unmanaged(newValue)
            case .managed(let column):
                object.setManagedValue(newValue._persistedValue, column: column)
            }
        }
    }
}

/// What schema discovery learns of one `@Persisted` field.
struct PersistedFieldDescription {
    let kind: _StorageKind
    let isOptional: Bool
    let isIndexed: Bool
    let isPrimaryKey: Bool
    let valueType: Any.Type
}

/// Operations on a `@Persisted` field through a pointer into an object, used by schema
/// discovery and by the realm to read and switch fields without knowing their types.
protocol PersistedField {
    static func describe(at field: UnsafeRawPointer) -> PersistedFieldDescription
    /// The value kept in an unmanaged field; `nil` when the field is managed.
    static func unmanagedValue(at field: UnsafeRawPointer) -> _PersistedValue?
    /// Stores `value` in an unmanaged field.
    static func setUnmanagedValue(_ value: _PersistedValue, at field: UnsafeMutableRawPointer)
    /// Switches the field to managed storage at `column`.
    static func manage(column: Int, at field: UnsafeMutableRawPointer)
    /// Converts a loosely typed input to the field's value, or `nil` when it does not fit.
    static func convert(_ any: Any) -> _PersistedValue?
    /// The field's Swift value from storage form.
    static func swiftValue(_ value: _PersistedValue) -> Any?
    /// The storage form of the field type's default value.
    static var defaultValue: _PersistedValue { get }
}

extension Persisted: PersistedField {
    static func describe(at field: UnsafeRawPointer) -> PersistedFieldDescription {
        let persisted = field.assumingMemoryBound(to: Persisted<Value>.self).pointee
        return PersistedFieldDescription(kind: Value._storageKind, isOptional: Value._isOptional,
                                         isIndexed: persisted.isIndexed, isPrimaryKey: persisted.isPrimaryKey,
                                         valueType: Value.self)
    }

    static func unmanagedValue(at field: UnsafeRawPointer) -> _PersistedValue? {
        switch field.assumingMemoryBound(to: Persisted<Value>.self).pointee.storage {
        case .unmanaged(let value): value._persistedValue
        case .managed: nil
        }
    }

    static func setUnmanagedValue(_ value: _PersistedValue, at field: UnsafeMutableRawPointer) {
        field.assumingMemoryBound(to: Persisted<Value>.self).pointee.storage = .unmanaged(Value._fromPersisted(value))
    }

    static func manage(column: Int, at field: UnsafeMutableRawPointer) {
        field.assumingMemoryBound(to: Persisted<Value>.self).pointee.storage = .managed(column: column)
    }

    static func convert(_ any: Any) -> _PersistedValue? {
        Value._fromAny(any)?._persistedValue
    }

    static var defaultValue: _PersistedValue { Value._defaultValue._persistedValue }

    static func swiftValue(_ value: _PersistedValue) -> Any? {
        let typed = Value._fromPersisted(value)
        if case .null = value { return nil }
        return typed
    }
}
