extension RealmSession {
    /// Registers `observation` with the realm, waking the realm on commits on its queue or
    /// actor, or through its thread's run loop.
    func observe(_ observation: Observation) -> NotificationToken {
        let observers = self.observers ?? {
            let made = RealmObservers()
            self.observers = made
            return made
        }()
        let scheduler = confinement.scheduler ?? RunLoopScheduler.current()
        let waking = coordinator.commitWatcher.register(self, scheduler: scheduler)
        // Writes of every process log their changes while this observation lasts.
        let presence = coordinator.observerPresence
        presence.acquire(mode: options.filePermissions)
        let token = observers.add(observation) {
            waking.cancel()
            presence.release()
        }
        // The initial state is reported as soon as the realm's turn comes (or at its next
        // refresh, for a thread that does not run its run loop).
        let wake = RealmWakeUp(self)
        scheduler { wake.deliver(afterCommit: false) }
        return token
    }

    /// Delivers the pending notifications of the realm's observations, if any.
    func deliverNotifications(silencing silenced: [NotificationToken] = []) {
        guard let observers, !observers.isEmpty else { return }
        observers.deliver(in: self, silencing: silenced)
    }

    /// Whether any observation is registered.
    var hasObservers: Bool { observers.map { !$0.isEmpty } ?? false }
}

/// A realm to refresh and deliver to from its queue or actor, held weakly: a realm nothing else
/// holds closes rather than staying open for its notifications.
final class RealmWakeUp: @unchecked Sendable {
    private weak var realm: RealmSession?

    init(_ realm: RealmSession) {
        self.realm = realm
    }

    /// Runs on the realm's queue or actor: moves it to the latest version and delivers. With
    /// ``RealmSession/autorefresh`` off the realm stays where it is, as RealmSwift's does: it
    /// delivers what is pending at its version, and after a commit its realm observations hear
    /// that a newer version waits (`.refreshRequired`).
    func deliver(afterCommit: Bool = true) {
        guard let realm, realm.hasObservers, realm.writeState == nil else { return }
        guard realm.autorefresh else {
            if afterCommit, realm.newerVersionWaits {
                realm.observers?.noteRefreshRequired(in: realm)
            } else {
                realm.deliverNotifications()
            }
            return
        }
        realm.refresh()
    }
}
