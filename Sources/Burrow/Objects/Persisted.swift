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
    // The state is `column`: below zero the object is unmanaged and the value is `value`; at
    // zero or above the object is managed and the value lives in its row at that column (what
    // `value` still holds is ignored). `column` comes first so that it sits at offset 0 for every
    // `Value`: the realm switches fields to managed by writing that word, with no generic code.
    //
    // `value` is `nil` only for a type whose default cannot be built (a failable custom type
    // refusing its stored type's default), until a value is assigned: RealmSwift builds a
    // default when it is first read, so declaring such a property without a default traps only
    // where its value is read or stored, not where an object (or the schema) is made. For every
    // other type it is never `nil`, and the field's code reads the payload where it lies (an
    // optional's payload sits at the optional's own address) without checking.

    /// The row column once managed; `-1` while unmanaged.
    @usableFromInline var column: Int
    /// The value while unmanaged.
    @usableFromInline var value: Value?
    /// Bit 0: indexed; bit 1: primary key.
    @usableFromInline let options: UInt8

    @usableFromInline var isIndexed: Bool { options & 1 != 0 }
    @usableFromInline var isPrimaryKey: Bool { options & 2 != 0 }

    /// A property holding the type's default (`0`, `""`, `nil`, the first enum case…).
    @inlinable
    public init() {
        self.init(value: Value._defaultIfBuildable, indexed: false, primaryKey: false)
    }

    /// A property with an initial value.
    @inlinable
    public init(wrappedValue value: Value) {
        self.init(value: value, indexed: false, primaryKey: false)
    }

    /// The objects that link to this one through their property `originProperty`.
    ///
    /// ```swift
    /// @Persisted(originProperty: "owner") var pets: LinkingObjects<Dog>
    /// ```
    @inlinable
    public init<Origin: ObjectBase>(originProperty: String) where Value == LinkingObjects<Origin> {
        self.init(value: LinkingObjects(originProperty: originProperty), indexed: false, primaryKey: false)
    }

    @usableFromInline
    init(value: Value?, indexed: Bool, primaryKey: Bool) {
        column = -1
        options = (indexed ? 1 : 0) | (primaryKey ? 2 : 0)
        self.value = value
    }

    @available(*, unavailable, message: "@Persisted can only be used on properties of Object subclasses")
    public var wrappedValue: Value {
        get { fatalError() }
        // swiftlint:disable:next unused_setter_value
        set { fatalError() }
    }

    /// Reads and writes the property through its enclosing object.
    @inlinable
    public static subscript<EnclosingSelf: ObjectBase>(
        _enclosingInstance object: EnclosingSelf,
        wrapped wrappedKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Value>,
        storage storageKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Persisted<Value>>
    ) -> Value {
        get {
            let field = wrapper(storageKeyPath, in: object)
            let column = field.pointee.column
            if column < 0 { return field.pointee.unmanagedValue }
            if let recorder = object.keyPathRecorder {
                // A probe learning which property a key path reads.
                recorder.record(column, in: object)
                return recorder.probeValue(field.pointee.unmanagedValue)
            }
            return Value._get(from: object, column: column)
        }
        set {
            let field = wrapper(storageKeyPath, in: object)
            let column = field.pointee.column
            if column < 0 {
                field.pointee.value = newValue
            } else {
                Value._set(newValue, on: object, column: column)
            }
        }
    }

    /// The value while unmanaged; traps, naming the type, when the type could not build its
    /// default and no value has been assigned.
    @inlinable
    var unmanagedValue: Value {
        value ?? Value._defaultValue
    }

    /// The wrapper inside `object`, read straight from memory (see ``FieldOffsetCache``).
    @inlinable
    static func wrapper<EnclosingSelf: ObjectBase>(_ keyPath: ReferenceWritableKeyPath<EnclosingSelf, Persisted<Value>>,
                                                   in object: EnclosingSelf) -> UnsafeMutablePointer<Persisted<Value>> {
        let offset = FieldOffsetCache.offset(of: keyPath, in: object)
        return (UnsafeMutableRawPointer(Unmanaged.passUnretained(object).toOpaque()) + offset)
            .assumingMemoryBound(to: Persisted<Value>.self)
    }
}

