/// An object is what a to-one link property holds:
///
/// ```swift
/// final class Dog: Object {
///     @Persisted var owner: Person?
/// }
/// try realm.write { dog.owner = jane }       // an unmanaged Jane is added with the dog
/// ```
///
/// The row stores the target's object key; reading the property returns an accessor for the
/// target in the realm's current version, or `nil`.
extension Object: _Persistable {
    public static var _storageKind: _StorageKind { .link }

    public static var _defaultValue: Self {
        preconditionFailure("A to-one link property must be Optional: declare it as \(self)?.")
    }

    public var _persistedValue: _PersistedValue {
        guard let management else {
            preconditionFailure("An unmanaged \(Self.className()) has no stored form; add it to a realm first.")
        }
        return .link(management.key.rawValue)
    }

    public static func _fromPersisted(_ value: _PersistedValue) -> Self {
        preconditionFailure("A link to \(className()) is read through the object that holds it.")
    }

    public static var _linkedType: ObjectBase.Type? { self }

    public var _linkedObject: ObjectBase? { self }

    public static func _fromLinkedObject(_ object: ObjectBase?) -> Self {
        guard let object else { preconditionFailure("A to-one link property must be Optional: declare it as \(self)?.") }
        return object as! Self
    }
}
