import Foundation

/// A type that a `@Persisted` property can store. Burrow conforms the stored scalar types
/// (`Bool`, the integers, `Float`, `Double`, `String`, `Data`, `Date`, `UUID`, `Decimal`,
/// ``ObjectId``), their optionals and every ``PersistableEnum``; conform your enums through
/// ``PersistableEnum`` rather than directly.
///
/// Implementation detail of Burrow: conformances and members of this protocol are for Burrow's use, not yours.
public protocol _Persistable: _HasPersistedType, _RealmSchemaDiscoverable {
    /// How values are laid out in rows and index keys.
    static var _storageKind: _StorageKind { get }
    /// Whether `nil` is a value of the type.
    static var _isOptional: Bool { get }
    /// The value of a `@Persisted` property declared without one. Traps, naming the type, when
    /// the type cannot build one (a ``FailableCustomPersistable`` refusing its stored default).
    static var _defaultValue: Self { get }
    /// ``_defaultValue``, or `nil` when the type cannot build one: an unmanaged property then
    /// holds no value until one is assigned, and reading it traps (as RealmSwift's does).
    static var _defaultIfBuildable: Self? { get }
    /// Whether ``_defaultIfBuildable`` may be `nil`: only then does a `@Persisted` field need to
    /// check that it holds a value before reading it.
    static var _defaultMayFail: Bool { get }
    /// The value in storage form.
    var _persistedValue: _PersistedValue { get }
    /// The storage form of the value stored at `pointer`, read where it lies: one call made for
    /// the type itself, where reading through `Persisted`'s generic code would copy the value
    /// through the runtime first.
    static func _persistedValue(at pointer: UnsafeRawPointer) -> _PersistedValue
    /// A value back from storage form. Traps on a value of another kind (a corrupt row).
    static func _fromPersisted(_ value: _PersistedValue) -> Self
    /// A value back from storage form as an optional property reads it: `nil` when the type
    /// has no value for it (a ``FailableCustomPersistable``), where ``_fromPersisted(_:)`` traps.
    static func _optionalFromPersisted(_ value: _PersistedValue) -> Self?
    /// A value from a loosely typed input (`Object(value:)`, dynamic subscripts), or `nil`
    /// when the input does not fit.
    static func _fromAny(_ value: Any) -> Self?
    /// Reads the value of a managed object's column.
    static func _get(from object: ObjectBase, column: Int) -> Self
    /// Writes the value of a managed object's column.
    static func _set(_ value: Self, on object: ObjectBase, column: Int)
    /// The class a link of this type points to; `nil` for values.
    static var _linkedType: ObjectBase.Type? { get }
    /// The collection this type is, if any; its `_storageKind` is then its elements'.
    static var _collectionKind: _CollectionKind? { get }
    /// The object a value of a link type stores as its link (itself for an object, the
    /// persisted object of a ``CustomPersistable``), `nil` for none or for values.
    var _linkedObject: ObjectBase? { get }
    /// The value of a link type for the object a link points to, or for none.
    static func _fromLinkedObject(_ object: ObjectBase?) -> Self
}

