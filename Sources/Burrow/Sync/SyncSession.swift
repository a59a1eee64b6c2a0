import Foundation
import LMDB
import PostgreSQL

/// The sync of one file with its server: uploads local writes, downloads the server's changes,
/// and retries with backoff while the server is out of reach. One per file in a process, from
/// ``Realm/syncSession``; it runs on a thread of its own while the file is open.
///
/// ```swift
/// try await realm.syncSession!.wait(for: .upload)
/// realm.syncSession!.pause()
/// ```
public final class SyncSession: @unchecked Sendable {
    /// Whether the session works.
    public enum State: Equatable, Sendable {
        /// Syncing, or trying to reach the server.
        case active
        /// Paused by ``pause()``.
        case paused
        /// Stopped: the file was closed.
        case inactive
    }

    /// Whether the session is connected to the server.
    public enum ConnectionState: Equatable, Sendable {
        case disconnected
        case connecting
        case connected
    }

    /// Which way data moves.
    public enum ProgressDirection: Sendable {
        case upload
        case download
    }

    private struct Status {
        var state: State = .active
        var connection: ConnectionState = .disconnected
        var stateContinuations: [UUID: AsyncStream<State>.Continuation] = [:]
        var connectionContinuations: [UUID: AsyncStream<ConnectionState>.Continuation] = [:]
        /// A waiter is armed once the worker is about to form a batch: the first batch formed
        /// whole after that holds every write made before the wait began.
        var uploadWaiters: [(armed: Bool, waiter: Waiter)] = []
        /// A download waiter gets its target from the first read of the server's latest
        /// sequence that began after it did (`ordinal` orders it against those reads).
        var downloadWaiters: [(target: UInt64?, ordinal: UInt64, waiter: Waiter)] = []
        /// How many download waiters have been enqueued.
        var downloadWaitersEnqueued: UInt64 = 0
        var lastError: SyncError?
    }

    /// Called once when what it waits for happened (`nil`) or the session stopped (an error).
    typealias Waiter = @Sendable (SyncError?) -> Void

    private let status = Locked(Status())
    let configuration: Realm.Configuration
    let sync: SyncConfiguration
    private(set) var worker: SyncWorker!
    /// What moved each way, and who observes it.
    let progress = SyncProgressTracker()

    /// What the session downloads.
    let subscriptions: SyncSubscriptionSet
    /// An error of the initial subscriptions, for the worker to report once it runs.
    let initialError: SyncError?

    /// A session for the file `realm` opened: its subscriptions are those the file stored,
    /// or the initial ones.
    init(realm: Realm, sync: SyncConfiguration) {
        configuration = realm.configuration
        self.sync = sync
        let schemas = Dictionary(realm.schema.objectSchema.map { ($0.className, $0) }, uniquingKeysWith: { first, _ in first })
        subscriptions = SyncSubscriptionSet(schemas: schemas, linkTarget: Self.primaryKeyResolver(for: realm.configuration))
        var initialError: SyncError?
        do {
            let stored = try LocalReplica(realm: realm).storedSubscriptions()
            if let stored { subscriptions.restore(stored.entries, version: stored.version) }
            if let initial = sync.initialSubscriptions, stored == nil || sync.rerunOnOpen {
                _ = try subscriptions.commit { [subscriptions] in initial(subscriptions) }
            }
        } catch let error as SyncError {
            initialError = error
            subscriptions.fail(subscriptions.committed.version, error)
        } catch {
            initialError = SyncError(.invalidSubscription, "the file's stored subscriptions do not read: \(error)")
        }
        self.initialError = initialError
        worker = SyncWorker(session: self)
        subscriptions.onChange { [weak self] in self?.worker.wake() }
    }

    func start() { worker.start() }

    /// The session's state.
    public var state: State { status.withLock { $0.state } }
    /// Whether the session is connected.
    public var connectionState: ConnectionState { status.withLock { $0.connection } }

    /// The state, now and at each change.
    public var stateChanges: AsyncStream<State> { changes(of: \.state, to: \.stateContinuations) }

    /// The connection state, now and at each change.
    public var connectionStateChanges: AsyncStream<ConnectionState> { changes(of: \.connection, to: \.connectionContinuations) }

    /// A stream of `value` now and at each change, whose continuation is kept in `listeners`
    /// until the stream ends.
    private func changes<Value>(of value: KeyPath<Status, Value> & Sendable,
                                to listeners: WritableKeyPath<Status, [UUID: AsyncStream<Value>.Continuation]> & Sendable) -> AsyncStream<Value> {
        AsyncStream { continuation in
            let id = UUID()
            status.withLock { status in
                continuation.yield(status[keyPath: value])
                status[keyPath: listeners][id] = continuation
            }
            continuation.onTermination = { [weak self] _ in self?.status.withLock { _ = $0[keyPath: listeners].removeValue(forKey: id) } }
        }
    }

    /// Stops syncing until ``resume()``; local writes go on and wait for upload.
    public func pause() {
        set(state: .paused)
        worker.wake()
    }

    /// Syncs again after ``pause()``.
    public func resume() {
        set(state: .active)
        worker.wake()
    }

