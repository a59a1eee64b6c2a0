/// One use of a realm: while any lives, the thread's cache keeps the realm open.
///
/// What holds a realm owns one: the copies of a `Realm` value, through their shared handle;
/// results; a managed collection. It cannot be copied, and the use ends when its owner releases
/// it, so a use is never counted twice or forgotten. (Managed objects, made for every object
/// read, count theirs in `becomeManaged` and their `deinit`, the one other place.)
struct RealmUse: ~Copyable {
    let realm: RealmSession

    /// Counts a new use of `realm`.
    init(_ realm: RealmSession) {
        realm.addUse()
        self.realm = realm
    }

    /// Takes over a use already counted on `realm`: a cache lookup counts it under its lock, so
    /// the realm cannot be released between finding and using it.
    init(adopting realm: RealmSession) {
        self.realm = realm
    }

    deinit {
        realm.removeUse()
    }
}
