import Dispatch

/// Checks that a collection of `realm` can be observed now.
private func verifyObservable(_ realm: RealmCore) {
    realm.verifyThread()
    burrowPrecondition(!realm.isFrozen, TrapMessage.frozenNotifications)
    burrowPrecondition(realm.writeState == nil, TrapMessage.observeInWrite)
}

extension List {
    /// Calls `block` with the list's initial state, then after each version that changed it:
    /// elements removed, added, replaced, or (for objects) modified, by position.
    ///
    /// ```swift
    /// let token = person.dogs.observe { change in
    ///     if case .update(_, let deletions, let insertions, let modifications) = change { print(deletions, insertions, modifications) }
    /// }
    /// ```
    /// Replacing the element at an index is a modification; moving one is a deletion and an
    /// insertion. `keyPaths` name the elements' properties that count (for a list of objects).
    /// Deleting the owner reports every element deleted, and ends the observation. Delivered
    /// as ``Results/observe(keyPaths:on:_:)`` delivers.
    ///
    /// A list nested in an `AnyRealmValue` is compared by value with its last version; it takes
    /// no `keyPaths` (passing some traps).
    public func observe(keyPaths: [String]? = nil, on queue: DispatchQueue? = nil,
                        _ block: @escaping (RealmCollectionChange<List<Element>>) -> Void) -> NotificationToken {
        if let nested = managed as? NestedList {
            burrowPrecondition(keyPaths == nil, "A list inside an AnyRealmValue has no key paths to filter by: observe it with keyPaths nil.")
            verifyObservable(nested.realm)
            if let queue { return QueueObservation.observe(self, on: queue) { $0.observe(block) } }
            return nested.realm.observe(NestedListObservation(self, storage: nested, block: block))
        }
        guard let storage = managed as? ManagedList else {
            burrowPreconditionFailure("Only lists of managed objects can be observed: add the object that holds it to a realm first.")
        }
        verifyObservable(storage.realm)
        if let queue { return QueueObservation.observe(self, on: queue) { $0.observe(keyPaths: keyPaths, block) } }
        return storage.realm.observe(PropertyCollectionObservation<UInt64>(
            storage: storage, keyPaths: keyPaths,
            entries: { storage.positions.map { ($0, storage.value(atPosition: $0) ?? .null) } },
            initial: { block(.initial(self)) },
            update: { diff, _, _ in
                block(.update(self, deletions: diff.deletions, insertions: diff.insertions, modifications: diff.modifications))
            },
            failure: { block(.error($0)) }))
    }
}

extension MutableSet {
    /// Calls `block` with the set's initial state, then after each version that changed it,
    /// by position in the set's order; see ``List/observe(keyPaths:on:_:)``.
    ///
    /// ```swift
    /// let token = person.languages.observe { change in print(change) }
    /// ```
    public func observe(keyPaths: [String]? = nil, on queue: DispatchQueue? = nil,
                        _ block: @escaping (RealmCollectionChange<MutableSet<Element>>) -> Void) -> NotificationToken {
        guard let storage = managed else {
            burrowPreconditionFailure("Only sets of managed objects can be observed: add the object that holds it to a realm first.")
        }
        verifyObservable(storage.realm)
        if let queue { return QueueObservation.observe(self, on: queue) { $0.observe(keyPaths: keyPaths, block) } }
        return storage.realm.observe(PropertyCollectionObservation<_PersistedValue>(
            storage: storage, keyPaths: keyPaths,
            entries: { storage.values.map { ($0, $0) } },
            initial: { block(.initial(self)) },
            update: { diff, _, _ in
                block(.update(self, deletions: diff.deletions, insertions: diff.insertions, modifications: diff.modifications))
            },
            failure: { block(.error($0)) }))
    }
}

extension Map {
    /// Calls `block` with the map's initial state, then after each version that changed it,
    /// with the keys removed, added, and whose value (or the object it holds) changed. A
    /// dictionary nested in an `AnyRealmValue` takes no `keyPaths` (passing some traps).
    ///
    /// ```swift
    /// let token = person.pets.observe { change in
    ///     if case .update(_, let deletions, let insertions, let modifications) = change { print(deletions, insertions, modifications) }
    /// }
    /// ```
    public func observe(keyPaths: [String]? = nil, on queue: DispatchQueue? = nil,
                        _ block: @escaping (RealmMapChange<Map<Key, Value>>) -> Void) -> NotificationToken {
        if let nested = managed as? NestedMap {
            burrowPrecondition(keyPaths == nil, "A dictionary inside an AnyRealmValue has no key paths to filter by: observe it with keyPaths nil.")
            verifyObservable(nested.realm)
            if let queue { return QueueObservation.observe(self, on: queue) { $0.observe(block) } }
            return nested.realm.observe(NestedMapObservation(self, storage: nested, block: block))
        }
        guard let storage = managed as? ManagedMap else {
            burrowPreconditionFailure("Only maps of managed objects can be observed: add the object that holds it to a realm first.")
        }
        verifyObservable(storage.realm)
        if let queue { return QueueObservation.observe(self, on: queue) { $0.observe(keyPaths: keyPaths, block) } }
        return storage.realm.observe(PropertyCollectionObservation<String>(
            storage: storage, keyPaths: keyPaths,
            entries: { storage.entries.map { ($0.key, $0.value) } },
            initial: { block(.initial(self)) },
            update: { diff, old, new in
                block(.update(self, deletions: diff.deletions.map { old[$0].identity }, insertions: diff.insertions.map { new[$0].identity },
                              modifications: diff.modifications.map { old[$0].identity }))
            },
            failure: { block(.error($0)) }))
    }
}

extension LinkingObjects where Element: Object {
    /// Calls `block` with the linking objects' initial state, then after each version that
    /// changed them, by position in key order; see ``Results/observe(keyPaths:on:_:)``.
    ///
    /// ```swift
    /// let token = dog.owners.observe { change in print(change) }
    /// ```
    public func observe(keyPaths: [String]? = nil, on queue: DispatchQueue? = nil,
                        _ block: @escaping (RealmCollectionChange<LinkingObjects<Element>>) -> Void) -> NotificationToken {
        let results = _results
        verifyObservable(results.core.realm)
        if let queue { return QueueObservation.observe(self, on: queue) { $0.observe(keyPaths: keyPaths, block) } }
        return results.core.realm.observe(ResultsObservation(results, keyPaths: keyPaths) { [self] change in
            switch change {
            case .initial: block(.initial(self))
            case .update(_, let deletions, let insertions, let modifications):
                block(.update(self, deletions: deletions, insertions: insertions, modifications: modifications))
            case .error(let error): block(.error(error))
            }
        })
    }
}
