import Foundation
import PostgreSQL

/// What a synced file says of its sync: which server, how far it pulled, what waits for upload,
/// and the sync thread's last connection state. Read with ``Realm/syncStatus(ofFileAt:encryptionKey:)``.
///
/// ```swift
/// if let status = try Realm.syncStatus(ofFileAt: url) { print(status.pendingObjects) }
/// ```
public struct SyncStatus: Equatable, Sendable {
    /// The file's client id.
    public let clientID: UUID?
    /// The server's connection string as last connected to, without its password.
    public let server: String?
    /// The id of the server's database (`burrow.meta`), which the file is bound to.
    public let serverID: String?
    /// The server sequence number pulled through.
    public let pulledSequence: UInt64
    /// How many objects have changes waiting for upload.
    public let pendingObjects: Int
    /// When the oldest change waiting for upload was made.
    public let oldestPendingChange: Date?
    /// Whether a batch was sent and not yet acknowledged.
    public let uploadInFlight: Bool
    /// The sync thread's last connection state (`connected`, `connecting`, `disconnected`).
    public let connectionState: String?
    /// When it reached that state.
    public let connectionStateSince: Date?
    /// The subscriptions: each as `name: Class where query`, or `Class where query`.
    public let subscriptions: [String]
    /// The last sequence number the server trimmed from its change log, as last seen: a file
    /// that pulled through less downloads its subscriptions again.
    public let serverTrimmedThrough: UInt64?
}

extension Realm {
    /// The sync status of the file at `url`, or `nil` when the file never synced. Reads the
    /// file without changing it, while other processes use it.
    ///
    /// ```swift
    /// let status = try Realm.syncStatus(ofFileAt: URL(fileURLWithPath: "tasks.realm"))
    /// ```
    ///
    /// - Throws: ``Realm/Error`` when the file does not open (missing, not a realm file, wrong
    ///   key); a damaged sync record.
    public static func syncStatus(ofFileAt url: URL, encryptionKey: Data? = nil) throws -> SyncStatus? {
        let realm = try Realm(configuration: Configuration(fileURL: url, encryptionKey: encryptionKey, readOnly: true, objectTypes: []))
        let txn = realm.core.transaction
        guard let journal = try SyncJournal.open(in: txn, create: false) else { return nil }
        let summary = try journal.pendingSummary(in: txn)
        let connection = try journal.value(.connection, in: txn).map { String(decoding: $0, as: UTF8.self) }
        let parts = connection?.split(separator: "@", maxSplits: 1)
        let subscriptions = try LocalReplica.subscriptions(in: journal, txn: txn)?.entries ?? []
        return SyncStatus(
            clientID: try journal.clientID(in: txn),
            server: try journal.value(.serverAddress, in: txn).map { String(decoding: $0, as: UTF8.self) },
            serverID: try journal.value(.server, in: txn).map { String(decoding: $0, as: UTF8.self) },
            pulledSequence: try journal.number(.pulled, in: txn) ?? 0,
            pendingObjects: summary.count,
            oldestPendingChange: summary.oldest.map { Date(timeIntervalSince1970: Double($0.milliseconds) / 1000) },
            uploadInFlight: try journal.value(.outbox, in: txn) != nil,
            connectionState: parts.map { String($0[0]) },
            connectionStateSince: parts.flatMap { $0.count == 2 ? Double($0[1]) : nil }.map(Date.init(timeIntervalSince1970:)),
            subscriptions: subscriptions.map { entry in
                (entry.name.map { "\($0): " } ?? "") + entry.className + (entry.condition == nil ? "" : " where \(entry.queryText)")
            },
            serverTrimmedThrough: try journal.number(.trimmed, in: txn))
    }

    /// Creates Burrow's tables in the server's database for the synced classes of
    /// `configuration` (its model classes; with `objectTypes: []`, the classes stored in its
    /// file): the `burrow` schema and a table per class. What a sync session does at its first connection, for an operator to
    /// run once with a role allowed to create tables, so that clients need none. Run again on
    /// a server an earlier version set up, it also replaces what that version installed with
    /// the current, faster equivalents (the history store, the class tables' capture triggers).
    ///
    /// ```swift
    /// try Realm.setUpSyncServer("postgresql://admin@db.internal/tasks", for: config)
    /// ```
    ///
    /// - Throws: ``SyncError``: `missingPrimaryKey`, `schemaMismatch` (a property of another
    ///   type on the server), or the connection's error by name; ``Realm/Error`` when the file
    ///   does not open.
    public static func setUpSyncServer(_ server: String, for configuration: Configuration) throws {
        var local = configuration
        local.syncConfiguration = nil
        let realm = try Realm(configuration: local)
        let schemas = (configuration.objectTypes?.isEmpty == true ? realm.fileSchema : realm.schema).objectSchema
        if let keyless = schemas.first(where: { !$0.isEmbedded && $0.primaryKeyProperty == nil }) {
            throw SyncError(.missingPrimaryKey, "the synced class '\(keyless.className)' has no primary key")
        }
        do {
            let connection = try PostgresConnection(server)
            try ServerSchema.install(on: connection)
            try ServerSchema.upgrade(on: connection)
            try ServerSchema.migrate(schemas, on: connection)
        } catch let error as PostgresError {
            throw SyncWorker.syncError(error)
        }
    }
}
