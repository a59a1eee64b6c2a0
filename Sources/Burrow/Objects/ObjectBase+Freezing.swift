extension ObjectBase {
    /// The same object read through `core`, or `nil` when it does not exist there.
    final func movedObject<T: ObjectBase>(to core: RealmCore) -> T? {
        guard let management else { return nil }
        if management.realm === core {
            return core.contains(management.key, in: management.bound.layout) ? unsafeDowncast(self, to: T.self) : nil
        }
        guard let bound = core.bound(management.bound.info), core.contains(management.key, in: bound.layout) else { return nil }
        return unsafeDowncast(core.makeObject(bound, key: management.key), to: T.self)
    }

    /// Whether the object belongs to a frozen realm.
    @usableFromInline final var belongsToFrozenRealm: Bool { management?.realm.isFrozen ?? false }
}

extension Object: RealmBound {
    var boundRealm: RealmCore? { management?.realm }

    func moved(to core: RealmCore) -> Self? { movedObject(to: core) }

    /// A frozen snapshot of the object: it never changes, any thread may read it, and
    /// modifying it traps ("Attempting to modify a frozen object - call thaw on the Object
    /// instance first.").
    ///
    /// ```swift
    /// let frozen = dog.freeze()
    /// Task.detached { [snapshot = Frozen(frozen)] in print(snapshot.value.name) }
    /// ```
    /// Traps for an unmanaged object, a deleted one, and one created in the write still open.
    public func freeze() -> Self { frozenValue(unmanaged: "Unmanaged objects cannot be frozen.") }

    /// The live object in the calling thread's realm at the latest version, or `nil` if it
    /// was deleted since; a live object returns itself. Traps for an unmanaged object.
    public func thaw() -> Self? { thawedValue(unmanaged: "Unmanaged objects cannot be thawed.") }
}
