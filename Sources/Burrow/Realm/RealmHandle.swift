/// The use of a realm that the copies of one `Realm` value share; ending it lets the thread's
/// cache release the realm once nothing else uses it.
final class RealmHandle {
    let core: RealmCore

    /// Takes over one use already counted on `core`.
    init(adopting core: RealmCore) {
        self.core = core
    }

    deinit {
        core.removeUse()
    }
}
