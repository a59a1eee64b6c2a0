/// A projection stands for the object it projects wherever a collection of them needs a stored
/// form: ``Results`` of projections read objects and project each.
extension Projection {
    /// Implementation detail of `_Persistable`; do not use.
    public static var _storageKind: _StorageKind { .link }

    /// Implementation detail of `_Persistable`; do not use.
    public static var _defaultValue: Self {
        burrowPreconditionFailure("A projection cannot be a property of an object: project the object itself.")
    }

    /// Implementation detail of `_Persistable`; do not use.
    public var _persistedValue: _PersistedValue { rootObject._persistedValue }

    /// Implementation detail of `_Persistable`; do not use.
    public static func _fromPersisted(_ value: _PersistedValue) -> Self {
        burrowPreconditionFailure("A projection of \(Root.self) is read through the object it projects.")
    }

    /// Implementation detail of `_Persistable`; do not use.
    public static var _linkedType: ObjectBase.Type? { Root.self }

    /// Implementation detail of `_Persistable`; do not use.
    public var _linkedObject: ObjectBase? { rootObject }

    /// Implementation detail of `_Persistable`; do not use.
    public static func _fromLinkedObject(_ object: ObjectBase?) -> Self {
        guard let root = object as? Root else {
            burrowPreconditionFailure("A projection of \(Root.self) needs a \(Root.self) to project, not \(object.map { "\(type(of: $0))" } ?? "nil").")
        }
        return Self(projecting: root)
    }
}
