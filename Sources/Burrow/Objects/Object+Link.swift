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
    /// Implementation detail of `_Persistable`; do not use.
    public static var _storageKind: _StorageKind { .link }

    /// Implementation detail of `_Persistable`; do not use.
    public static var _defaultValue: Self {
        burrowPreconditionFailure("A to-one link property must be Optional: declare it as \(self)?.")
    }

    /// Implementation detail of `_Persistable`; do not use.
    public var _persistedValue: _PersistedValue {
        guard let management else {
            burrowPreconditionFailure("An unmanaged \(Self.className()) has no stored form; add it to a realm first.")
        }
        return .link(management.key.rawValue)
    }

    /// Implementation detail of `_Persistable`; do not use.
    public static func _fromPersisted(_ value: _PersistedValue) -> Self {
        burrowPreconditionFailure("A link to \(className()) is read through the object that holds it.")
    }

    /// Implementation detail of `_Persistable`; do not use.
    public static var _linkedType: ObjectBase.Type? { self }

    /// Implementation detail of `_Persistable`; do not use.
    public var _linkedObject: ObjectBase? { self }

    /// Implementation detail of `_Persistable`; do not use.
    public static func _fromLinkedObject(_ object: ObjectBase?) -> Self {
        guard let object else { burrowPreconditionFailure("A to-one link property must be Optional: declare it as \(self)?.") }
        return object as! Self
    }
}
