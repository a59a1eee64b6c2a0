import Foundation

/// An error of sync, as the configuration's error handler receives it: what went wrong, in a
/// form code can match, and a message that names the cause.
///
/// ```swift
/// config.syncConfiguration = SyncConfiguration(server: url) { error, session in
///     if error.code == .authenticationFailed { alertOperator(error.message) }
/// }
/// ```
public struct SyncError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What kind of failure this is.
    public enum Code: Equatable, Sendable {
        /// The server could not be reached or the connection broke; the session retries.
        case connectionLost
        /// The server refused the credentials of the connection string; the session retries
        /// slowly, since an operator may fix the role.
        case authenticationFailed
        /// The database the connection string names does not exist.
        case missingDatabase
        /// The connection string does not parse.
        case invalidServer
        /// The server's tables do not fit this file's schema (a property of another type, or a
        /// change that is not additive).
        case schemaMismatch
        /// The server refused a write (a row-level security policy, a constraint, a value its
        /// column cannot hold): the write was undone in the file, and
        /// ``SyncError/compensatingWriteInfo`` names each object.
        case writeRejected
        /// The server sent something that does not decode: it is not applied.
        case malformedServerData
        /// A synced class has no primary key.
        case missingPrimaryKey
        /// The server no longer has the changes after the file's last pull (its change log was
        /// trimmed past them, or it was restored from an older backup): the file downloaded its
        /// subscriptions again, keeping its changes not yet uploaded, which upload next.
        case clientReset
        /// A subscription's query has no SQL form (the message names the part), or the server
        /// refused it.
        case invalidSubscription
        /// The connection's role may not do what was asked (for instance, read the writes other
        /// programs made, which row-level security keeps from roles it binds).
        case permissionDenied
        /// The file holds objects written while it was not synced, which would never upload:
        /// open it without a sync configuration, or write a copy for sync with
        /// ``Realm/writeCopy(configuration:)`` (RealmSwift refuses to open a local file as a
        /// synced one too).
        case localFile
    }

    /// One object whose write the server refused, undone in the file (a compensating write).
    public struct CompensatingWriteInfo: Equatable, Sendable {
        /// The object's class.
        public let objectType: String
        /// The object's primary key, as the server holds it (`"t1"`, `42`).
        public let primaryKeyText: String
        /// Why the server refused it, in its words.
        public let reason: String
    }

    /// What kind of failure this is.
    public let code: Code
    /// What went wrong, naming the cause.
    public let message: String
    /// For ``Code/writeRejected``: each object whose write was undone, and why.
    public let compensatingWriteInfo: [CompensatingWriteInfo]

    /// An error of `code` with `message`.
    public init(_ code: Code, _ message: String, compensatingWriteInfo: [CompensatingWriteInfo] = []) {
        self.code = code
        self.message = message
        self.compensatingWriteInfo = compensatingWriteInfo
    }

    public var description: String { message }
}

extension SyncError: LocalizedError {
    /// ``message``, so that `localizedDescription` (and a log that prints it) names the cause.
    public var errorDescription: String? { message }
}
