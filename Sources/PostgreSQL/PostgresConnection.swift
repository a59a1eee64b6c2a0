import CLibPQ
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// One connection to a PostgreSQL server, through libpq. Statements block the calling thread;
/// a connection belongs to one thread at a time (libpq connections are not thread-safe).
///
/// ```swift
/// let connection = try PostgresConnection("postgresql://ana@db.internal/tasks")
/// let result = try connection.execute("SELECT title FROM \"Task\" WHERE done = $1", ["false"])
/// ```
///
/// A connection string that sets no `connect_timeout` gets 10 seconds, TCP keepalives are on,
/// and data unacknowledged for 30 seconds (`tcp_user_timeout`) breaks the connection, so that
/// a server that vanishes, even mid-statement, is an error rather than a hang.
public final class PostgresConnection {
    private let handle: OpaquePointer

    /// Connects to the server `connectionString` names: a `key=value` string or a
    /// `postgresql://` URI, as `psql` takes.
    ///
    /// - Throws: ``PostgresError`` of kind `invalidConnectionString`, `unreachable`,
    ///   `authenticationFailed` or `missingDatabase`.
    public init(_ connectionString: String) throws(PostgresError) {
        let given = try Self.parameters(of: connectionString)
        var keywords = ["dbname"]
        var values = [connectionString]
        let defaults = [("connect_timeout", "10"), ("keepalives", "1"), ("keepalives_idle", "10"),
                        ("keepalives_interval", "5"), ("keepalives_count", "3"), ("tcp_user_timeout", "30000"),
                        ("application_name", "burrow")]
        for (keyword, value) in defaults where given[keyword] == nil {
            keywords.append(keyword)
            values.append(value)
        }
        let connection = Self.connect(keywords: keywords, values: values)
        guard let connection else { throw PostgresError(.unreachable, "out of memory") }
        guard PQstatus(connection) == CONNECTION_OK else {
            let message = String(cString: PQerrorMessage(connection))
            PQfinish(connection)
            throw PostgresError(Self.kindOfConnectionFailure(message), message)
        }
        handle = connection
        // Notices (such as "relation already exists, skipping") are not errors: libpq would
        // print them on standard error.
        PQsetNoticeProcessor(connection, { _, _ in }, nil)
    }

    deinit { PQfinish(handle) }

    private static func connect(keywords: [String], values: [String]) -> OpaquePointer? {
        let keywordPointers = keywords.map { strdup($0) }
        let valuePointers = values.map { strdup($0) }
        defer {
            keywordPointers.forEach { free($0) }
            valuePointers.forEach { free($0) }
        }
        var keywordArray: [UnsafePointer<CChar>?] = keywordPointers.map { UnsafePointer($0) } + [nil]
        var valueArray: [UnsafePointer<CChar>?] = valuePointers.map { UnsafePointer($0) } + [nil]
        return keywordArray.withUnsafeMutableBufferPointer { keywordBuffer in
            valueArray.withUnsafeMutableBufferPointer { valueBuffer in
                PQconnectdbParams(keywordBuffer.baseAddress, valueBuffer.baseAddress, 1)
            }
        }
    }

    /// The parameters `connectionString` sets, by keyword.
    ///
    /// - Throws: ``PostgresError/Kind/invalidConnectionString`` with libpq's reason.
    public static func parameters(of connectionString: String) throws(PostgresError) -> [String: String] {
        var error: UnsafeMutablePointer<CChar>?
        guard let options = PQconninfoParse(connectionString, &error) else {
            let message = error.map { String(cString: $0) } ?? "unreadable"
            if let error { PQfreemem(error) }
            throw PostgresError(.invalidConnectionString, message)
        }
        defer { PQconninfoFree(options) }
        var parameters: [String: String] = [:]
        var option = options
        while let keyword = option.pointee.keyword {
            if let value = option.pointee.val { parameters[String(cString: keyword)] = String(cString: value) }
            option += 1
        }
        return parameters
    }

    /// The connection string's parameters with any password left out, for messages and status.
    public static func redacted(_ connectionString: String) -> String {
        guard let parameters = try? parameters(of: connectionString) else { return "(unreadable connection string)" }
        return parameters.filter { $0.key != "password" }.sorted { $0.key < $1.key }
            .map { "\($0.key)=\($0.value)" }.joined(separator: " ")
    }

    static func kindOfConnectionFailure(_ message: String) -> PostgresError.Kind {
        if message.contains("password authentication failed") || message.contains("no pg_hba.conf entry")
            || message.contains("authentication failed") || message.contains("password is required")
            || (message.contains("role \"") && message.contains("does not exist")) {
            return .authenticationFailed
        }
        if message.contains("database \"") && message.contains("does not exist") { return .missingDatabase }
        return .unreachable
    }

    /// Whether the connection is still usable.
    public var isOpen: Bool { PQstatus(handle) == CONNECTION_OK }

    /// The server's version number, such as `150004` for 15.4.
    public var serverVersion: Int { Int(PQserverVersion(handle)) }

    /// The connection's socket, for waiting on notifications with `poll`.
    public var socket: Int32 { PQsocket(handle) }

