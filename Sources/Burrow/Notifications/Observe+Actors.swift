// The `on: actor` forms of `observe`, as RealmSwift has them: the value is handed to a realm
// isolated to the actor, and the block runs isolated to it with the value as that realm reads
// it. Each returns once the observation is registered; the first notification may come later.

extension RealmCollection {
    /// Calls `block` isolated to `actor` with the collection's initial state, then after each
    /// version that changed it; the collection it receives belongs to the actor's realm.
    ///
    /// ```swift
    /// actor Counter {
    ///     var count = 0
    ///     func set(_ n: Int) { count = n }
    /// }
    /// let token = await realm.objects(Dog.self).observe(keyPaths: ["name"], on: counter) { counter, change in
    ///     if case .initial(let dogs) = change { counter.set(dogs.count) }
    /// }
    /// ```
    /// Traps as ``observe(keyPaths:on:_:)`` traps, and for an unmanaged or frozen collection.
    public func observe<A: Actor>(keyPaths: [String]? = nil, on actor: A,
                                  _isolation: isolated (any Actor)? = #isolation,
                                  _ block: @Sendable @escaping (isolated A, RealmCollectionChange<Self>) -> Void) async -> NotificationToken {
        await ActorObservation.observe(self, on: actor) { actor, collection in
            collection.observe(keyPaths: keyPaths, on: nil) { change in actor.deliverIsolated(block, change) }
        }
    }
}

extension RealmCollection where Element: ObjectBase {
    /// ``observe(keyPaths:on:_isolation:_:)-([String]?,_,_,_)`` with typed key paths of the
    /// elements (`[\.name]`).
    ///
    /// ```swift
    /// let token = await dogs.observe(keyPaths: [\.name], on: counter) { counter, change in print(change) }
    /// ```
    public func observe<A: Actor>(keyPaths: [PartialKeyPath<Element>], on actor: A,
                                  _isolation: isolated (any Actor)? = #isolation,
                                  _ block: @Sendable @escaping (isolated A, RealmCollectionChange<Self>) -> Void) async -> NotificationToken {
        await observe(keyPaths: keyPaths.map(_name(for:)), on: actor, block)
    }
}

extension Map {
    /// Calls `block` isolated to `actor` with the map's initial state, then after each version
    /// that changed it; the map it receives belongs to the actor's realm.
    ///
    /// ```swift
    /// let token = await person.pets.observe(on: counter) { counter, change in print(change) }
    /// ```
    /// Traps as ``observe(keyPaths:on:_:)`` traps, and for an unmanaged or frozen map.
    public func observe<A: Actor>(keyPaths: [String]? = nil, on actor: A,
                                  _isolation: isolated (any Actor)? = #isolation,
                                  _ block: @Sendable @escaping (isolated A, RealmMapChange<Map>) -> Void) async -> NotificationToken {
        await ActorObservation.observe(self, on: actor) { actor, map in
            map.observe(keyPaths: keyPaths, on: nil) { change in actor.deliverIsolated(block, change) }
        }
    }

    /// The same, with typed key paths of the objects the map holds (`[\.name]`).
    ///
    /// ```swift
    /// let token = await person.pets.observe(keyPaths: [\.name], on: counter) { counter, change in print(change) }
    /// ```
    public func observe<A: Actor>(keyPaths: [PartialKeyPath<Value.Wrapped>], on actor: A,
                                  _isolation: isolated (any Actor)? = #isolation,
                                  _ block: @Sendable @escaping (isolated A, RealmMapChange<Map>) -> Void) async -> NotificationToken
    where Value: OptionalProtocol, Value.Wrapped: ObjectBase {
        await observe(keyPaths: keyPaths.map(_name(for:)), on: actor, block)
    }
}

extension Object {
    /// Calls `block` isolated to `actor` after each version that changed or deleted the
    /// object; the object it receives belongs to the actor's realm.
    ///
    /// ```swift
    /// let token = await dog.observe(keyPaths: ["name"], on: counter) { (counter, change: ObjectChange<Dog>) in
    ///     if case .change(let dog, _) = change { print(dog.name) }
    /// }
    /// ```
    /// There is no initial notification. Traps as ``observe(keyPaths:on:_:)-([String]?,_,_)``
    /// traps.
    public func observe<A: Actor, T: Object>(keyPaths: [String]? = nil, on actor: A,
                                             _isolation: isolated (any Actor)? = #isolation,
                                             _ block: @Sendable @escaping (isolated A, ObjectChange<T>) -> Void) async -> NotificationToken {
        await ActorObservation.observe(self, on: actor) { actor, object in
            object.observe(keyPaths: keyPaths, on: nil) { (change: ObjectChange<T>) in actor.deliverIsolated(block, change) }
        }
    }

