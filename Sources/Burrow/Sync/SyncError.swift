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
        /// The server refused an upload.
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
    }

    /// What kind of failure this is.
    public let code: Code
    /// What went wrong, naming the cause.
    public let message: String

    /// An error of `code` with `message`.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}
