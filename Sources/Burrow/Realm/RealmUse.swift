/// One use of a realm: while any lives, the thread's cache keeps the realm open.
///
/// Everything that holds a realm (the copies of a `Realm` value, through their shared handle; a
/// managed object; results; a managed collection) owns one. It cannot be copied, and the use
/// ends when its owner releases it, so a use is never counted twice or forgotten.
struct RealmUse: ~Copyable {
    let realm: RealmCore

    /// Counts a new use of `realm`.
    init(_ realm: RealmCore) {
        realm.addUse()
        self.realm = realm
    }

    /// Takes over a use already counted on `realm`: a cache lookup counts it under its lock, so
    /// the realm cannot be released between finding and using it.
    init(adopting realm: RealmCore) {
        self.realm = realm
    }

    deinit {
        realm.removeUse()
    }
}
