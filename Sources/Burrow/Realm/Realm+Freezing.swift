extension Realm: RealmBound {
    var boundRealm: RealmCore? { core }

    func moved(to core: RealmCore) -> Realm? { Realm(core: core) }

    /// The realm itself.
    public var realm: Realm? { self }

    /// Always `false`: a realm stays usable (``invalidate()`` only releases its version).
    public var isInvalidated: Bool { false }

    /// Whether the realm is a frozen snapshot.
    public var isFrozen: Bool { core.isFrozen }

    /// A frozen snapshot of the realm at its current version: it never changes, any number of
    /// threads may read it at once (queries and sorts included), and writing to it traps.
    ///
    /// ```swift
    /// let snapshot = realm.freeze()
    /// DispatchQueue.concurrentPerform(iterations: 4) { _ in
    ///     _ = snapshot.objects(Dog.self).filter("age > 2").count
    /// }
    /// ```
    /// Every value frozen at one version, from any realm of the file in this process, shares
    /// one frozen realm, which pins that version (a reader slot, and the pages it reads) until
    /// the last of them is released. Inside a write, the snapshot is the version the write
    /// began from. If this realm's version was not the latest, the frozen realm keeps it and
    /// this live realm moves to the latest version, as ``refresh()`` would.
    public func freeze() -> Realm {
        Realm(core: core.frozen())
    }

    /// The live realm of the calling thread for this configuration (itself when live).
    ///
    /// ```swift
    /// let live = frozenRealm.thaw()
    /// ```
    public func thaw() -> Realm? {
        Realm(core: core.thawed())
    }

    /// A frozen snapshot of `object` (see ``Object/freeze()``).
    public func freeze<T: Object>(_ object: T) -> T {
        object.freeze()
    }

    /// The live version of `object` in this thread's realm, or `nil` if it was deleted.
    public func thaw<T: Object>(_ object: T) -> T? {
        object.thaw()
    }

    /// A frozen snapshot of `collection`.
    public func freeze<Collection: RealmCollection>(_ collection: Collection) -> Collection {
        collection.freeze()
    }
}

extension RealmCore {
    /// The live realm of the calling thread for this realm's configuration, for `thaw()`.
    func thawed() -> RealmCore {
        guard isFrozen else { return self }
        do {
            return try Realm(configuration: configuration).core
        } catch {
            burrowPreconditionFailure("Cannot thaw '\(coordinator.path)': \(error)")
        }
    }
}