extension _Persistable {
    /// Implementation detail of `_Persistable`; do not use.
    @inlinable
    public static func _persistedValue(at pointer: UnsafeRawPointer) -> _PersistedValue {
        pointer.assumingMemoryBound(to: Self.self).pointee._persistedValue
    }
    /// Implementation detail of `_Persistable`; do not use.
    @inlinable
    public static func _get(from object: ObjectBase, column: Int) -> Self {
        _fromPersisted(object.managedValue(column: column, kind: _storageKind))
    }
    /// Implementation detail of `_Persistable`; do not use.
    @inlinable
    public static func _set(_ value: Self, on object: ObjectBase, column: Int) {
        object.setManagedValue(value._persistedValue, column: column)
    }
    /// Implementation detail of `_Persistable`; do not use.
    @inlinable
    public static func _optionalFromPersisted(_ value: _PersistedValue) -> Self? { _fromPersisted(value) }
    /// Implementation detail of `_Persistable`; do not use.
    @inlinable
    public static var _linkedType: ObjectBase.Type? { nil }
    /// Implementation detail of `_Persistable`; do not use.
    @inlinable
    public static var _collectionKind: _CollectionKind? { nil }
    /// Implementation detail of `_Persistable`; do not use.
    @inlinable
    public static var _isOptional: Bool { false }
    /// Implementation detail of `_Persistable`; do not use.
    @inlinable
    public static var _defaultIfBuildable: Self? { _defaultValue }
    /// Implementation detail of `_Persistable`; do not use.
    @inlinable
    public static var _defaultMayFail: Bool { false }
    /// Implementation detail of `_Persistable`; do not use.
    @inlinable
    public static func _fromAny(_ value: Any) -> Self? { value as? Self }
    /// Implementation detail of `_Persistable`; do not use.
    @inlinable
    public var _linkedObject: ObjectBase? { nil }
    /// Implementation detail of `_Persistable`; do not use.
    public static func _fromLinkedObject(_ object: ObjectBase?) -> Self {
        burrowPreconditionFailure("\(Self.self) is not a link type.")
    }

    @usableFromInline
    static func mismatch(_ value: _PersistedValue) -> Never {
        burrowPreconditionFailure("Stored value \(value.displayText) is not a \(Self.self): the file is damaged or its schema does not match.")
    }
}

extension Bool: _Persistable {
    /// Implementation detail of `_Persistable`; do not use.
    @inlinable
    public static var _storageKind: _StorageKind { .bool }
    /// Implementation detail of `_Persistable`; do not use.
    @inlinable
    public static var _defaultValue: Bool { false }
    /// Implementation detail of `_Persistable`; do not use.
    @inlinable
    public var _persistedValue: _PersistedValue { .bool(self) }
    /// Implementation detail of `_Persistable`; do not use.
    @inlinable
    public static func _fromPersisted(_ value: _PersistedValue) -> Bool {
        guard case .bool(let v) = value else { mismatch(value) }
        return v
    }
}

/// Shared conformance of every integer width: all are stored as 64-bit integers.
///
/// Implementation detail of Burrow: conformances and members of this protocol are for Burrow's use, not yours.
public protocol _PersistableInteger: _Persistable, FixedWidthInteger {}

extension _PersistableInteger {
    /// Implementation detail of `_Persistable`; do not use.
    @inlinable
    public static var _storageKind: _StorageKind { .int }
    /// Implementation detail of `_Persistable`; do not use.
    @inlinable
    public static var _defaultValue: Self { 0 }
    /// Implementation detail of `_Persistable`; do not use.
    @inlinable
    public var _persistedValue: _PersistedValue { .int(Int64(self)) }
    /// Implementation detail of `_Persistable`; do not use.
    @inlinable
    public static func _fromPersisted(_ value: _PersistedValue) -> Self {
        guard case .int(let v) = value else { mismatch(value) }
        // Every width is stored in 64 bits; a value that does not fit was not written as this type.
        guard let narrowed = Self(exactly: v) else { mismatch(value) }
        return narrowed
    }
    /// Implementation detail of `_Persistable`; do not use.
    @inlinable
    public static func _fromAny(_ value: Any) -> Self? {
        if let exact = value as? Self { return exact }
        if let integer = value as? any BinaryInteger { return Self(exactly: integer) }
        if let double = value as? Double { return Self(exactly: double) }
        return nil
    }
}

extension Int: _PersistableInteger {}
extension Int8: _PersistableInteger {}
extension Int16: _PersistableInteger {}
extension Int32: _PersistableInteger {}
extension Int64: _PersistableInteger {}

