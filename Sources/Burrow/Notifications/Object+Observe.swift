import Dispatch

extension Object {
    /// Calls `block` after each version that changed or deleted the object, with the properties
    /// that changed and their old and new values.
    ///
    /// ```swift
    /// let token = dog.observe { (change: ObjectChange<Dog>) in
    ///     switch change {
    ///     case .change(let dog, let properties):
    ///         for property in properties { print(dog.name, property.name, property.oldValue ?? "nil", property.newValue ?? "nil") }
    ///     case .deleted: print("gone")
    ///     case .error(let error): print(error)
    ///     }
    /// }
    /// ```
    /// There is no initial notification. `keyPaths` (`["name", "owner.name"]`) limits what
    /// counts: a name of the object's property, or a path through a link to the linked
    /// object's properties. Without it, every property counts, and every property of objects
    /// linked up to four links away (reported as the link property that reaches them). Setting
    /// a property to the value it holds is a change, as in RealmSwift; adding an object over a
    /// stored one (`add(_:update:)`) changes only the properties whose values differ.
    ///
    /// Delivered as ``Results/observe(keyPaths:on:_:)`` delivers. Traps for an unmanaged or
    /// frozen object, inside a write, or for a key path naming no property.
    public func observe<T: ObjectBase>(keyPaths: [String]? = nil, on queue: DispatchQueue? = nil,
                                       _ block: @escaping (ObjectChange<T>) -> Void) -> NotificationToken {
        guard let management else { burrowPreconditionFailure(TrapMessage.observeUnmanaged) }
        let realm = management.realm
        realm.verifyThread()
        burrowPrecondition(!realm.isFrozen, TrapMessage.frozenNotifications)
        burrowPrecondition(realm.writeState == nil, TrapMessage.observeInWrite)
        burrowPrecondition(!isInvalidated, TrapMessage.objectInvalidated)
        guard let typed = self as? T else { burrowPreconditionFailure("Cannot observe a '\(type(of: self))' as a '\(T.self)'.") }
        if let queue {
            return QueueObservation.observe(self, on: queue) { $0.observe(keyPaths: keyPaths, block) }
        }
        // Validates the key paths now, where they are written.
        _ = ModificationFilter(className: management.bound.layout.className, keyPaths: keyPaths.map { $0.map { $0.split(separator: ".").map(String.init) } },
                               catalog: realm.catalog)
        let observation = ObjectObservation(typed, keyPaths: keyPaths, block: block)
        // The values to compare with are those of the version the object is read at now.
        observation.deliverInitial(in: realm)
        observation.baseline = realm.transaction.id
        return realm.observe(observation)
    }

    /// The same, with key paths of the object's class (`[\Dog.name]`); each names one property.
    public func observe<T: ObjectBase>(keyPaths: [PartialKeyPath<T>], on queue: DispatchQueue? = nil,
                                       _ block: @escaping (ObjectChange<T>) -> Void) -> NotificationToken {
        let info = ClassInfo.of(T.self)
        return observe(keyPaths: keyPaths.map { info.propertyName(of: $0) }, on: queue, block)
    }
}
