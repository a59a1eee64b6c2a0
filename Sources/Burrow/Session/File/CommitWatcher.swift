import Foundation
import LMDB
import Synchronization

/// Wakes the observed realms when the file gets a new version, from any thread or process: on
/// their queue or actor, or through the run loop of their thread.
///
/// While at least one such realm is registered, a thread of the watcher waits for a commit: a
/// commit of this process signals it at once; commits of other processes are seen by renewing a
/// read transaction of the watcher's (well under a microsecond) every ``pollInterval``. A realm
/// is woken on its own queue or actor (or its thread's run loop, when the thread runs it), once
/// however many commits arrive before it runs; it then refreshes and delivers. The thread ends when the last realm is unregistered.
final class CommitWatcher: @unchecked Sendable {
    /// How often commits of other processes are looked for.
    static let pollInterval: TimeInterval = 0.002

    /// One registered realm.
    final class Registration: @unchecked Sendable {
        let wakeUp: RealmWakeUp
        let scheduler: @Sendable (@escaping @Sendable () -> Void) -> Void
        fileprivate weak var watcher: CommitWatcher?
        /// Whether a wake-up is scheduled and has not run yet.
        private let isScheduled = Atomic<Bool>(false)

        fileprivate init(wakeUp: RealmWakeUp, scheduler: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void) {
            self.wakeUp = wakeUp
            self.scheduler = scheduler
        }

        fileprivate func wake() {
            guard !isScheduled.exchange(true, ordering: .acquiringAndReleasing) else { return }
            scheduler { [self] in
                isScheduled.store(false, ordering: .releasing)
                wakeUp.deliver()
            }
        }

        /// Stops waking the realm.
        func cancel() {
            watcher?.unregister(self)
        }
    }

    private weak var environment: Environment?
    private let condition = NSCondition()
    // Guarded by `condition`.
    private var registrations: [ObjectIdentifier: Registration] = [:]
    private var isRunning = false
    private var signalled = false
    /// The last transaction id the realms were woken for.
    private var lastSeen = 0
    /// Set by a registration: the next pass wakes every realm whatever the file's last id, since
    /// the new realm may have taken its first version before a commit the watcher had seen.
    private var wakesAll = false

    init(environment: Environment) {
        self.environment = environment
    }

    /// Wakes `realm` through `scheduler` (its queue, actor or run loop) after each commit to the file.
    func register(_ realm: RealmSession, scheduler: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void) -> Registration {
        let registration = Registration(wakeUp: RealmWakeUp(realm), scheduler: scheduler)
        registration.watcher = self
        condition.lock()
        registrations[ObjectIdentifier(registration)] = registration
        let start = !isRunning
        if start { lastSeen = environment?.lastTransactionID ?? 0 }
        wakesAll = true
        isRunning = true
        condition.unlock()
        if start {
            let thread = Thread { [self] in watch() }
            thread.name = "Burrow commit watcher"
            thread.start()
        }
        return registration
    }

    fileprivate func unregister(_ registration: Registration) {
        condition.lock()
        registrations[ObjectIdentifier(registration)] = nil
        condition.signal()
        condition.unlock()
    }

    /// A write of this process committed: wake the watcher now rather than at its next look.
    func committed() {
        condition.lock()
        guard isRunning else {
            condition.unlock()
            return
        }
        signalled = true
        condition.signal()
        condition.unlock()
    }

    private func watch() {
        let probe = VersionProbe(environment)
        while true {
            condition.lock()
            if !signalled { _ = condition.wait(until: Date(timeIntervalSinceNow: Self.pollInterval)) }
            signalled = false
            guard !registrations.isEmpty, let last = probe.latestReadableID() else {
                isRunning = false
                condition.unlock()
                return
            }
            let moved = last != lastSeen || wakesAll
            lastSeen = last
            wakesAll = false
            let woken = moved ? Array(registrations.values) : []
            condition.unlock()
            for registration in woken { registration.wake() }
        }
    }
}

/// The id of the latest version a reader of the file can take.
///
/// The file's meta page shows a commit a moment before readers can take it (LMDB publishes the
/// id readers start from after writing the meta page), so a realm woken for the id the meta page
/// shows may refresh to the version before it, and its notification would be lost. Renewing a
/// read transaction reads the id readers get; a reset transaction keeps its reader slot and
/// pins no version.
private final class VersionProbe {
    private weak var environment: Environment?
    private var transaction: Transaction?

    init(_ environment: Environment?) {
        self.environment = environment
        transaction = try? environment?.beginReadTransaction()
        transaction?.reset()
    }

    /// The latest id a reader takes; `nil` only when no transaction could begin and the file
    /// has been closed since.
    func latestReadableID() -> Int? {
        guard let transaction else { return environment?.lastTransactionID }
        do {
            try transaction.renew()
            defer { transaction.reset() }
            return transaction.id
        } catch {
            // Without a renewable transaction (another process grew the map while this one
            // reads), the meta page's id is the best there is.
            return transaction.environment.lastTransactionID
        }
    }
}