    /// The same, with typed key paths of the object's class (`[\Dog.name]`).
    ///
    /// ```swift
    /// let token = await dog.observe(keyPaths: [\Dog.name], on: counter) { counter, change in print(change) }
    /// ```
    public func observe<A: Actor, T: Object>(keyPaths: [PartialKeyPath<T>], on actor: A,
                                             _isolation: isolated (any Actor)? = #isolation,
                                             _ block: @Sendable @escaping (isolated A, ObjectChange<T>) -> Void) async -> NotificationToken {
        await observe(keyPaths: keyPaths.map(_name(for:)), on: actor, block)
    }
}

extension RealmSectionedResult {
    /// Calls `block` isolated to `actor` with the sections' initial state, then after each
    /// version that changed them; the sections it receives belong to the actor's realm.
    ///
    /// ```swift
    /// let token = await dogs.sectioned(by: \.age).observe(on: counter) { counter, change in print(change) }
    /// ```
    /// Traps as ``observe(keyPaths:on:_:)`` traps, and for frozen sections.
    public func observe<A: Actor>(keyPaths: [String]? = nil, on actor: A,
                                  _isolation: isolated (any Actor)? = #isolation,
                                  _ block: @Sendable @escaping (isolated A, SectionedResultsChange<Self>) -> Void) async -> NotificationToken {
        await ActorObservation.observe(self, on: actor) { actor, sections in
            sections.observe(keyPaths: keyPaths, on: nil) { change in actor.deliverIsolated(block, change) }
        }
    }
}

extension RealmSectionedResult where Element: ObjectBase {
    /// The actor form with typed key paths of the elements of a section.
    ///
    /// ```swift
    /// let token = await section.observe(keyPaths: [\.name], on: counter) { counter, change in print(change) }
    /// ```
    public func observe<A: Actor>(keyPaths: [PartialKeyPath<Element>], on actor: A,
                                  _isolation: isolated (any Actor)? = #isolation,
                                  _ block: @Sendable @escaping (isolated A, SectionedResultsChange<Self>) -> Void) async -> NotificationToken {
        await observe(keyPaths: keyPaths.map(_name(for:)), on: actor, block)
    }
}

extension RealmSectionedResult where Element: RealmSectionedResult, Element.Element: ObjectBase {
    /// The actor form with typed key paths of the sectioned objects.
    ///
    /// ```swift
    /// let token = await dogs.sectioned(by: \.age).observe(keyPaths: [\.name], on: counter) { counter, change in print(change) }
    /// ```
    public func observe<A: Actor>(keyPaths: [PartialKeyPath<Element.Element>], on actor: A,
                                  _isolation: isolated (any Actor)? = #isolation,
                                  _ block: @Sendable @escaping (isolated A, SectionedResultsChange<Self>) -> Void) async -> NotificationToken {
        await observe(keyPaths: keyPaths.map(_name(for:)), on: actor, block)
    }
}

extension ProjectionObservable where Root: Object {
    /// Calls `block` isolated to `actor` after each version that changed a projected property
    /// of the object, or deleted it; the projection it receives reads the actor's realm.
    ///
    /// ```swift
    /// let token = await view.observe(on: counter) { (counter, change: ObjectChange<PersonView>) in print(change) }
    /// ```
    /// There is no initial notification. Traps as ``observe(keyPaths:on:_:)-([String]?,_,_)``
    /// traps.
    public func observe<A: Actor>(keyPaths: [String]? = nil, on actor: A,
                                  _isolation: isolated (any Actor)? = #isolation,
                                  _ block: @Sendable @escaping (isolated A, ObjectChange<Self>) -> Void) async -> NotificationToken {
        await ActorObservation.observe(rootObject, on: actor) { actor, root in
            Self(projecting: root).observe(keyPaths: keyPaths, on: nil) { change in actor.deliverIsolated(block, change) }
        }
    }

    /// The same, with key paths of the projection (`[\PersonView.name]`).
    ///
    /// ```swift
    /// let token = await view.observe(keyPaths: [\PersonView.name], on: counter) { counter, change in print(change) }
    /// ```
    public func observe<A: Actor>(keyPaths: [PartialKeyPath<Self>], on actor: A,
                                  _isolation: isolated (any Actor)? = #isolation,
                                  _ block: @Sendable @escaping (isolated A, ObjectChange<Self>) -> Void) async -> NotificationToken {
        await observe(keyPaths: keyPaths.map(originPath(of:)), on: actor, block)
    }
}