extension Float: _Persistable {
    /// Implementation detail of `_Persistable`; do not use.
    @inlinable
    public static var _storageKind: _StorageKind { .float }
    /// Implementation detail of `_Persistable`; do not use.
    @inlinable
    public static var _defaultValue: Float { 0 }
    /// Implementation detail of `_Persistable`; do not use.
    @inlinable
    public var _persistedValue: _PersistedValue { .float(self) }
    /// Implementation detail of `_Persistable`; do not use.
    @inlinable
    public static func _fromPersisted(_ value: _PersistedValue) -> Float {
        guard case .float(let v) = value else { mismatch(value) }
        return v
    }
    /// Implementation detail of `_Persistable`; do not use.
    @inlinable
    public static func _fromAny(_ value: Any) -> Float? {
        if let v = value as? Float { return v }
        if let v = value as? Double { return Float(v) }
        if let v = value as? any BinaryInteger { return Float(v) }
        return nil
    }
}

extension Double: _Persistable {
    /// Implementation detail of `_Persistable`; do not use.
    @inlinable
    public static var _storageKind: _StorageKind { .double }
    /// Implementation detail of `_Persistable`; do not use.
    @inlinable
    public static var _defaultValue: Double { 0 }
    /// Implementation detail of `_Persistable`; do not use.
    @inlinable
    public var _persistedValue: _PersistedValue { .double(self) }
    /// Implementation detail of `_Persistable`; do not use.
    @inlinable
    public static func _fromPersisted(_ value: _PersistedValue) -> Double {
        guard case .double(let v) = value else { mismatch(value) }
        return v
    }
    /// Implementation detail of `_Persistable`; do not use.
    @inlinable
    public static func _fromAny(_ value: Any) -> Double? {
        if let v = value as? Double { return v }
        if let v = value as? Float { return Double(v) }
        if let v = value as? any BinaryInteger { return Double(v) }
        return nil
    }
}

extension String: _Persistable {
    /// Implementation detail of `_Persistable`; do not use.
    @inlinable
    public static var _storageKind: _StorageKind { .string }
    /// Implementation detail of `_Persistable`; do not use.
    @inlinable
    public static var _defaultValue: String { "" }
    /// Implementation detail of `_Persistable`; do not use.
    @inlinable
    public var _persistedValue: _PersistedValue { .string(self) }
    /// Implementation detail of `_Persistable`; do not use.
    @inlinable
    public static func _fromPersisted(_ value: _PersistedValue) -> String {
        guard case .string(let v) = value else { mismatch(value) }
        return v
    }
    /// Implementation detail of `_Persistable`; do not use.
    @inlinable
    public static func _fromAny(_ value: Any) -> String? {
        if let v = value as? String { return v }
        if let v = value as? Substring { return String(v) }
        return nil
    }
}

extension Data: _Persistable {
    /// Implementation detail of `_Persistable`; do not use.
    @inlinable
    public static var _storageKind: _StorageKind { .data }
    /// Implementation detail of `_Persistable`; do not use.
    @inlinable
    public static var _defaultValue: Data { Data() }
    /// Implementation detail of `_Persistable`; do not use.
    @inlinable
    public var _persistedValue: _PersistedValue { .data(self) }
    /// Implementation detail of `_Persistable`; do not use.
    @inlinable
    public static func _fromPersisted(_ value: _PersistedValue) -> Data {
        guard case .data(let v) = value else { mismatch(value) }
        return v
    }
    /// Implementation detail of `_Persistable`; do not use.
    @inlinable
    public static func _fromAny(_ value: Any) -> Data? {
        if let v = value as? Data { return v }
        if let v = value as? [UInt8] { return Data(v) }
        return nil
    }
}

