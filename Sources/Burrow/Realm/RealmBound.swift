/// A value read through one realm instance that can be read through another of the same file:
/// a frozen one (freezing), the calling thread's live one (thawing), or the one a
/// ``ThreadSafeReference`` is resolved in.
protocol RealmBound: ThreadConfined {
    /// The realm the value reads, or `nil` while unmanaged.
    var boundRealm: RealmCore? { get }
    /// The same value read through `core`, or `nil` when it does not exist there.
    ///
    /// It reads only what the value fixed when it was made (object keys, classes, columns), so
    /// any thread may call it, as a reference resolved on another thread does.
    func moved(to core: RealmCore) -> Self?
}

extension RealmBound {
    /// The value in its realm's frozen snapshot; traps with `unmanaged` while unmanaged, and for
    /// a deleted value or one created in the write still open.
    func frozenValue(unmanaged: String) -> Self {
        guard let core = boundRealm else { burrowPreconditionFailure(unmanaged) }
        core.verifyThread()
        if core.isFrozen { return self }
        burrowPrecondition(!isInvalidated, TrapMessage.objectInvalidated)
        guard let frozen = moved(to: core.frozen()) else {
            burrowPreconditionFailure("Cannot freeze an object in the same write transaction as it was created in.")
        }
        return frozen
    }

    /// The value in the calling thread's live realm at the latest version, or `nil` when it no
    /// longer exists; traps with `unmanaged` while unmanaged.
    func thawedValue(unmanaged: String) -> Self? {
        guard let core = boundRealm else { burrowPreconditionFailure(unmanaged) }
        guard core.isFrozen else { return self }
        return moved(to: core.thawed())
    }
}
