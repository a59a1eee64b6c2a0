extension ObjectBase {
    /// The object in its realm's frozen snapshot; traps for an unmanaged or deleted object.
    final func frozenObject<T: ObjectBase>() -> T {
        guard let management else { preconditionFailure("Unmanaged objects cannot be frozen.") }
        let live = management.realm
        live.verifyThread()
        if live.isFrozen { return unsafeDowncast(self, to: T.self) }
        precondition(live.contains(management.key, in: management.bound.layout) && !live.invalidated(since: cachedRowGeneration),
                     "Object has been deleted or invalidated.")
        let frozen = live.frozen()
        guard let bound = frozen.bound(management.bound.info), frozen.contains(management.key, in: bound.layout) else {
            preconditionFailure("Cannot freeze an object in the same write transaction as it was created in.")
        }
        return unsafeDowncast(frozen.makeObject(bound, key: management.key), to: T.self)
    }

    /// The object in the calling thread's live realm at the latest version, or `nil` when it
    /// was deleted; traps for an unmanaged object.
    final func thawedObject<T: ObjectBase>() -> T? {
        guard let management else { preconditionFailure("Unmanaged objects cannot be thawed.") }
        guard management.realm.isFrozen else { return unsafeDowncast(self, to: T.self) }
        let live = management.realm.thawed()
        guard let bound = live.bound(management.bound.info), live.contains(management.key, in: bound.layout) else { return nil }
        return unsafeDowncast(live.makeObject(bound, key: management.key), to: T.self)
    }

    /// Whether the object belongs to a frozen realm.
    final var belongsToFrozenRealm: Bool { management?.realm.isFrozen ?? false }
}

extension Object: ThreadConfined {
    /// A frozen snapshot of the object: it never changes, any thread may read it, and
    /// modifying it traps ("Attempting to modify a frozen object - call thaw on the Object
    /// instance first.").
    ///
    /// ```swift
    /// let frozen = dog.freeze()
    /// Task.detached { [snapshot = Frozen(frozen)] in print(snapshot.value.name) }
    /// ```
    /// Traps for an unmanaged object, a deleted one, and one created in the write still open.
    public func freeze() -> Self { frozenObject() }

    /// The live object in the calling thread's realm at the latest version, or `nil` if it
    /// was deleted since; a live object returns itself. Traps for an unmanaged object.
    public func thaw() -> Self? { thawedObject() }
}