    /// Runs `sql` with `parameters` in place of `$1`, `$2`, … (as text; `nil` is `NULL`), and
    /// returns its rows. Several statements separated by `;` may run when there are no
    /// parameters.
    ///
    /// - Throws: ``PostgresError``: `server(sqlState:)` for an error the server reported,
    ///   `connectionLost` when the connection broke.
    @discardableResult
    public func execute(_ sql: String, _ parameters: [String?] = []) throws(PostgresError) -> PostgresResult {
        let result: OpaquePointer?
        if parameters.isEmpty {
            result = PQexec(handle, sql)
        } else {
            let copies: [UnsafeMutablePointer<CChar>?] = parameters.map { value in value.flatMap { strdup($0) } }
            defer { for copy in copies { free(copy) } }
            var pointers: [UnsafePointer<CChar>?] = copies.map { copy in copy.map { UnsafePointer($0) } }
            result = pointers.withUnsafeMutableBufferPointer { buffer in
                PQexecParams(handle, sql, Int32(buffer.count), nil, buffer.baseAddress, nil, nil, 0)
            }
        }
        return try checked(result)
    }

    private func checked(_ result: OpaquePointer?) throws(PostgresError) -> PostgresResult {
        // libpq's own errors (no result, or one without a SQLSTATE) are failures of the
        // connection: the server went away while the statement was sent or answered.
        guard let result else {
            throw PostgresError(.connectionLost, String(cString: PQerrorMessage(handle)))
        }
        let owned = PostgresResult(handle: result)
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_EMPTY_QUERY, PGRES_COPY_IN, PGRES_COPY_OUT:
            return owned
        default:
            let message = String(cString: PQresultErrorMessage(result))
            if isOpen, let state = PQresultErrorField(result, Int32(UInt8(ascii: "C"))) {
                throw PostgresError(.server(sqlState: String(cString: state)), message)
            }
            throw PostgresError(.connectionLost, message.isEmpty ? String(cString: PQerrorMessage(handle)) : message)
        }
    }

    /// Runs `body` in a transaction: committed when it returns, rolled back when it throws.
    ///
    /// - Throws: what `body` throws, or ``PostgresError`` from beginning or committing.
    @discardableResult
    public func transaction<Result>(isolation: String = "READ COMMITTED",
                                    _ body: () throws -> Result) throws -> Result {
        try execute("BEGIN ISOLATION LEVEL \(isolation)")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            if isOpen { _ = try? execute("ROLLBACK") }
            throw error
        }
    }

    /// `name` quoted as an SQL identifier: `Task` becomes `"Task"`.
    public static func quoted(_ name: String) -> String {
        "\"" + name.replacingAll("\"", with: "\"\"") + "\""
    }

    /// `text` quoted as an SQL string literal.
    public static func literal(_ text: String) -> String {
        "'" + text.replacingAll("'", with: "''") + "'"
    }

    // MARK: Notifications

    /// A notification from `NOTIFY`.
    public struct Notification: Equatable, Sendable {
        /// The channel it was sent on.
        public let channel: String
        /// Its payload, empty when none was given.
        public let payload: String

        /// A notification on `channel` carrying `payload`.
        public init(channel: String, payload: String) {
            self.channel = channel
            self.payload = payload
        }
    }

    /// The notifications received so far, without waiting.
    ///
    /// - Throws: ``PostgresError/Kind/connectionLost`` when the connection broke.
    public func receivedNotifications() throws(PostgresError) -> [Notification] {
        guard PQconsumeInput(handle) == 1 else {
            throw PostgresError(.connectionLost, String(cString: PQerrorMessage(handle)))
        }
        var notifications: [Notification] = []
        while let notify = PQnotifies(handle) {
            notifications.append(Notification(channel: String(cString: notify.pointee.relname),
                                              payload: String(cString: notify.pointee.extra)))
            PQfreemem(notify)
        }
        return notifications
    }

    /// Waits until a notification arrives, `wakeDescriptor` (when given) becomes readable, or
    /// `timeout` seconds pass; returns the notifications received, possibly none.
    ///
    /// - Throws: ``PostgresError/Kind/connectionLost`` when the connection broke.
    public func waitForNotifications(timeout: Double, wakeDescriptor: Int32? = nil) throws(PostgresError) -> [Notification] {
        let ready = try receivedNotifications()
        if !ready.isEmpty { return ready }
        var descriptors = [pollfd(fd: socket, events: Int16(POLLIN), revents: 0)]
        if let wakeDescriptor { descriptors.append(pollfd(fd: wakeDescriptor, events: Int16(POLLIN), revents: 0)) }
        let milliseconds = Int32(max(0, min(timeout, 86_400)) * 1000)
        let count = descriptors.count
        _ = descriptors.withUnsafeMutableBufferPointer { poll($0.baseAddress, nfds_t(count), milliseconds) }
        return try receivedNotifications()
    }
}

extension String {
    func replacingAll(_ target: Character, with replacement: String) -> String {
        var result = ""
        result.reserveCapacity(utf8.count)
        for character in self {
            if character == target { result += replacement } else { result.append(character) }
        }
        return result
    }
}
