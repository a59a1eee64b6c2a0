/// The use of a realm that the copies of one `Realm` value share; ending it lets the thread's
/// cache release the realm once nothing else uses it.
final class RealmHandle {
    private let use: RealmUse

    var session: RealmSession { use.realm }

    init(_ use: consuming RealmUse) {
        self.use = use
    }
}
