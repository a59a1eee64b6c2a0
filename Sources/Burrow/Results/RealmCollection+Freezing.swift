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

/// A collection that reads a managed storage once its owner is managed: ``List``,
/// ``MutableSet`` and ``Map``. Moving it to another realm of the file, freezing and thawing it go
/// the same way for the three; each says only how its storage is read through another realm.
protocol StorageBackedCollection: RealmBound {
    /// The type's name in the trap of `freeze()` and `thaw()` while unmanaged.
    static var typeName: String { get }
    /// The collection reading its storage through `core`, a realm of the same file other than
    /// its own, or `nil` where its owner does not exist there. Called only while managed.
    func reading(in core: RealmCore) -> Self?
}

extension StorageBackedCollection {
    func moved(to core: RealmCore) -> Self? {
        guard let realm = boundRealm else { return nil }
        if realm === core { return isInvalidated ? nil : self }
        return reading(in: core)
    }

    /// Whether the collection reads a frozen snapshot: `isFrozen` of each type.
    var readsFrozenSnapshot: Bool { boundRealm?.isFrozen ?? false }

    /// `freeze()` of each type: traps while unmanaged.
    func frozenCollection() -> Self { frozenValue(unmanaged: Self.unmanagedMessage) }

    /// `thaw()` of each type: traps while unmanaged.
    func thawedCollection() -> Self? { thawedValue(unmanaged: Self.unmanagedMessage) }

    private static var unmanagedMessage: String {
        "This method may only be called on \(typeName) instances retrieved from a Realm"
    }
}

extension List: StorageBackedCollection {
    static var typeName: String { "List" }
    var boundRealm: RealmCore? { managed?.realm }

    func reading(in core: RealmCore) -> List<Element>? {
        managed?.storage(in: core).map { List(managed: $0) }
    }

    /// Whether the list is a frozen snapshot (``freeze()``).
    public var isFrozen: Bool { readsFrozenSnapshot }

    /// A frozen snapshot of the list. Traps while unmanaged.
    ///
    /// ```swift
    /// let names = person.nicknames.freeze()
    /// ```
    public func freeze() -> List<Element> { frozenCollection() }

    /// The live list in the calling thread's realm at the latest version, or `nil` when its
    /// owner was deleted. Traps while unmanaged.
    public func thaw() -> List<Element>? { thawedCollection() }
}

extension MutableSet: StorageBackedCollection {
    static var typeName: String { "MutableSet" }
    var boundRealm: RealmCore? { managed?.realm }

    func reading(in core: RealmCore) -> MutableSet<Element>? {
        managed?.moved(to: core).map { MutableSet(managed: $0) }
    }

    /// Whether the set is a frozen snapshot (``freeze()``).
    public var isFrozen: Bool { readsFrozenSnapshot }

    /// A frozen snapshot of the set. Traps while unmanaged.
    public func freeze() -> MutableSet<Element> { frozenCollection() }

    /// The live set in the calling thread's realm, or `nil` when its owner was deleted.
    public func thaw() -> MutableSet<Element>? { thawedCollection() }
}

extension Map: StorageBackedCollection {
    static var typeName: String { "Map" }
    var boundRealm: RealmCore? { managed?.realm }

    func reading(in core: RealmCore) -> Map<Key, Value>? {
        managed?.storage(in: core).map { Map(managed: $0) }
    }

    /// Whether the map is a frozen snapshot (``freeze()``).
    public var isFrozen: Bool { readsFrozenSnapshot }

    /// A frozen snapshot of the map. Traps while unmanaged.
    public func freeze() -> Map<Key, Value> { frozenCollection() }

    /// The live map in the calling thread's realm, or `nil` when its owner was deleted.
    public func thaw() -> Map<Key, Value>? { thawedCollection() }
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
