import LMDB

/// The observations of one realm, delivered on the realm's thread, queue or actor whenever the
/// realm moves to a new version: after ``Realm/refresh()``, when a write begins and after it
/// commits, and when a commit wakes a realm of a queue or actor (``CommitWatcher``).
///
/// Each delivery reads the change log's records from each observation's last version to the
/// realm's version once, and hands them to every observation that saw the same version.
final class RealmObservers: @unchecked Sendable {
    // Registered on the realm's thread, removed from any thread (a token's invalidation).
    private let observations = Locked<[Observation]>([])
    // The state below is used only on the realm's thread, queue or actor.
    private var isDelivering = false
    private var deliversAgain = false
    /// Whether the delivery under way follows the realm's own commit: RealmSwift reports no
    /// old values for it (``ObjectObservation``), and its realm observations hear it even when
    /// the write changed nothing and made no new version.
    private(set) var isDeliveringOwnCommit = false
    private var ownCommitPending = false
    /// The latest version the realm observations last heard `.refreshRequired` for.
    private var refreshRequiredReported = 0

    var isEmpty: Bool { observations.withLock { $0.isEmpty } }

    /// Registers `observation`; it reports until the returned token is invalidated or released.
    func add(_ observation: Observation, onRemove: @escaping @Sendable () -> Void = {}) -> NotificationToken {
        let id = ObjectIdentifier(observation)
        let token = NotificationToken { [weak self] in
            self?.observations.withLock { $0.removeAll { ObjectIdentifier($0) == id } }
            onRemove()
        }
        observation.token = token
        observations.withLock { $0.append(observation) }
        return token
    }

    /// Notes that the realm committed a write: the next delivery follows its own commit.
    func noteCommit() {
        ownCommitPending = true
    }

    /// Tells the observations that a newer version waits, for a realm that does not refresh
    /// on its own (``RealmSession/autorefresh``): once for each latest version, however many
    /// wake-ups a commit causes.
    func noteRefreshRequired(in realm: RealmSession) {
        let latest = realm.coordinator.environment.lastTransactionID
        guard latest != refreshRequiredReported else { return }
        refreshRequiredReported = latest
        for observation in observations.withLock({ $0 }) where observation.isActive {
            observation.reportRefreshRequired(in: realm)
        }
    }

    /// Delivers to every active observation what changed up to the realm's current version.
    /// `silenced`: the tokens of `commitWrite(withoutNotifying:)`, whose observations take the
    /// new version in without reporting it.
    func deliver(in realm: RealmSession, silencing silenced: [NotificationToken] = []) {
        guard !isDelivering else {
            // A callback wrote or refreshed: deliver again once this round ends.
            deliversAgain = true
            return
        }
        isDelivering = true
        isDeliveringOwnCommit = ownCommitPending
        ownCommitPending = false
        defer {
            isDelivering = false
            isDeliveringOwnCommit = false
        }
        repeat {
            deliversAgain = false
            deliverOnce(in: realm, silencing: silenced.map(ObjectIdentifier.init))
            isDeliveringOwnCommit = false
        } while deliversAgain
    }

    private func deliverOnce(in realm: RealmSession, silencing silenced: [ObjectIdentifier]) {
        let current = realm.transaction.id
        var spans: [Int: [UInt32: ObjectChanges]?] = [:]
        for observation in observations.withLock({ $0 }) where observation.isActive {
            guard let baseline = observation.baseline else {
                observation.deliverInitial(in: realm)
                observation.baseline = current
                continue
            }
            let hearsOwnCommit = isDeliveringOwnCommit && observation.reportsWritesWithoutChanges
            guard baseline < current || hearsOwnCommit else { continue }
            let changes: [UInt32: ObjectChanges]?
            if baseline >= current {
                changes = [:]
            } else if let known = spans[baseline] {
                changes = known
            } else {
                changes = (try? realm.coordinator.metadata.changes(after: baseline, in: realm.transaction)) ?? nil
                spans[baseline] = changes
            }
            let isSilenced = observation.token.map { silenced.contains(ObjectIdentifier($0)) } ?? false
            observation.deliver(changes, in: realm, silently: isSilenced)
            observation.baseline = current
        }
    }
}