extension Date: _Persistable {
    /// Implementation detail of `_Persistable`; do not use.
    @inlinable
    public static var _storageKind: _StorageKind { .date }
    /// The current time, as RealmSwift's default for a `Date` property.
    ///
    /// Implementation detail of Burrow; do not use.
    @inlinable
    public static var _defaultValue: Date { Date() }
    /// Implementation detail of `_Persistable`; do not use.
    @inlinable
    public var _persistedValue: _PersistedValue { .date(self) }
    /// Implementation detail of `_Persistable`; do not use.
    @inlinable
    public static func _fromPersisted(_ value: _PersistedValue) -> Date {
        guard case .date(let v) = value else { mismatch(value) }
        return v
    }
}

extension UUID: _Persistable {
    /// Implementation detail of `_Persistable`; do not use.
    @inlinable
    public static var _storageKind: _StorageKind { .uuid }
    /// A new random UUID, as RealmSwift's default for a `UUID` property.
    ///
    /// Implementation detail of Burrow; do not use.
    @inlinable
    public static var _defaultValue: UUID { UUID() }
    /// Implementation detail of `_Persistable`; do not use.
    @inlinable
    public var _persistedValue: _PersistedValue { .uuid(self) }
    /// Implementation detail of `_Persistable`; do not use.
    @inlinable
    public static func _fromPersisted(_ value: _PersistedValue) -> UUID {
        guard case .uuid(let v) = value else { mismatch(value) }
        return v
    }
    /// Implementation detail of `_Persistable`; do not use.
    @inlinable
    public static func _fromAny(_ value: Any) -> UUID? {
        if let v = value as? UUID { return v }
        if let v = value as? String { return UUID(uuidString: v) }
        return nil
    }
}

extension ObjectId: _Persistable {
    /// Implementation detail of `_Persistable`; do not use.
    @inlinable
    public static var _storageKind: _StorageKind { .objectId }
    /// Implementation detail of `_Persistable`; do not use.
    @inlinable
    public static var _defaultValue: ObjectId { ObjectId() }
    /// Implementation detail of `_Persistable`; do not use.
    @inlinable
    public var _persistedValue: _PersistedValue { .objectId(self) }
    /// Implementation detail of `_Persistable`; do not use.
    @inlinable
    public static func _fromPersisted(_ value: _PersistedValue) -> ObjectId {
        guard case .objectId(let v) = value else { mismatch(value) }
        return v
    }
    /// Implementation detail of `_Persistable`; do not use.
    @inlinable
    public static func _fromAny(_ value: Any) -> ObjectId? {
        if let v = value as? ObjectId { return v }
        if let v = value as? String { return try? ObjectId(string: v) }
        return nil
    }
}

extension Decimal128: _Persistable {
    /// Implementation detail of `_Persistable`; do not use.
    @inlinable
    public static var _storageKind: _StorageKind { .decimal }
    /// Implementation detail of `_Persistable`; do not use.
    @inlinable
    public static var _defaultValue: Decimal128 { Decimal128() }
    /// Implementation detail of `_Persistable`; do not use.
    @inlinable
    public var _persistedValue: _PersistedValue { .decimal(self) }
    /// Implementation detail of `_Persistable`; do not use.
    @inlinable
    public static func _fromPersisted(_ value: _PersistedValue) -> Decimal128 {
        guard case .decimal(let v) = value else { mismatch(value) }
        return v
    }
    /// Implementation detail of `_Persistable`; do not use.
    public static func _fromAny(_ value: Any) -> Decimal128? {
        switch value {
        case let v as Decimal128: v
        case let v as Decimal: Decimal128(v)
        case let v as any BinaryInteger: Decimal128(number: v)
        case let v as any BinaryFloatingPoint: Decimal128(number: v)
        case let v as String: Decimal128.parse(v)
        default: nil
        }
    }
}

