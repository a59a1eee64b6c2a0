extension Realm {
    /// What a realm notification reports.
    @frozen
    public enum Notification: String {
        /// The realm moved to a new version: another thread or process committed and the realm
        /// refreshed, or the realm committed a write itself.
        case didChange = "RLMRealmDidChangeNotification"
        /// The realm has a newer version to move to and does not refresh on its own
        /// (``Realm/autorefresh`` is off): call ``Realm/refresh()`` to move on.
        case refreshRequired = "RLMRealmRefreshRequiredNotification"
    }

    /// The block a realm notification calls, with the realm at its new version.
    public typealias NotificationBlock = (_ notification: Notification, _ realm: Realm) -> Void

    /// Calls `block` each time the realm moves to a new version, until the returned token is
    /// invalidated.
    ///
    /// ```swift
    /// let token = realm.observe { notification, realm in
    ///     print("now at a new version:", realm.objects(Dog.self).count)
    /// }
    /// ```
    /// The block runs where the realm moves: on the queue or actor of a realm confined to one,
    /// soon after any commit to the file from any thread or process; on a realm's thread when
    /// the thread runs its `RunLoop` (then just as soon), or calls ``refresh()``, begins a write
    /// or commits one. As in RealmSwift, the realm's own commit is reported even when its write
    /// changed nothing (`try realm.write {}`), which makes no new version for other realms.
    public func observe(_ block: @escaping NotificationBlock) -> NotificationToken {
        core.verifyThread()
        burrowPrecondition(!core.isFrozen, TrapMessage.frozenNotifications)
        // It reports the versions the realm moves to after this call, even when the realm first
        // delivers at a version another thread committed in between.
        let observation = RealmObservation(block)
        observation.baseline = core.transaction.id
        return core.observe(observation)
    }
}
