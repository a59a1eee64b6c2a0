import Dispatch
import Foundation

extension Realm {
    /// Opens the realm on a background thread, then hands it to `callback` on `callbackQueue`,
    /// confined to that queue as ``init(configuration:queue:)`` confines it.
    ///
    /// The work of opening (creating the file, a migration, compaction on launch) happens off
    /// the caller's thread; a synced realm also downloads what the server holds before the
    /// callback runs, as ``OpenBehavior/always`` does.
    ///
    /// ```swift
    /// Realm.asyncOpen(configuration: config, callbackQueue: queue) { result in
    ///     switch result {
    ///     case .success(let realm): print(realm.objects(Dog.self).count)
    ///     case .failure(let error): print("could not open: \(error)")
    ///     }
    /// }
    /// ```
    ///
    /// With the default `.main` queue, the callback runs once the main queue is served
    /// (`dispatchMain()`, `RunLoop.main.run()`, or an `await` on the main actor).
    ///
    /// `callback` receives a failure with what ``init(configuration:queue:)`` throws
    /// (``Realm/Error``), or ``SyncError`` when the download cannot finish. After
    /// ``AsyncOpenTask/cancel()`` it is not called.
    @discardableResult
    public static func asyncOpen(configuration: Configuration = .defaultConfiguration,
                                 callbackQueue: DispatchQueue = .main,
                                 callback: @escaping (Result<Realm, Swift.Error>) -> Void) -> AsyncOpenTask {
        let opening = AsyncOpening(configuration: configuration, callbackQueue: callbackQueue, callback: callback)
        opening.start()
        return AsyncOpenTask(opening: opening)
    }

    /// An open begun by ``Realm/asyncOpen(configuration:callbackQueue:callback:)``: to follow
    /// the download of a synced realm, or to give up on the open.
    ///
    /// ```swift
    /// let task = Realm.asyncOpen(configuration: config) { result in … }
    /// task.addProgressNotification(queue: queue) { progress in
    ///     print("downloaded \(Int(progress.progressEstimate * 100)) %")
    /// }
    /// task.cancel()
    /// ```
    public struct AsyncOpenTask: Sendable {
        let opening: AsyncOpening

        /// Gives up on the open: the callback is not called, and a download under way stops
        /// being waited for. The file stays as the work done so far left it (a migration that
        /// ran stays run).
        public func cancel() {
            opening.cancel()
        }

        /// Calls `block` on `queue` as the download of a synced realm progresses, until the
        /// open ends or is cancelled. A realm without sync downloads nothing: `block` is not
        /// called.
        ///
        /// ```swift
        /// task.addProgressNotification { progress in print(progress.transferredBytes) }
        /// ```
        public func addProgressNotification(queue: DispatchQueue = .main,
                                            block: @escaping (SyncSession.Progress) -> Void) {
            opening.addProgressNotification(queue: queue, block: block)
        }
    }
}

/// The state of one asynchronous open, shared by its background work and its task.
final class AsyncOpening: @unchecked Sendable {
    private let configuration: Realm.Configuration
    private let callbackQueue: DispatchQueue
    /// Runs the open, and owns the realm kept open while a synced one downloads.
    private let workQueue = DispatchQueue(label: "Burrow.asyncOpen")
    private let lock = NSLock()
    // Guarded by `lock`.
    private var callback: ((Result<Realm, Swift.Error>) -> Void)?
    private var progressBlocks: [(queue: DispatchQueue, block: (SyncSession.Progress) -> Void)] = []
    private var progressTokens: [NotificationToken] = []
    private var session: SyncSession?
    /// The realm a synced open keeps open on `workQueue` while it downloads.
    private var opener: Realm?

    init(configuration: Realm.Configuration, callbackQueue: DispatchQueue,
         callback: @escaping (Result<Realm, Swift.Error>) -> Void) {
        self.configuration = configuration
        self.callbackQueue = callbackQueue
        self.callback = callback
    }

    private var isCancelled: Bool { lock.withLock { callback == nil } }

    func start() {
        workQueue.async { [self] in
            guard !isCancelled else { return }
            let realm: Realm
            do {
                realm = try Realm(configuration: configuration, queue: workQueue)
            } catch {
                return finish(failure: error)
            }
            guard let session = realm.syncSession else { return finish(failure: nil) }
            lock.withLock {
                opener = realm
                self.session = session
                for registered in progressBlocks { follow(session, registered.queue, registered.block) }
            }
            session.enqueue(.download) { [self] error in finish(failure: error) }
        }
    }

    /// Ends the open: delivers `failure`, or the realm opened anew on the callback queue, while
    /// the realm that downloaded keeps the file (and its session) open until then.
    private func finish(failure: Swift.Error?) {
        let tokens = lock.withLock { () -> [NotificationToken] in
            defer { progressTokens = []; session = nil }
            return progressTokens
        }
        for token in tokens { token.invalidate() }
        callbackQueue.async { [self] in
            let callback = lock.withLock { () -> ((Result<Realm, Swift.Error>) -> Void)? in
                defer { self.callback = nil }
                return self.callback
            }
            if let callback {
                if let failure { callback(.failure(failure)) } else {
                    callback(Result { try Realm(configuration: configuration, queue: callbackQueue) })
                }
            }
            // Released on the queue it is confined to.
            workQueue.async { [self] in lock.withLock { opener = nil } }
        }
    }

    func cancel() {
        let tokens = lock.withLock { () -> [NotificationToken] in
            callback = nil
            progressBlocks = []
            defer { progressTokens = [] }
            return progressTokens
        }
        for token in tokens { token.invalidate() }
    }

    func addProgressNotification(queue: DispatchQueue, block: @escaping (SyncSession.Progress) -> Void) {
        lock.withLock {
            guard callback != nil else { return }
            progressBlocks.append((queue, block))
            if let session { follow(session, queue, block) }
        }
    }

    /// Registers `block` for the session's download progress; called with `lock` held.
    private func follow(_ session: SyncSession, _ queue: DispatchQueue, _ block: @escaping (SyncSession.Progress) -> Void) {
        let deliver = UncheckedProgressBlock(block: block)
        let token = session.addProgressNotification(for: .download, mode: .forCurrentlyOutstandingWork) { progress in
            queue.async { deliver.block(progress) }
        }
        if let token { progressTokens.append(token) }
    }
}

/// A progress block handed to another queue: RealmSwift's signature does not ask for a
/// `Sendable` block, and each block only ever runs on the queue it was registered with.
private struct UncheckedProgressBlock: @unchecked Sendable {
    let block: (SyncSession.Progress) -> Void
}