/// A Foundation `Decimal` is stored as a ``Decimal128``: up to 34 of its 38 digits are kept
/// (more round half to even), and a stored value outside `Decimal`'s exponents traps when read.
extension Decimal: _Persistable {
    /// Implementation detail of `_Persistable`; do not use.
    @inlinable
    public static var _storageKind: _StorageKind { .decimal }
    /// Implementation detail of `_Persistable`; do not use.
    @inlinable
    public static var _defaultValue: Decimal { 0 }
    /// Implementation detail of `_Persistable`; do not use.
    public var _persistedValue: _PersistedValue { .decimal(Decimal128(self)) }
    /// Implementation detail of `_Persistable`; do not use.
    public static func _fromPersisted(_ value: _PersistedValue) -> Decimal {
        guard case .decimal(let v) = value else { mismatch(value) }
        guard let decimal = v.isNaN ? Decimal.nan : v.decimalValue else {
            burrowPreconditionFailure("Stored value \(v) does not fit a Decimal: read it as a Decimal128.")
        }
        return decimal
    }
    /// Implementation detail of `_Persistable`; do not use.
    public static func _fromAny(_ value: Any) -> Decimal? {
        if let v = value as? Decimal { return v }
        return Decimal128._fromAny(value).flatMap { $0.isNaN ? Decimal.nan : $0.decimalValue }
    }
}

extension Optional: _HasPersistedType where Wrapped: _HasPersistedType {
    public typealias PersistedType = Wrapped.PersistedType?
}

extension Optional: _Persistable where Wrapped: _Persistable {
    /// Implementation detail of `_Persistable`; do not use.
    @inlinable
    public static var _storageKind: _StorageKind { Wrapped._storageKind }
    /// Implementation detail of `_Persistable`; do not use.
    @inlinable
    public static var _isOptional: Bool { true }
    /// Implementation detail of `_Persistable`; do not use.
    @inlinable
    public static var _defaultValue: Wrapped? { nil }
    /// Implementation detail of `_Persistable`; do not use.
    @inlinable
    public var _persistedValue: _PersistedValue {
        switch self {
        case .none: .null
        case .some(let wrapped): wrapped._persistedValue
        }
    }
    /// Implementation detail of `_Persistable`; do not use.
    @inlinable
    public static func _fromPersisted(_ value: _PersistedValue) -> Wrapped? {
        value.isNull ? nil : Wrapped._optionalFromPersisted(value)
    }
    /// Implementation detail of `_Persistable`; do not use.
    @inlinable
    public static func _get(from object: ObjectBase, column: Int) -> Wrapped? {
        if let linkedType = Wrapped._linkedType {
            return object.linkedObject(column: column, of: linkedType).map { Wrapped._fromLinkedObject($0) }
        }
        let value = object.managedValue(column: column, kind: Wrapped._storageKind)
        return value.isNull ? nil : Wrapped._optionalFromPersisted(value)
    }
    /// Implementation detail of `_Persistable`; do not use.
    @inlinable
    public static func _set(_ value: Wrapped?, on object: ObjectBase, column: Int) {
        if Wrapped._linkedType != nil {
            object.setLinkedObject(value?._linkedObject, column: column)
        } else {
            object.setManagedValue(value?._persistedValue ?? .null, column: column)
        }
    }
    /// Implementation detail of `_Persistable`; do not use.
    @inlinable
    public static var _linkedType: ObjectBase.Type? { Wrapped._linkedType }
    /// Implementation detail of `_Persistable`; do not use.
    @inlinable
    public var _linkedObject: ObjectBase? { self?._linkedObject }
    /// Implementation detail of `_Persistable`; do not use.
    @inlinable
    public static func _fromLinkedObject(_ object: ObjectBase?) -> Wrapped? { object.map { Wrapped._fromLinkedObject($0) } }
    /// Implementation detail of `_Persistable`; do not use.
    @inlinable
    public static func _fromAny(_ value: Any) -> Wrapped?? {
        if value is NSNull { return .some(nil) }
        if let optional = value as? Wrapped? { return .some(optional) }
        return Wrapped._fromAny(value).map { .some($0) }
    }
}
