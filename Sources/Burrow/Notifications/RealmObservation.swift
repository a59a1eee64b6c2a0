/// An observation of a whole realm (``Realm/observe(_:)``): told that the realm moved to a new
/// version, not what changed.
final class RealmObservation: Observation {
    private let block: Realm.NotificationBlock

    init(_ block: @escaping Realm.NotificationBlock) {
        self.block = block
    }

    /// Told of every write the realm commits, as RealmSwift's `didChange` is.
    override var reportsWritesWithoutChanges: Bool { true }

    /// A realm that does not refresh on its own hears that a newer version waits.
    override func reportRefreshRequired(in session: RealmSession) {
        block(.refreshRequired, Realm(core: session.core))
    }

    /// A realm observation reports nothing until the realm changes.
    override func deliverInitial(in session: RealmSession) {}

    override func deliver(_ changes: [UInt32: ObjectChanges]?, in session: RealmSession, silently: Bool) {
        let realm = session.core
        guard !silently else { return }
        block(.didChange, Realm(core: realm))
    }
}
