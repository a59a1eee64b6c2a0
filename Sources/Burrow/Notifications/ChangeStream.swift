import Dispatch

/// The notifications of an observation as an `AsyncStream`: what `changes` of results, objects
/// and collections return.
///
/// The stream ends, and the observation with it, when the task iterating it is cancelled or the
/// stream is released. For a realm isolated to an actor the observation runs on that actor and
/// yields live values, for code on the same actor. For other realms it runs on a queue of its
/// own and yields frozen values (readable from any task), since a live value belongs to a thread
/// or queue the iterating task does not run on.
enum ChangeStream {
    static func make<Change>(of realm: RealmCore, observeHere: (@escaping (Change) -> Void) -> NotificationToken,
                             observeOn: (DispatchQueue, @escaping (Change) -> Void) -> NotificationToken,
                             frozen: @escaping (Change) -> Change) -> AsyncStream<Change> {
        let (stream, continuation) = AsyncStream<Change>.makeStream(bufferingPolicy: .unbounded)
        let yield = { (change: Change) in
            nonisolated(unsafe) let change = change
            continuation.yield(change)
        }
        let token: NotificationToken
        if case .actor = realm.confinement {
            token = observeHere(yield)
        } else {
            token = observeOn(DispatchQueue(label: "Burrow change stream")) { yield(frozen($0)) }
        }
        continuation.onTermination = { _ in token.invalidate() }
        return stream
    }

    /// `change` with frozen collections.
    static func frozen<C: ThreadConfined>(_ change: RealmCollectionChange<C>) -> RealmCollectionChange<C> {
        switch change {
        case .initial(let collection): .initial(collection.freeze())
        case .update(let collection, let deletions, let insertions, let modifications):
            .update(collection.freeze(), deletions: deletions, insertions: insertions, modifications: modifications)
        case .error(let error): .error(error)
        }
    }

    /// `change` with a frozen map.
    static func frozen<Key, Value>(_ change: RealmMapChange<Map<Key, Value>>) -> RealmMapChange<Map<Key, Value>> {
        switch change {
        case .initial(let map): .initial(map.freeze())
        case .update(let map, let deletions, let insertions, let modifications):
            .update(map.freeze(), deletions: deletions, insertions: insertions, modifications: modifications)
        case .error(let error): .error(error)
        }
    }

    /// `change` with the object and the objects its property values hold frozen.
    static func frozen<T: Object>(_ change: ObjectChange<T>) -> ObjectChange<T> {
        guard case .change(let object, let properties) = change else { return change }
        let freeze = { (value: Any?) -> Any? in (value as? Object).map { $0.freeze() } ?? value }
        return .change(object.freeze(), properties.map {
            PropertyChange(name: $0.name, oldValue: freeze($0.oldValue), newValue: freeze($0.newValue))
        })
    }
}

extension Results {
    /// The notifications of ``observe(keyPaths:on:_:)`` as an asynchronous sequence.
    ///
    /// ```swift
    /// for await change in realm.objects(Dog.self).changes {
    ///     if case .update(let dogs, _, let insertions, _) = change { print(dogs.count, insertions) }
    /// }
    /// ```
    /// Values are live on the actor of an actor-isolated realm, frozen otherwise; the sequence
    /// ends when its task is cancelled.
    public var changes: AsyncStream<RealmCollectionChange<Results<Element>>> {
        let realm: RealmCore
        switch backing {
        case .objects(let core): realm = core.realm
        case .values(let values): realm = values.realm
        }
        return ChangeStream.make(of: realm, observeHere: { observe($0) }, observeOn: { observe(on: $0, $1) },
                                 frozen: { ChangeStream.frozen($0) })
    }
}

extension List {
    /// The notifications of ``observe(keyPaths:on:_:)`` as an asynchronous sequence; see
    /// ``Results/changes``.
    ///
    /// ```swift
    /// for await change in person.dogs.changes { print(change) }
    /// ```
    public var changes: AsyncStream<RealmCollectionChange<List<Element>>> {
        guard let realm = (managed as? ManagedList)?.realm ?? (managed as? NestedList)?.realm else {
            burrowPreconditionFailure("Only lists of managed objects can be observed.")
        }
        return ChangeStream.make(of: realm, observeHere: { observe($0) }, observeOn: { observe(on: $0, $1) },
                                 frozen: { ChangeStream.frozen($0) })
    }
}

extension MutableSet {
    /// The notifications of ``observe(keyPaths:on:_:)`` as an asynchronous sequence; see
    /// ``Results/changes``.
    ///
    /// ```swift
    /// for await change in person.languages.changes { print(change) }
    /// ```
    public var changes: AsyncStream<RealmCollectionChange<MutableSet<Element>>> {
        guard let storage = managed else { burrowPreconditionFailure("Only sets of managed objects can be observed.") }
        return ChangeStream.make(of: storage.realm, observeHere: { observe($0) }, observeOn: { observe(on: $0, $1) },
                                 frozen: { ChangeStream.frozen($0) })
    }
}

extension Map {
    /// The notifications of ``observe(keyPaths:on:_:)`` as an asynchronous sequence; see
    /// ``Results/changes``.
    ///
    /// ```swift
    /// for await change in person.pets.changes { print(change) }
    /// ```
    public var changes: AsyncStream<RealmMapChange<Map<Key, Value>>> {
        guard let realm = (managed as? ManagedMap)?.realm ?? (managed as? NestedMap)?.realm else {
            burrowPreconditionFailure("Only maps of managed objects can be observed.")
        }
        return ChangeStream.make(of: realm, observeHere: { observe($0) }, observeOn: { observe(on: $0, $1) },
                                 frozen: { ChangeStream.frozen($0) })
    }
}

extension Object {
    /// The notifications of ``observe(keyPaths:on:_:)-([String]?,_,_)`` as an asynchronous sequence; see
    /// ``Results/changes``.
    ///
    /// ```swift
    /// for await change in dog.changes(Dog.self) {
    ///     if case .change(let dog, let properties) = change { print(dog.name, properties.map(\.name)) }
    /// }
    /// ```
    public func changes<T: Object>(_ type: T.Type = T.self) -> AsyncStream<ObjectChange<T>> {
        guard let management else { burrowPreconditionFailure(TrapMessage.observeUnmanaged) }
        return ChangeStream.make(of: management.realm, observeHere: { observe($0) }, observeOn: { observe(on: $0, $1) },
                                 frozen: { ChangeStream.frozen($0) })
    }
}