    /// Returns once every local write made before the call is uploaded (`.upload`), or once
    /// every change the server had when called is applied here (`.download`).
    ///
    /// - Throws: ``SyncError`` when the session stops first.
    public func wait(for direction: ProgressDirection) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, Error>) in
            enqueue(direction) { error in
                if let error { continuation.resume(throwing: error) } else { continuation.resume() }
            }
        }
    }

    /// ``wait(for:)`` blocking the calling thread, at most `timeout` seconds.
    ///
    /// - Throws: ``SyncError`` when the session stops first or the time runs out.
    func waitBlocking(for direction: ProgressDirection, timeout: Double) throws(SyncError) {
        let done = DispatchSemaphore(value: 0)
        let outcome = Locked<SyncError?>(nil)
        enqueue(direction) { error in
            outcome.withLock { $0 = error }
            done.signal()
        }
        guard done.wait(timeout: .now() + timeout) == .success else {
            throw SyncError(.connectionLost, "waiting for the \(direction) timed out after \(timeout) s")
        }
        if let error = outcome.withLock({ $0 }) { throw error }
    }

    /// Calls `waiter` once the work in `direction` waiting now is done, or the session stopped.
    func enqueue(_ direction: ProgressDirection, _ waiter: @escaping Waiter) {
        let stopped = status.withLock { status -> Bool in
            guard status.state != .inactive else { return true }
            switch direction {
            case .upload: status.uploadWaiters.append((false, waiter))
            case .download:
                status.downloadWaiters.append((nil, status.downloadWaitersEnqueued, waiter))
                status.downloadWaitersEnqueued += 1
            }
            return false
        }
        if stopped { waiter(SyncError(.connectionLost, "the sync session stopped")) }
        worker.wake()
    }

    // MARK: The worker's reports

    func set(state: State) {
        status.withLock { status in
            guard status.state != state, status.state != .inactive else { return }
            status.state = state
            for continuation in status.stateContinuations.values { continuation.yield(state) }
        }
    }

    func set(connection: ConnectionState) {
        let changed = status.withLock { status -> Bool in
            guard status.connection != connection else { return false }
            status.connection = connection
            for continuation in status.connectionContinuations.values { continuation.yield(connection) }
            return true
        }
        // Outside the lock: the log function may ask the session for its state.
        if changed {
            Logger.log(.detail, "Sync: \(connection) (\(PostgresConnection.redacted(sync.server))): \(configuration.fileURL?.path ?? "in memory")")
        }
    }

    func report(_ error: SyncError) {
        Logger.log(.error, "Sync: \(error.localizedDescription)")
        status.withLock { $0.lastError = error }
        sync.errorHandler?(error, self)
    }

    /// Called by the worker before it forms a batch: the writes of those waiting now are in
    /// the next batch formed whole.
    func armUploadWaiters() {
        status.withLock { status in
            for index in status.uploadWaiters.indices { status.uploadWaiters[index].armed = true }
        }
    }

    /// Called by the worker when a read of the file made after the armed waiters were armed
    /// found nothing to upload, or when a batch formed whole after that was acknowledged: the
    /// armed waiters are done. A waiter that came after the arming waits for the next turn,
    /// even when this turn found nothing: the read may have come before its writes.
    func uploadsDone() {
        let ready = status.withLock { status -> [Waiter] in
            let ready = status.uploadWaiters.filter(\.armed).map(\.waiter)
            status.uploadWaiters.removeAll(where: \.armed)
            return ready
        }
        ready.forEach { $0(nil) }
    }

    /// A mark the worker takes just before it reads the server's latest sequence number: the
    /// download waiters enqueued before it are the ones that read can serve.
    var downloadWaiterMark: UInt64 { status.withLock { $0.downloadWaitersEnqueued } }

    /// Called by the worker once it has read the server's latest sequence number, with the mark
    /// taken before the read: the waiters enqueued before the mark that have no target yet get
    /// `latest`. Those that came after, even while the read was under way, wait for the next
    /// pull, whose latest number is read after they began.
    func armDownloadWaiters(latest: UInt64, enqueuedBefore mark: UInt64) {
        status.withLock { status in
            for index in status.downloadWaiters.indices
            where status.downloadWaiters[index].target == nil && status.downloadWaiters[index].ordinal < mark {
                status.downloadWaiters[index].target = latest
            }
        }
    }

    /// The download waiters whose target is at or below `pulled` are resumed.
    func downloads(pulled: UInt64) {
        let ready = status.withLock { status -> [Waiter] in
            var ready: [Waiter] = []
            status.downloadWaiters = status.downloadWaiters.compactMap { entry in
                guard let target = entry.target else { return entry }
                if pulled >= target { ready.append(entry.waiter); return nil }
                return entry
            }
            return ready
        }
        ready.forEach { $0(nil) }
    }

    var hasDownloadWaiters: Bool { status.withLock { !$0.downloadWaiters.isEmpty } }

    /// Stops the worker; waiters get an error.
    func stop() {
        worker.stop()
        subscriptions.stop()
        let (uploads, downloads) = status.withLock { status in
            defer {
                status.uploadWaiters = []
                status.downloadWaiters = []
                status.state = .inactive
                for continuation in status.stateContinuations.values { continuation.yield(.inactive); continuation.finish() }
                for continuation in status.connectionContinuations.values { continuation.finish() }
            }
            return (status.uploadWaiters.map(\.waiter), status.downloadWaiters.map(\.waiter))
        }
        let error = SyncError(.connectionLost, "the sync session stopped")
        uploads.forEach { $0(error) }
        downloads.forEach { $0(error) }
    }
}
