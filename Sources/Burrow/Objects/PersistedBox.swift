@_spi(Reflection) import Swift

/// A class whose instances a model's `let` property holds, with a `@Persisted` field inside
/// (``RealmProperty``, ``RealmOptional``). `storage` is its first stored property: the realm
/// reaches it at ``storageOffset`` into the box as it reaches a `@Persisted` field inside an
/// object, so storage, queries and the dynamic API need nothing else.
protocol PersistedBox: AnyObject {
    associatedtype Stored: _Persistable
    var storage: Persisted<Stored> { get set }
    /// The object whose row holds the value once managed. Weak: the object holds the box.
    var owner: ObjectBase? { get set }
    /// The owner's row, read through a new accessor when the box outlives its object.
    var location: ObjectBase.Management? { get set }
}

extension PersistedBox {
    /// The operations on the field inside the box.
    static var persistedField: any PersistedField.Type { Persisted<Stored>.self }

    /// Where `storage` starts inside an instance.
    static var storageOffset: Int {
        var found: Int?
        _ = _forEachField(of: self, options: _EachFieldOptions(rawValue: 1 << 0)) { name, offset, _, _ in
            if String(cString: name) == "storage" { found = offset }
            return found == nil
        }
        guard let found else { burrowPreconditionFailure("\(self) has no storage field.") }
        return found
    }

    /// Lets the box read and write through `owner` once its field is managed.
    func attach(to owner: ObjectBase) {
        self.owner = owner
        location = owner.management
    }

    /// The value: the owner's row once managed, the box's own until then.
    var boxedValue: Stored {
        get {
            guard storage.column >= 0 else { return storage.unmanagedValue }
            return Stored._get(from: managedOwner, column: storage.column)
        }
        set {
            if storage.column < 0 {
                storage.value = newValue
            } else {
                Stored._set(newValue, on: managedOwner, column: storage.column)
            }
        }
    }

    private var managedOwner: ObjectBase {
        if let owner { return owner }
        guard let location else { burrowPreconditionFailure("A managed \(Self.self) has no object.") }
        return location.realm.makeObject(location.bound, key: location.key)
    }
}