/// What schema discovery learns of one `@Persisted` field.
struct PersistedFieldDescription {
    let kind: _StorageKind
    let isOptional: Bool
    var isIndexed: Bool
    var isPrimaryKey: Bool
    let valueType: Any.Type
    /// Where the wrapper keeps its unmanaged value.
    let valueOffset: Int
    /// The linked class of a to-one link or a list of objects.
    let linkedType: ObjectBase.Type?
    /// The collection the property holds, if any.
    let collection: _CollectionKind?
    /// The link property a `LinkingObjects` property follows backwards.
    let originProperty: String?
}

/// Operations on a `@Persisted` field through pointers into an object, used by schema
/// discovery and by the realm to read and write fields without knowing their types.
///
/// The hot ones take a pointer to the wrapper's `value` (at ``FieldInfo/valueOffset``) and need
/// only `Value`'s metadata, never the wrapper's, which the runtime would look up at every call.
protocol PersistedField {
    static func describe(at field: UnsafeRawPointer) -> PersistedFieldDescription
    /// The storage form of the value at `value`.
    static func persistedValue(at value: UnsafeRawPointer) -> _PersistedValue
    /// Stores `persisted` as the value at `value`.
    static func setValue(_ persisted: _PersistedValue, at value: UnsafeMutableRawPointer)
    /// The object a to-one link field holds at `value`, or `nil`.
    static func linkedObject(at value: UnsafeRawPointer) -> ObjectBase?
    /// Stores `object` in the to-one link field at `value`.
    static func setLinkedObject(_ object: ObjectBase?, at value: UnsafeMutableRawPointer)
    /// The elements of the unmanaged collection at `value`.
    static func collectionElements(at value: UnsafeRawPointer) -> [any _Persistable]
    /// The entries of the unmanaged map at `value`.
    static func mapEntries(at value: UnsafeRawPointer) -> [(key: String, value: any _Persistable)]
    /// Turns the unmanaged collection at `value` into `owner`'s managed one for `column` when
    /// something else holds it (code that kept `person.dogs` before `add` sees the realm), and
    /// otherwise lets go of its elements.
    static func manageCollection(at value: UnsafeMutableRawPointer, owner: ObjectBase, column: Int)
    /// The field's Swift value in a managed object, `nil` for a `nil` optional.
    static func read(from object: ObjectBase, column: Int) -> Any?
    /// The field's Swift value held at `value` in an unmanaged object.
    static func read(at value: UnsafeRawPointer) -> Any?
    /// Sets the field from a loosely typed input: in `object`'s row at `column` when managed,
    /// else at `value`. Returns `false` when the input does not fit.
    static func assign(_ any: Any, to object: ObjectBase, column: Int?, at value: UnsafeMutableRawPointer) -> Bool
    /// Converts a loosely typed input to the field's value, or `nil` when it does not fit.
    static func convert(_ any: Any) -> _PersistedValue?
    /// The field's Swift value from storage form.
    static func swiftValue(_ value: _PersistedValue) -> Any?
}

extension Persisted: PersistedField {
    static func describe(at field: UnsafeRawPointer) -> PersistedFieldDescription {
        burrowPrecondition(MemoryLayout<Persisted<Value>>.offset(of: \Persisted<Value>.column) == 0,
                           "Persisted<\(Value.self)> does not start with its column.")
        let persisted = field.assumingMemoryBound(to: Persisted<Value>.self).pointee
        return PersistedFieldDescription(kind: Value._storageKind, isOptional: Value._isOptional,
                                         isIndexed: persisted.isIndexed, isPrimaryKey: persisted.isPrimaryKey,
                                         valueType: Value.self,
                                         valueOffset: MemoryLayout<Persisted<Value>>.offset(of: \Persisted<Value>.value)!,
                                         linkedType: Value._linkedType, collection: Value._collectionKind,
                                         originProperty: persisted.value.flatMap { $0 as? any _LinkingObjectsValue }?.originProperty)
    }

    /// The value held at `value` (a `Value?`, the wrapper's `value`), where it lies. Traps,
    /// naming the type, when the type could not build its default and none was assigned.
    @inline(__always)
    private static func held(at value: UnsafeRawPointer) -> UnsafePointer<Value> {
        if Value._defaultMayFail { requireAssigned(at: value) }
        return value.assumingMemoryBound(to: Value.self)
    }

    /// Traps, naming the type, when the `Value?` at `value` is `nil`. Apart from ``held(at:)``
    /// so that the common types, whose default never fails, never look up `Value?`'s metadata:
    /// the runtime would look it up at every call of a function that merely mentions it.
    @inline(never)
    private static func requireAssigned(at value: UnsafeRawPointer) {
        if value.assumingMemoryBound(to: Value?.self).pointee == nil {
            _ = Value._defaultValue
        }
    }

