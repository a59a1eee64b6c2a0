/// One observation a realm delivers to, on the realm's thread, queue or actor: what it last
/// reported, and how it reports the next change.
class Observation {
    /// The token the caller holds; the observation stops once it is invalidated or released.
    weak var token: NotificationToken?
    /// The version the observation last reported; `nil` until its initial notification.
    var baseline: Int?

    var isActive: Bool { token.map { !$0.isInvalidated } ?? false }
    /// Whether the realm's own commit of a write that changed nothing, which makes no new
    /// version, is reported too (a whole realm's observation, as RealmSwift's `didChange`).
    var reportsWritesWithoutChanges: Bool { false }

    /// Reports the initial state at the realm's current version.
    func deliverInitial(in realm: RealmSession) {}

    /// Reports that a newer version waits for a realm that does not refresh on its own.
    func reportRefreshRequired(in realm: RealmSession) {}

    /// Reports what changed from ``baseline`` to the realm's current version; `changes` are the
    /// change log's, `nil` when the log cannot tell. `silently`: takes the new version in
    /// without reporting (`commitWrite(withoutNotifying:)`).
    func deliver(_ changes: [UInt32: ObjectChanges]?, in realm: RealmSession, silently: Bool) {}
}
