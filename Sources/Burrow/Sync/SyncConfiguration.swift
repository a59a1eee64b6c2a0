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
    /// A streaming replica of the server (a hot standby) to download from, while uploads go to
    /// ``server``: reads scale with PostgreSQL's own replicas. The file never goes back in time
    /// when it moves between them; while the replica is out of reach, downloads read ``server``.
    public var readServer: String?
    /// Fills the subscription set the first time the file syncs (at every open with
    /// ``rerunOnOpen``).
    public var initialSubscriptions: (@Sendable (SyncSubscriptionSet) -> Void)?
    /// Whether ``initialSubscriptions`` runs at every open, not only the first time: for
    /// subscriptions that depend on the time or the user.
    public var rerunOnOpen: Bool
    /// Called with each error of sync, on the sync thread: connection lost, authentication
    /// refused, a server schema that does not match, a write the server rejected, data from the
    /// server that does not decode.
    public var errorHandler: (@Sendable (SyncError, SyncSession?) -> Void)?

    /// A configuration syncing with `server`.
    public init(server: String, readServer: String? = nil,
                initialSubscriptions: (@Sendable (SyncSubscriptionSet) -> Void)? = nil,
                rerunOnOpen: Bool = false,
                errorHandler: (@Sendable (SyncError, SyncSession?) -> Void)? = nil) {
        self.server = server
        self.readServer = readServer
        self.initialSubscriptions = initialSubscriptions
        self.rerunOnOpen = rerunOnOpen
        self.errorHandler = errorHandler
    }
}
