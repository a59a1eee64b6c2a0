import Dispatch

extension Results {
    /// Calls `block` with the results' initial state, then after each version that changed
    /// them, with the positions of the objects that left, joined and changed.
    ///
    /// ```swift
    /// let token = realm.objects(Dog.self).filter("age > 2").sorted(byKeyPath: "name").observe { change in
    ///     if case .update(_, let deletions, let insertions, let modifications) = change {
    ///         print(deletions, insertions, modifications)
    ///     }
    /// }
    /// ```
    /// `keyPaths` (`["name", "owner.name"]`) limits the modifications reported to changes of
    /// those properties; objects leaving and joining are always reported. Without it, a change of
    /// any property counts, and of any property of objects linked up to four links away. Results
    /// of values (`list.sorted()`) report values leaving and joining; a changed value is both.
    ///
    /// With `queue`, the block runs on that serial queue with results of a realm confined to it,
    /// soon after any commit to the file (from any thread or process). Without it, it runs on
    /// the realm's queue or actor when the realm is confined to one; for a realm of a thread, on
    /// that thread when it runs its `RunLoop`, refreshes, begins a write or commits one. Traps
    /// for results of a frozen realm, or inside a write.
    public func observe(keyPaths: [String]? = nil, on queue: DispatchQueue? = nil,
                        _ block: @escaping (RealmCollectionChange<Results<Element>>) -> Void) -> NotificationToken {
        let realm: RealmCore
        switch backing {
        case .objects(let core): realm = core.realm
        case .values(let values): realm = values.realm
        }
        realm.verifyThread()
        burrowPrecondition(!realm.isFrozen, TrapMessage.frozenNotifications)
        burrowPrecondition(realm.writeState == nil, TrapMessage.observeInWrite)
        if let queue {
            return QueueObservation.observe(self, on: queue) { $0.observe(keyPaths: keyPaths, block) }
        }
        switch backing {
        case .objects: return realm.observe(ResultsObservation(self, keyPaths: keyPaths, block: block))
        case .values(let values): return realm.observe(ValueResultsObservation(self, values: values, block: block))
        }
    }

    /// Registers an observation that reports every ``ResultsUpdate`` where the realm delivers
    /// its notifications, for an observer built on the results; the caller checks that the
    /// results may be observed.
    func observeUpdates(keyPaths: [String]?, _ updates: @escaping (ResultsUpdate) -> Void) -> NotificationToken {
        switch backing {
        case .objects(let core): core.realm.observe(ResultsObservation(self, keyPaths: keyPaths, updates: updates))
        case .values(let values): values.realm.observe(ValueResultsObservation(self, values: values, updates: updates))
        }
    }
}
