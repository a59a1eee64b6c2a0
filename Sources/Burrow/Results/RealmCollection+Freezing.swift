extension ResultsQuery {
    /// The query with its source read through `core`, or `nil` when the source's owner does
    /// not exist there.
    func moved(to core: RealmCore) -> ResultsQuery? {
        var moved = self
        switch source {
        case .table:
            return self
        case .list(let list):
            guard let list = list.moved(to: core) else { return nil }
            moved.source = .list(list)
        case .set(let set):
            guard let set = set.moved(to: core) else { return nil }
            moved.source = .set(set)
        case .map(let map):
            guard let map = map.moved(to: core) else { return nil }
            moved.source = .map(map)
        case .linkingObjects(let owner, let originProperty):
            guard let management = owner.management, let bound = core.bound(management.bound.info),
                  core.contains(management.key, in: bound.layout) else { return nil }
            moved.source = .linkingObjects(owner: core.makeObject(bound, key: management.key), originProperty: originProperty)
        }
        return moved
    }
}

extension Results {
    /// A frozen snapshot of the results: they never change, and any number of threads may
    /// read, filter and sort them at once.
    ///
    /// ```swift
    /// let puppies = realm.objects(Dog.self).filter("age < 2").freeze()
    /// Task.detached { [puppies = Frozen(puppies)] in puppies.value.sorted(byKeyPath: "name").first?.name }
    /// ```
    public func freeze() -> Results<Element> {
        guard let moved = moved(to: { $0.frozen() }) else {
            preconditionFailure("Cannot freeze results whose collection was created in the write transaction still open.")
        }
        return moved
    }

    /// The live results in the calling thread's realm at the latest version, or `nil` when
    /// the collection they read was deleted.
    public func thaw() -> Results<Element>? {
        moved(to: { $0.thawed() })
    }

    /// These results read through the realm `target` gives for theirs.
    func moved(to target: (RealmCore) -> RealmCore) -> Results<Element>? {
        switch backing {
        case .objects(let core):
            core.realm.verifyThread()
            let realm = target(core.realm)
            if realm === core.realm { return self }
            guard let query = core.query.moved(to: realm) else { return nil }
            return Results(core: ResultsCore(realm: realm, info: core.info, query: query))
        case .values(let values):
            values.realm.verifyThread()
            precondition(!values.source.isInvalidated, "Object has been deleted or invalidated.")
            let realm = target(values.realm)
            if realm === values.realm { return self }
            guard let source = values.source.source(in: realm) else { return nil }
            return Results(values: ValueResultsCore(source: source, isOptional: values.isOptional, query: values.query))
        }
    }
}

extension List {
    /// Whether the list is a frozen snapshot (``freeze()``).
    public var isFrozen: Bool { managed?.realm.isFrozen ?? false }

    /// A frozen snapshot of the list. Traps while unmanaged.
    ///
    /// ```swift
    /// let names = person.nicknames.freeze()
    /// ```
    public func freeze() -> List<Element> {
        guard let managed else { preconditionFailure("This method may only be called on List instances retrieved from a Realm") }
        managed.realm.verifyThread()
        if managed.realm.isFrozen { return self }
        precondition(!managed.isInvalidated, "Object has been deleted or invalidated.")
        guard let storage = managed.storage(in: managed.realm.frozen()) else {
            preconditionFailure("Cannot freeze an object in the same write transaction as it was created in.")
        }
        return List(managed: storage)
    }

    /// The live list in the calling thread's realm at the latest version, or `nil` when its
    /// owner was deleted. Traps while unmanaged.
    public func thaw() -> List<Element>? {
        guard let managed else { preconditionFailure("This method may only be called on List instances retrieved from a Realm") }
        guard managed.realm.isFrozen else { return self }
        return managed.storage(in: managed.realm.thawed()).map { List(managed: $0) }
    }
}

extension MutableSet {
    /// Whether the set is a frozen snapshot (``freeze()``).
    public var isFrozen: Bool { managed?.realm.isFrozen ?? false }

    /// A frozen snapshot of the set. Traps while unmanaged.
    public func freeze() -> MutableSet<Element> {
        guard let managed else { preconditionFailure("This method may only be called on MutableSet instances retrieved from a Realm") }
        managed.realm.verifyThread()
        if managed.realm.isFrozen { return self }
        precondition(!managed.isInvalidated, "Object has been deleted or invalidated.")
        guard let storage = managed.moved(to: managed.realm.frozen()) else {
            preconditionFailure("Cannot freeze an object in the same write transaction as it was created in.")
        }
        return MutableSet(managed: storage)
    }

    /// The live set in the calling thread's realm, or `nil` when its owner was deleted.
    public func thaw() -> MutableSet<Element>? {
        guard let managed else { preconditionFailure("This method may only be called on MutableSet instances retrieved from a Realm") }
        guard managed.realm.isFrozen else { return self }
        return managed.moved(to: managed.realm.thawed()).map { MutableSet(managed: $0) }
    }
}

extension Map {
    /// Whether the map is a frozen snapshot (``freeze()``).
    public var isFrozen: Bool { managed?.realm.isFrozen ?? false }

    /// A frozen snapshot of the map. Traps while unmanaged.
    public func freeze() -> Map<Key, Value> {
        guard let managed else { preconditionFailure("This method may only be called on Map instances retrieved from a Realm") }
        managed.realm.verifyThread()
        if managed.realm.isFrozen { return self }
        precondition(!managed.isInvalidated, "Object has been deleted or invalidated.")
        guard let storage = managed.storage(in: managed.realm.frozen()) else {
            preconditionFailure("Cannot freeze an object in the same write transaction as it was created in.")
        }
        return Map(managed: storage)
    }

    /// The live map in the calling thread's realm, or `nil` when its owner was deleted.
    public func thaw() -> Map<Key, Value>? {
        guard let managed else { preconditionFailure("This method may only be called on Map instances retrieved from a Realm") }
        guard managed.realm.isFrozen else { return self }
        return managed.storage(in: managed.realm.thawed()).map { Map(managed: $0) }
    }
}

extension LinkingObjects {
    /// Whether the linking objects are a frozen snapshot (``freeze()``).
    public var isFrozen: Bool { owner?.belongsToFrozenRealm ?? false }

    /// The objects linking to a frozen snapshot of the owner. Traps while the owner is unmanaged.
    public func freeze() -> LinkingObjects<Element> {
        guard let owner, owner.management != nil else {
            preconditionFailure("This method may only be called on LinkingObjects instances retrieved from a Realm")
        }
        let frozen: ObjectBase = owner.frozenObject()
        return frozen === owner ? self : LinkingObjects(originProperty: originProperty, owner: frozen)
    }

    /// The objects linking to the live owner, or `nil` when it was deleted.
    public func thaw() -> LinkingObjects<Element>? {
        guard let owner, owner.management != nil else {
            preconditionFailure("This method may only be called on LinkingObjects instances retrieved from a Realm")
        }
        guard let live: ObjectBase = owner.thawedObject() else { return nil }
        return live === owner ? self : LinkingObjects(originProperty: originProperty, owner: live)
    }
}
