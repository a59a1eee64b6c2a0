import Burrow
import Foundation
import LMDB
import PostgreSQL
import TemporaryPostgres
import Testing

/// A file downloads from a streaming replica of the server (a hot standby the test makes with
/// `pg_basebackup`) while it uploads to the server, and never goes back in time when it moves
/// between them.
@Suite(.enabled(if: TemporaryPostgres.isAvailable, "\(TemporaryPostgres.unavailableReason ?? "")"), .serialized,
       .plainFilesOnly("the server sees values, not files: encryption is covered by the local tests"))
final class SyncReplicaTests {
    let fixture: SyncFixture
    let replica: TemporaryPostgres
    let errors = Locked<[SyncError]>([])

    init() throws {
        fixture = try SyncFixture()
        replica = try fixture.server.startReplica()
    }

    deinit {
        fixture.stopSessions()
        replica.stop()
    }

    /// A file subscribed to every task, reading from the replica when `readsReplica`.
    func open(_ name: String, readsReplica: Bool) throws -> Realm {
        var configuration = fixture.configuration(name, objectTypes: [SyncedTask.self]) { $0.append(QuerySubscription<SyncedTask>()) }
        if readsReplica { configuration.syncConfiguration?.readServer = replica.connectionString }
        configuration.syncConfiguration?.errorHandler = { [errors] error, _ in errors.withLock { $0.append(error) } }
        return try Realm(configuration: configuration)
    }

    func titles(_ realm: Realm) -> [String: String] {
        Dictionary(uniqueKeysWithValues: realm.objects(SyncedTask.self).map { ($0.id, $0.title) })
    }

    @Test func downloadsReadTheReplicaWhileUploadsGoToTheServer() throws {
        let writer = try open("writer", readsReplica: false), reader = try open("reader", readsReplica: true)
        try writer.write {
            for index in 0..<200 { writer.create(SyncedTask.self, value: ["id": "t\(index)", "title": "task \(index)", "priority": index]) }
        }
        try writer.syncSession!.waitUntilSynced()
        try reader.syncSession!.waitUntilSynced()
        reader.refresh()
        #expect(titles(reader) == titles(writer) && reader.objects(SyncedTask.self).count == 200)
        // The reader's session holds a connection to the replica.
        let others = try PostgresConnection(replica.connectionString).execute("""
            SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()
            AND backend_type = 'client backend'
            """)[0, 0]
        #expect(others.flatMap(Int.init) ?? 0 >= 1, "nothing reads the replica")

        // A write on the reader goes to the server: a hot standby takes none.
        try reader.write { reader.create(SyncedTask.self, value: ["id": "from reader", "title": "up"]) }
        try reader.syncSession!.waitUntilUploaded()
        fixture.eventually(writer, "the reader's write did not reach the writer") {
            writer.object(ofType: SyncedTask.self, forPrimaryKey: "from reader")?.title == "up"
        }
        // Live changes arrive through the replica too.
        try writer.write { writer.object(ofType: SyncedTask.self, forPrimaryKey: "t7")!.title = "changed" }
        fixture.eventually(reader, "a change did not arrive through the replica") {
            reader.object(ofType: SyncedTask.self, forPrimaryKey: "t7")?.title == "changed"
        }
        #expect(errors.withLock { $0.isEmpty }, "\(errors.withLock { $0 })")
    }

    @Test func aFileNeverGoesBackInTimeWhenItMovesBetweenTheReplicaAndTheServer() throws {
        let writer = try open("writer", readsReplica: false), reader = try open("reader", readsReplica: true)
        try writer.write { writer.create(SyncedTask.self, value: ["id": "t1", "title": "v1"]) }
        try fixture.converge([writer, reader])

        // The replica has t1, and restarts from there (a restartpoint), not from further back.
        let onReplica = try PostgresConnection(replica.connectionString)
        let deadline = Date().addingTimeInterval(20)
        // Until the replica has replayed the table's creation, the table is missing there too.
        while (try? onReplica.execute(#"SELECT count(*) FROM "SyncedTask""#))?[0, 0] != "1" && Date() < deadline {
            Thread.sleep(forTimeInterval: 0.02)
        }
        try onReplica.execute("CHECKPOINT")

        // The replica goes down: downloads read the server, and say so.
        try replica.pause()
        try writer.write {
            writer.object(ofType: SyncedTask.self, forPrimaryKey: "t1")!.title = "v2"
            writer.create(SyncedTask.self, value: ["id": "t2", "title": "new"])
        }
        try fixture.converge([writer, reader])
        #expect(titles(reader) == ["t1": "v2", "t2": "new"])
        #expect(errors.withLock { $0.contains { $0.message.contains("read server is out of reach") } })

        // It comes back far behind (it applies nothing for an hour): the file reads it again
        // and keeps what it has.
        try replica.appendSettings(["recovery_min_apply_delay = '1h'"])
        try replica.resume()
        #expect(try PostgresConnection(replica.connectionString).execute(#"SELECT title FROM "SyncedTask""#)[0, 0] == "v1")
        errors.withLock { $0 = [] }
        // The session connects again, to both.
        reader.syncSession!.pause()
        let disconnected = Date().addingTimeInterval(10)
        while reader.syncSession!.connectionState != .disconnected && Date() < disconnected { Thread.sleep(forTimeInterval: 0.01) }
        reader.syncSession!.resume()
        try reader.syncSession!.waitUntilSynced()
        reader.refresh()
        #expect(titles(reader) == ["t1": "v2", "t2": "new"])
        // A new subscription starts from rows no older than what the file holds: here, the server's.
        try reader.updateSubscriptions {
            reader.subscriptions.removeAll()
            reader.subscriptions.append(QuerySubscription<SyncedTask>(name: "any priority") { $0.priority >= 0 })
        }
        #expect(titles(reader) == ["t1": "v2", "t2": "new"])

        // A change the replica has not applied waits for it, then arrives.
        try writer.write { writer.create(SyncedTask.self, value: ["id": "t3", "title": "later"]) }
        try writer.syncSession!.waitUntilSynced()
        Thread.sleep(forTimeInterval: 0.5)
        reader.refresh()
        #expect(reader.object(ofType: SyncedTask.self, forPrimaryKey: "t3") == nil, "the lagging replica served a change it does not have")
        #expect(errors.withLock { $0.isEmpty }, "\(errors.withLock { $0 })")
        try replica.pause()
        try replica.appendSettings(["recovery_min_apply_delay = 0"])
        try replica.resume()
        fixture.eventually(reader, "the change did not arrive once the replica caught up") {
            reader.object(ofType: SyncedTask.self, forPrimaryKey: "t3")?.title == "later"
        }
        #expect(titles(reader) == titles(writer))
    }
}
