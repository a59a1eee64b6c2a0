import Foundation
import PostgreSQL

extension Realm {
    /// Turns the writes other programs made to the synced tables in SQL (`INSERT`, `UPDATE`,
    /// `DELETE`, by a backend job or `psql`) into changes that every synced file pulls, settled
    /// by the same rules as uploads; returns how many writes it turned.
    ///
    /// Sync sessions do this themselves when their role reads every row. Where row-level
    /// security binds every client's role, those writes wait for a role it does not bind (the
    /// tables' owner, or one with `BYPASSRLS`): run this, or `burrow sync adopt CONNECTION
    /// --follow`, with such a role.
    ///
    /// ```swift
    /// let adopted = try Realm.adoptSyncSQLWrites("postgresql://admin@db.internal/tasks")
    /// ```
    ///
    /// - Throws: ``SyncError``: `permissionDenied` when row-level security binds the role (it
    ///   would see none of the writes), `invalidServer` when the database was not set up for
    ///   sync, or the connection's error by name.
    public static func adoptSyncSQLWrites(_ server: String) throws -> Int {
        do {
            let connection = try PostgresConnection(server)
            return try SQLWriteAdopter(connection: connection).adoptWaiting()
        } catch let error as PostgresError {
            throw SyncWorker.syncError(error)
        }
    }

    /// Turns other programs' SQL writes into changes as they are made, until `shouldStop`
    /// returns `true` (asked at least every `interval` seconds); returns how many it turned.
    /// What ``adoptSyncSQLWrites(_:)`` does once, for a process that runs beside the services.
    ///
    /// - Throws: as ``adoptSyncSQLWrites(_:)``; a lost connection ends it with
    ///   `connectionLost`.
    public static func followSyncSQLWrites(_ server: String, interval: Double = 0.5, until shouldStop: () -> Bool) throws -> Int {
        do {
            let connection = try PostgresConnection(server)
            let adopter = try SQLWriteAdopter(connection: connection)
            try connection.execute("LISTEN \(ServerSchema.channel)")
            var adopted = try adopter.adoptWaiting()
            while !shouldStop() {
                let heard = try connection.waitForNotifications(timeout: interval)
                if heard.contains(where: { $0.payload == ServerSchema.sqlWritePayload }) { adopted += try adopter.adoptWaiting() }
            }
            return adopted
        } catch let error as PostgresError {
            throw SyncWorker.syncError(error)
        }
    }
}

/// Adopts other programs' SQL writes with a role that reads every row, without a file: the
/// classes and their primary keys come from the server.
private struct SQLWriteAdopter {
    let store: ServerStore

    init(connection: PostgresConnection) throws {
        let setUp = try connection.execute("SELECT to_regclass('burrow.sql_writes') IS NOT NULL")
        guard setUp[0, 0] == "t" else {
            throw SyncError(.invalidServer, "the database was not set up for sync (no burrow.sql_writes): run burrow sync setup first")
        }
        let unbound = try connection.execute("""
            SELECT r.rolsuper OR r.rolbypassrls OR pg_has_role(current_user, c.relowner, 'USAGE')
            FROM pg_roles r, pg_class c WHERE r.rolname = current_user AND c.oid = 'burrow.sql_writes'::regclass
            """)
        guard unbound.rowCount == 1, unbound[0, 0] == "t" else {
            throw SyncError(.permissionDenied, "row-level security keeps other programs' writes from this role: adopt them as the tables' owner or a role with BYPASSRLS")
        }
        store = ServerStore(connection: connection, primaryKeys: try ServerSchema.primaryKeys(on: connection))
    }

    func adoptWaiting() throws -> Int {
        var adopted = 0
        while true {
            let turned = try store.adoptSQLWrites()
            adopted += turned
            if turned < ServerStore.sqlWritesPerTurn { return adopted }
        }
    }
}
