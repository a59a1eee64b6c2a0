/// A property declared as a `let` holding its value in a box, as RealmSwift's older models
/// declare `AnyRealmValue` and optional numbers: change it through ``value``.
///
/// ```swift
/// final class Reading: Object {
///     let raw = RealmProperty<AnyRealmValue>()
///     let celsius = RealmProperty<Double?>()
/// }
/// try realm.write { reading.celsius.value = 21.5 }
/// ```
///
/// Stored, queried and described like the `@Persisted` property of the same type.
public final class RealmProperty<Value: RealmPropertyType>: PersistedBox, CustomStringConvertible {
    // The first stored property (see PersistedBox).
    var storage: Persisted<Value>
    weak var owner: ObjectBase?
    var location: ObjectBase.Management?

    /// A property holding the type's default (`nil`, or `AnyRealmValue.none`).
    public init() {
        storage = Persisted(value: Value._defaultValue, indexed: false, primaryKey: false)
    }

    /// The value: the object's row once it is managed, the box's own until then.
    ///
    /// Setting it on a managed object outside a write transaction traps, as for `@Persisted`.
    public var value: Value {
        get { boxedValue }
        set { boxedValue = newValue }
    }

    /// The value's description.
    public var description: String { String(describing: value) }
}

/// An optional number, string or other value in a box, as RealmSwift's older models declare
/// them; the same as a ``RealmProperty`` of `Wrapped?`.
///
/// ```swift
/// final class Reading: Object {
///     let humidity = RealmOptional<Int>()
/// }
/// try realm.write { reading.humidity.value = 40 }
/// ```
public final class RealmOptional<Wrapped: RealmOptionalType>: PersistedBox, CustomStringConvertible {
    // The first stored property (see PersistedBox).
    var storage: Persisted<Wrapped?>
    weak var owner: ObjectBase?
    var location: ObjectBase.Management?

    /// A box holding `value`, `nil` unless given.
    public init(_ value: Wrapped? = nil) {
        storage = Persisted(value: value, indexed: false, primaryKey: false)
    }

    /// The value: the object's row once it is managed, the box's own until then.
    public var value: Wrapped? {
        get { boxedValue }
        set { boxedValue = newValue }
    }

    /// The value's description.
    public var description: String { String(describing: value) }
}

extension RealmProperty: Equatable where Value: Equatable {
    /// Whether both hold equal values.
    public static func == (lhs: RealmProperty, rhs: RealmProperty) -> Bool { lhs.value == rhs.value }
}

extension RealmOptional: Equatable where Wrapped: Equatable {
    /// Whether both hold equal values.
    public static func == (lhs: RealmOptional, rhs: RealmOptional) -> Bool { lhs.value == rhs.value }
}

extension RealmProperty: Codable where Value: Codable {
    /// Decodes the value; `null` is the type's default.
    public convenience init(from decoder: any Decoder) throws {
        self.init()
        let container = try decoder.singleValueContainer()
        if !container.decodeNil() { value = try container.decode(Value.self) }
    }

    /// Encodes the value alone.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(value)
    }
}

extension RealmOptional: Codable where Wrapped: Codable {
    /// Decodes the value, `nil` for `null`.
    public convenience init(from decoder: any Decoder) throws {
        self.init(try decoder.singleValueContainer().decode(Wrapped?.self))
    }

    /// Encodes the value alone.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(value)
    }
}
