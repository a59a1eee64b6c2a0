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
            guard let owner: ObjectBase = owner.movedObject(to: core) else { return nil }
            moved.source = .linkingObjects(owner: owner, originProperty: originProperty)
        }
        return moved
    }
}

extension Results: RealmBound {
    var boundRealm: RealmCore? {
        switch backing {
        case .objects(let core): core.realm
        case .values(let values): values.realm
        }
    }

    func moved(to realm: RealmCore) -> Results<Element>? {
        switch backing {
        case .objects(let core):
            if realm === core.realm { return self }
            return core.query.moved(to: realm).map { Results(core: ResultsCore(realm: realm, info: core.info, query: $0)) }
        case .values(let values):
            if realm === values.realm { return values.source.isInvalidated ? nil : self }
            return values.source.source(in: realm).map {
                Results(values: ValueResultsCore(source: $0, isOptional: values.isOptional, query: values.query))
            }
        }
    }

    /// A frozen snapshot of the results: they never change, and any number of threads may
    /// read, filter and sort them at once.
    ///
    /// ```swift
    /// let puppies = realm.objects(Dog.self).filter("age < 2").freeze()
    /// Task.detached { [puppies = Frozen(puppies)] in puppies.value.sorted(byKeyPath: "name").first?.name }
    /// ```
    public func freeze() -> Results<Element> { frozenValue(unmanaged: "Results have no realm.") }

    /// The live results in the calling thread's realm at the latest version, or `nil` when
    /// the collection they read was deleted.
    public func thaw() -> Results<Element>? { thawedValue(unmanaged: "Results have no realm.") }
}

extension List: RealmBound {
    var boundRealm: RealmCore? { managed?.realm }

    func moved(to core: RealmCore) -> List<Element>? {
        guard let managed else { return nil }
        if managed.realm === core { return managed.isInvalidated ? nil : self }
        return managed.storage(in: core).map { List(managed: $0) }
    }

    /// Whether the list is a frozen snapshot (``freeze()``).
    public var isFrozen: Bool { managed?.realm.isFrozen ?? false }

    /// A frozen snapshot of the list. Traps while unmanaged.
    ///
    /// ```swift
    /// let names = person.nicknames.freeze()
    /// ```
    public func freeze() -> List<Element> {
        frozenValue(unmanaged: "This method may only be called on List instances retrieved from a Realm")
    }

    /// The live list in the calling thread's realm at the latest version, or `nil` when its
    /// owner was deleted. Traps while unmanaged.
    public func thaw() -> List<Element>? {
        thawedValue(unmanaged: "This method may only be called on List instances retrieved from a Realm")
    }
}

extension MutableSet: RealmBound {
    var boundRealm: RealmCore? { managed?.realm }

    func moved(to core: RealmCore) -> MutableSet<Element>? {
        guard let managed else { return nil }
        if managed.realm === core { return managed.isInvalidated ? nil : self }
        return managed.moved(to: core).map { MutableSet(managed: $0) }
    }

    /// Whether the set is a frozen snapshot (``freeze()``).
    public var isFrozen: Bool { managed?.realm.isFrozen ?? false }

    /// A frozen snapshot of the set. Traps while unmanaged.
    public func freeze() -> MutableSet<Element> {
        frozenValue(unmanaged: "This method may only be called on MutableSet instances retrieved from a Realm")
    }

    /// The live set in the calling thread's realm, or `nil` when its owner was deleted.
    public func thaw() -> MutableSet<Element>? {
        thawedValue(unmanaged: "This method may only be called on MutableSet instances retrieved from a Realm")
    }
}

extension Map: RealmBound {
    var boundRealm: RealmCore? { managed?.realm }

    func moved(to core: RealmCore) -> Map<Key, Value>? {
        guard let managed else { return nil }
        if managed.realm === core { return managed.isInvalidated ? nil : self }
        return managed.storage(in: core).map { Map(managed: $0) }
    }

    /// Whether the map is a frozen snapshot (``freeze()``).
    public var isFrozen: Bool { managed?.realm.isFrozen ?? false }

    /// A frozen snapshot of the map. Traps while unmanaged.
    public func freeze() -> Map<Key, Value> {
        frozenValue(unmanaged: "This method may only be called on Map instances retrieved from a Realm")
    }

    /// The live map in the calling thread's realm, or `nil` when its owner was deleted.
    public func thaw() -> Map<Key, Value>? {
        thawedValue(unmanaged: "This method may only be called on Map instances retrieved from a Realm")
    }
}

extension LinkingObjects: RealmBound where Element: Object {
    var boundRealm: RealmCore? { owner?.management?.realm }

    func moved(to core: RealmCore) -> LinkingObjects<Element>? {
        guard let owner else { return nil }
        if owner.management?.realm === core { return isInvalidated ? nil : self }
        guard let moved: ObjectBase = owner.movedObject(to: core) else { return nil }
        return LinkingObjects(originProperty: originProperty, owner: moved)
    }

    /// Whether the linking objects are a frozen snapshot (``freeze()``).
    public var isFrozen: Bool { owner?.belongsToFrozenRealm ?? false }

    /// The objects linking to a frozen snapshot of the owner. Traps while the owner is unmanaged.
    public func freeze() -> LinkingObjects<Element> {
        frozenValue(unmanaged: "This method may only be called on LinkingObjects instances retrieved from a Realm")
    }

    /// The objects linking to the live owner, or `nil` when it was deleted.
    public func thaw() -> LinkingObjects<Element>? {
        thawedValue(unmanaged: "This method may only be called on LinkingObjects instances retrieved from a Realm")
    }
}