    /// Stores `newValue` at `value` (a `Value?`, the wrapper's `value`).
    @inline(__always)
    private static func store(_ newValue: Value, at value: UnsafeMutableRawPointer) {
        if Value._defaultMayFail {
            storeOptional(newValue, at: value)
        } else {
            value.assumingMemoryBound(to: Value.self).pointee = newValue
        }
    }

    /// Stores `newValue` in the `Value?` at `value`; apart, as ``requireAssigned(at:)`` is.
    @inline(never)
    private static func storeOptional(_ newValue: Value, at value: UnsafeMutableRawPointer) {
        value.assumingMemoryBound(to: Value?.self).pointee = newValue
    }

    static func persistedValue(at value: UnsafeRawPointer) -> _PersistedValue {
        Value._persistedValue(at: held(at: value))
    }

    static func setValue(_ persisted: _PersistedValue, at value: UnsafeMutableRawPointer) {
        store(Value._fromPersisted(persisted), at: value)
    }

    static func linkedObject(at value: UnsafeRawPointer) -> ObjectBase? {
        held(at: value).pointee._linkedObject
    }

    static func setLinkedObject(_ object: ObjectBase?, at value: UnsafeMutableRawPointer) {
        store(Value._fromLinkedObject(object), at: value)
    }

    static func collectionElements(at value: UnsafeRawPointer) -> [any _Persistable] {
        (held(at: value).pointee as? any _UnmanagedCollection)?.unmanagedElements ?? []
    }

    static func mapEntries(at value: UnsafeRawPointer) -> [(key: String, value: any _Persistable)] {
        (held(at: value).pointee as? any _UnmanagedMap)?.unmanagedEntries ?? []
    }

    static func manageCollection(at value: UnsafeMutableRawPointer, owner: ObjectBase, column: Int) {
        if let adoptable = Value.self as? any _AdoptableCollection.Type {
            adoptable.adoptIfShared(at: value, owner: owner, column: column)
        } else if Value._defaultMayFail {
            value.assumingMemoryBound(to: Value?.self).pointee = Value._defaultIfBuildable
        } else {
            value.assumingMemoryBound(to: Value.self).pointee = Value._defaultValue
        }
    }

    static func read(from object: ObjectBase, column: Int) -> Any? {
        unwrap(Value._get(from: object, column: column))
    }

    static func read(at value: UnsafeRawPointer) -> Any? {
        unwrap(held(at: value).pointee)
    }

    private static func unwrap(_ value: Value) -> Any? {
        if let optional = value as? any OptionalValue, optional.isNil { return nil }
        return value
    }

    static func assign(_ any: Any, to object: ObjectBase, column: Int?, at value: UnsafeMutableRawPointer) -> Bool {
        guard let converted = Value._fromAny(any) else { return false }
        if let column {
            Value._set(converted, on: object, column: column)
        } else {
            store(converted, at: value)
        }
        return true
    }

    static func convert(_ any: Any) -> _PersistedValue? {
        Value._fromAny(any)?._persistedValue
    }

    static func swiftValue(_ value: _PersistedValue) -> Any? {
        let typed = Value._fromPersisted(value)
        if case .null = value { return nil }
        return typed
    }
}

extension Persisted where Value.PersistedType: _Indexable {
    /// An indexed property (when `indexed` is true), holding the type's default. Only types
    /// an index can hold are accepted (``_Indexable``): `@Persisted(indexed: true) var x: Double`
    /// does not compile.
    @inlinable
    public init(indexed: Bool) {
        self.init(value: Value._defaultIfBuildable, indexed: indexed, primaryKey: false)
    }

    /// An indexed property (when `indexed` is true) with an initial value.
    @inlinable
    public init(wrappedValue value: Value, indexed: Bool) {
        self.init(value: value, indexed: indexed, primaryKey: false)
    }
}

extension Persisted where Value.PersistedType: _PrimaryKey {
    /// The class's primary key (when `primaryKey` is true), holding the type's default. Only
    /// types a primary key can be are accepted (``_PrimaryKey``).
    @inlinable
    public init(primaryKey: Bool) {
        self.init(value: Value._defaultIfBuildable, indexed: false, primaryKey: primaryKey)
    }

    /// The class's primary key (when `primaryKey` is true) with an initial value.
    @inlinable
    public init(wrappedValue value: Value, primaryKey: Bool) {
        self.init(value: value, indexed: false, primaryKey: primaryKey)
    }
}
