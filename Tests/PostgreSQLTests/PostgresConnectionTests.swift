import Foundation
import PostgreSQL
import TemporaryPostgres
import Testing

/// The libpq wrapper against a real server of its own.
@Suite(.enabled(if: TemporaryPostgres.isAvailable, "\(TemporaryPostgres.unavailableReason ?? "")"), .serialized)
struct PostgresConnectionTests {
    @Test func runsStatementsWithParametersAndReadsRowsAsText() throws {
        let server = try TemporaryPostgres.start()
        defer { server.stop() }
        let connection = try PostgresConnection(server.connectionString)
        try connection.execute("CREATE TABLE t (id bigint PRIMARY KEY, name text, raw bytea)")
        let inserted = try connection.execute("INSERT INTO t VALUES ($1, $2, $3), (2, NULL, NULL)", ["1", "żółw \"quoted\" 'x'", "\\x00ff"])
        #expect(inserted.affectedRowCount == 2)
        let rows = try connection.execute("SELECT id, name, raw FROM t ORDER BY id")
        #expect(rows.rowCount == 2 && rows.columnCount == 3)
        #expect(rows.columnName(1) == "name")
        #expect(rows[0, 0] == "1" && rows[0, 1] == "żółw \"quoted\" 'x'" && rows[0, 2] == "\\x00ff")
        #expect(rows[1, 1] == nil && rows[1, 2] == nil)
        #expect(rows.column(0) == ["1", "2"])
    }

    @Test func reportsServerErrorsWithTheirSQLState() throws {
        let server = try TemporaryPostgres.start()
        defer { server.stop() }
        let connection = try PostgresConnection(server.connectionString)
        #expect { try connection.execute("SELECT * FROM missing_table") } throws: { error in
            (error as? PostgresError)?.sqlState == "42P01"
        }
        #expect { try connection.execute("SELEC 1") } throws: { ($0 as? PostgresError)?.sqlState == "42601" }
        // The connection is still usable after a failed statement.
        #expect(try connection.execute("SELECT 1")[0, 0] == "1")
    }

    @Test func aTransactionRollsBackWhenItsBodyThrows() throws {
        let server = try TemporaryPostgres.start()
        defer { server.stop() }
        let connection = try PostgresConnection(server.connectionString)
        try connection.execute("CREATE TABLE t (id int)")
        struct Stop: Error {}
        #expect(throws: Stop.self) {
            try connection.transaction {
                try connection.execute("INSERT INTO t VALUES (1)")
                throw Stop()
            }
        }
        try connection.transaction { try connection.execute("INSERT INTO t VALUES (2)") }
        #expect(try connection.execute("SELECT id FROM t").column(0) == ["2"])
    }

    @Test func namesTheCauseOfARefusedConnection() throws {
        let server = try TemporaryPostgres.start()
        defer { server.stop() }
        try server.createRole("ana", password: "right")
        _ = try PostgresConnection(server.connectionString(user: "ana", password: "right"))
        #expect { try PostgresConnection(server.connectionString(user: "ana", password: "wrong")) } throws: {
            ($0 as? PostgresError)?.kind == .authenticationFailed
        }
        #expect { try PostgresConnection(server.connectionString(database: "no_such_db")) } throws: {
            ($0 as? PostgresError)?.kind == .missingDatabase
        }
        #expect { try PostgresConnection("host=127.0.0.1 port=1 connect_timeout=2") } throws: {
            ($0 as? PostgresError)?.kind == .unreachable
        }
        #expect { try PostgresConnection("host=x port=notanumber = =") } throws: {
            ($0 as? PostgresError)?.kind == .invalidConnectionString
        }
    }

    @Test func aStoppedServerIsALostConnection() throws {
        let server = try TemporaryPostgres.start()
        defer { server.stop() }
        let connection = try PostgresConnection(server.connectionString)
        try server.restart()
        #expect { try connection.execute("SELECT 1") } throws: { error in
            guard let error = error as? PostgresError else { return false }
            return error.kind == .connectionLost || error.sqlState == "57P01"
        }
        #expect(try PostgresConnection(server.connectionString).execute("SELECT 2")[0, 0] == "2")
    }

    @Test func deliversNotificationsWhileWaiting() throws {
        let server = try TemporaryPostgres.start()
        defer { server.stop() }
        let listener = try PostgresConnection(server.connectionString)
        try listener.execute("LISTEN burrow_changes")
        #expect(try listener.waitForNotifications(timeout: 0.05).isEmpty)
        let sender = try PostgresConnection(server.connectionString)
        try sender.execute("SELECT pg_notify('burrow_changes', '42')")
        var received: [PostgresConnection.Notification] = []
        let deadline = Date().addingTimeInterval(10)
        while received.isEmpty && Date() < deadline {
            received = try listener.waitForNotifications(timeout: 1)
        }
        #expect(received == [PostgresConnection.Notification(channel: "burrow_changes", payload: "42")])
    }

    @Test func quotesIdentifiersAndLiterals() {
        #expect(PostgresConnection.quoted("Task") == "\"Task\"")
        #expect(PostgresConnection.quoted("a\"b") == "\"a\"\"b\"")
        #expect(PostgresConnection.literal("it's") == "'it''s'")
        #expect(PostgresConnection.redacted("host=h user=u password=secret dbname=d").contains("secret") == false)
    }
}
