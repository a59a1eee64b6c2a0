@_spi(Reflection) import Swift

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
public final class RealmProperty<Value: RealmPropertyType>: CustomStringConvertible {
    // `storage` is the first stored property: the realm reaches it as it reaches a
    // `@Persisted` field inside an object, at `storageOffset` into this box.
    var storage: Persisted<Value>
    /// The object whose row holds the value once it is managed. Weak: the object holds the box.
    weak var owner: ObjectBase?
    /// The owner's row, read through a new accessor when the box outlives its object.
    var location: ObjectBase.Management?

    /// A property holding the type's default (`nil`, or `AnyRealmValue.none`).
    public init() {
        storage = Persisted(value: Value._defaultValue, indexed: false, primaryKey: false)
    }

    /// The value: the object's row once it is managed, the box's own until then.
    ///
    /// Setting it on a managed object outside a write transaction traps, as for `@Persisted`.
    public var value: Value {
        get {
            guard storage.column >= 0 else { return storage.value }
            return Value._get(from: managedOwner, column: storage.column)
        }
        set {
            if storage.column < 0 {
                storage.value = newValue
            } else {
                Value._set(newValue, on: managedOwner, column: storage.column)
            }
        }
    }

    public var description: String { String(describing: value) }

    private var managedOwner: ObjectBase {
        if let owner { return owner }
        guard let location else { preconditionFailure("A managed RealmProperty has no object.") }
        return location.realm.makeObject(location.bound, key: location.key)
    }
}

extension RealmProperty: Equatable where Value: Equatable {
    /// Whether both hold equal values.
    public static func == (lhs: RealmProperty, rhs: RealmProperty) -> Bool { lhs.value == rhs.value }
}

extension RealmProperty: Codable where Value: Codable {
    /// Decodes the value; a missing or `null` one is the type's default.
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

/// A field of a model class that holds a box with a `@Persisted` field inside it.
protocol PersistedBox: AnyObject {
    /// The operations on the field inside the box.
    static var persistedField: any PersistedField.Type { get }
    /// Where the field starts inside an instance of the box.
    static var storageOffset: Int { get }
    /// Lets the box read and write through `owner` once its field is managed.
    func attach(to owner: ObjectBase)
}

extension RealmProperty: PersistedBox {
    static var persistedField: any PersistedField.Type { Persisted<Value>.self }

    static var storageOffset: Int {
        var found: Int?
        _ = _forEachField(of: self, options: _EachFieldOptions(rawValue: 1 << 0)) { name, offset, _, _ in
            if String(cString: name) == "storage" { found = offset }
            return found == nil
        }
        guard let found else { preconditionFailure("RealmProperty has no storage field.") }
        return found
    }

    func attach(to owner: ObjectBase) {
        self.owner = owner
        location = owner.management
    }
}
