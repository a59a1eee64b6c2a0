import LMDB

/// How a realm syncs with its server of record, a PostgreSQL database: set it as
/// ``Realm/Configuration/syncConfiguration``.
///
/// ```swift
/// var config = Realm.Configuration(fileURL: url, objectTypes: [Task.self])
/// config.syncConfiguration = SyncConfiguration(
///     server: "postgresql://ana@db.internal/tasks",
///     initialSubscriptions: { subs in subs.append(QuerySubscription<Task>()) })
/// ```
///
/// The connection string (any libpq connection string or URI) carries the identity: the role
/// and its password, or a certificate. Synced classes need a primary key.
public struct SyncConfiguration: Sendable {
    /// The libpq connection string of the server.
    public var server: String
    /// Fills the subscription set the first time the file syncs.
    public var initialSubscriptions: (@Sendable (SyncSubscriptionSet) -> Void)?
    /// Called with each error of sync, on the sync thread: connection lost, authentication
    /// refused, a server schema that does not match, a write the server rejected, data from the
    /// server that does not decode.
    public var errorHandler: (@Sendable (SyncError, SyncSession?) -> Void)?

    /// A configuration syncing with `server`.
    public init(server: String,
                initialSubscriptions: (@Sendable (SyncSubscriptionSet) -> Void)? = nil,
                errorHandler: (@Sendable (SyncError, SyncSession?) -> Void)? = nil) {
        self.server = server
        self.initialSubscriptions = initialSubscriptions
        self.errorHandler = errorHandler
    }
}

/// A subscription to a whole class: every object of `T` syncs.
///
/// ```swift
/// subs.append(QuerySubscription<Task>())
/// ```
public struct QuerySubscription<T: Object>: Sendable {
    /// The subscription's name, if given.
    public let name: String?

    /// A subscription to every object of `T`.
    public init(name: String? = nil) {
        self.name = name
    }

    var className: String { ClassInfo.of(T.self).className }
}

/// The classes a synced realm downloads. Adding a class downloads the objects the server
/// has of it; removing one removes its objects from the file (not from the server), but for
/// those with local changes still to upload.
///
/// ```swift
/// realm.subscriptions!.append(QuerySubscription<Task>())
/// realm.subscriptions!.remove(ofType: Draft.self)
/// ```
public final class SyncSubscriptionSet: Sendable {
    private let classNames = Locked<(names: [String], version: UInt64)>(([], 0))
    /// Called after each change, to wake the session.
    private let changed = Locked<(@Sendable () -> Void)?>(nil)

    init() {}

    /// Adds `subscription`; adding a class twice keeps one.
    public func append<T: Object>(_ subscription: QuerySubscription<T>) {
        let name = subscription.className
        update { names in if !names.contains(name) { names.append(name) } }
    }

    /// Removes the subscription to `T`'s objects.
    public func remove<T: Object>(ofType type: T.Type) {
        let name = ClassInfo.of(T.self).className
        update { names in names.removeAll { $0 == name } }
    }

    private func update(_ change: (inout [String]) -> Void) {
        let didChange = classNames.withLock { state -> Bool in
            let before = state.names
            change(&state.names)
            guard state.names != before else { return false }
            state.version += 1
            return true
        }
        if didChange { changed.withLock { $0 }?() }
    }

    /// How many subscriptions there are.
    public var count: Int { classNames.withLock { $0.names.count } }

    /// The names of the subscribed classes, and a number that changes with them.
    var subscribed: (names: [String], version: UInt64) { classNames.withLock { $0 } }

    /// The names of the subscribed classes.
    var subscribedClassNames: [String] { subscribed.names }

    /// Calls `action` after each change.
    func onChange(_ action: @escaping @Sendable () -> Void) {
        changed.withLock { $0 = action }
    }
}
