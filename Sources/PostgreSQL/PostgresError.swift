/// An error from PostgreSQL or from reaching it: what went wrong, in a form code can match, and
/// the server's or libpq's own message.
///
/// ```swift
/// do { _ = try connection.execute("SELECT 1") }
/// catch let error as PostgresError where error.kind == .connectionLost { /* reconnect */ }
/// ```
public struct PostgresError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What kind of failure this is.
    public enum Kind: Equatable, Sendable {
        /// The connection string does not parse.
        case invalidConnectionString
        /// The server could not be reached, or refused the connection for a reason other than
        /// those below (not running, no such host, timeout).
        case unreachable
        /// The server refused the credentials (wrong password, no such role, `pg_hba.conf`).
        case authenticationFailed
        /// The database named in the connection string does not exist.
        case missingDatabase
        /// The connection broke while in use: the server stopped, restarted or vanished.
        case connectionLost
        /// The server ran the statement and reported an error, with its SQLSTATE code.
        case server(sqlState: String)
    }

    /// What kind of failure this is.
    public let kind: Kind
    /// The message, as the server or libpq wrote it.
    public let message: String

    /// An error of `kind` with `message`.
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// The SQLSTATE code of a server error, such as `"40P01"` for a deadlock.
    public var sqlState: String? {
        if case .server(let state) = kind { state } else { nil }
    }

    /// Whether retrying later may succeed: the server was out of reach or the connection broke,
    /// or the statement lost a serialization race or a deadlock.
    public var isTransient: Bool {
        switch kind {
        case .unreachable, .connectionLost: true
        case .server(let state): ["40001", "40P01", "57P01", "57P02", "57P03", "08000", "08003", "08006"].contains(state)
        default: false
        }
    }

    /// Whether the server refused the statement itself (its SQL, a type, a constraint, a
    /// permission), so that sending it again fails again.
    public var isServerRefusal: Bool {
        if case .server = kind { return !isTransient }
        return false
    }

    /// Whether the server refused the data a statement wrote: a permission or a row-level
    /// security policy (`42501`), a constraint (class `23`), or a value its column cannot hold
    /// (class `22`). The same data fails again, wherever it is sent.
    public var refusesData: Bool {
        guard case .server(let state) = kind else { return false }
        return state == "42501" || state.hasPrefix("23") || state.hasPrefix("22")
    }

    public var description: String {
        let trimmed = message.trimmingTrailingNewlines()
        switch kind {
        case .invalidConnectionString: return "invalid connection string: \(trimmed)"
        case .unreachable: return "cannot reach the server: \(trimmed)"
        case .authenticationFailed: return "authentication failed: \(trimmed)"
        case .missingDatabase: return "the database does not exist: \(trimmed)"
        case .connectionLost: return "the connection was lost: \(trimmed)"
        case .server(let state): return "\(trimmed) (SQLSTATE \(state))"
        }
    }
}

extension String {
    func trimmingTrailingNewlines() -> String {
        var text = Substring(self)
        while let last = text.last, last.isNewline || last == " " { text = text.dropLast() }
        return String(text)
    }
}
