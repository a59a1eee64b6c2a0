import Burrow
import Foundation
import LMDB
import PostgreSQL
import TemporaryPostgres
import Testing

/// The change log is trimmed past what every client pulled, and a file the server's log no
/// longer covers (trimmed past it, or a server restored from an older backup) downloads its
/// subscriptions again, keeping its changes not yet uploaded.
@Suite(.enabled(if: TemporaryPostgres.isAvailable, "\(TemporaryPostgres.unavailableReason ?? "")"), .serialized,
       .plainFilesOnly("the server sees values, not files: encryption is covered by the local tests"))
final class SyncResetTests {
    let fixture: SyncFixture
    let errors = Locked<[SyncError]>([])

    init() throws {
        fixture = try SyncFixture()
    }

    func open(_ name: String) throws -> Realm {
        var configuration = fixture.configuration(name, objectTypes: [SyncedTask.self]) { $0.append(QuerySubscription<SyncedTask>()) }
        configuration.syncConfiguration?.errorHandler = { [errors] error, _ in errors.withLock { $0.append(error) } }
        return try Realm(configuration: configuration)
    }

    func query(_ sql: String) throws -> String? {
        let result = try PostgresConnection(fixture.server.connectionString).execute(sql)
        return result.rowCount == 0 ? nil : result[0, 0]
    }

    func resets() -> [SyncError] { errors.withLock { $0.filter { $0.code == .clientReset } } }

    func titles(_ realm: Realm) -> [String: String] {
        Dictionary(uniqueKeysWithValues: realm.objects(SyncedTask.self).map { ($0.id, $0.title) })
    }

    /// `a` and `b` holding tasks one to five; `b` paused, with a change to upload (task one
    /// renamed) and an object of its own (`mine`).
    func twoFilesWithBPausedAndChanged() throws -> (Realm, Realm) {
        let a = try open("a"), b = try open("b")
        try a.write { for index in 1...5 { a.create(SyncedTask.self, value: ["id": "t\(index)", "title": "task \(index)"]) } }
        try fixture.converge([a, b])
        b.syncSession!.pause()
        try b.write {
            b.object(ofType: SyncedTask.self, forPrimaryKey: "t1")!.title = "renamed on b"
            b.create(SyncedTask.self, value: ["id": "mine", "title": "made on b"])
        }
        return (a, b)
    }

    @Test func trimmingKeepsWhatAClientSeenLatelyHasNotPulled() throws {
        let (a, b) = try twoFilesWithBPausedAndChanged()
        try a.write {
            a.object(ofType: SyncedTask.self, forPrimaryKey: "t2")!.title = "changed on a"
            a.delete(a.object(ofType: SyncedTask.self, forPrimaryKey: "t3")!)
        }
        try a.syncSession!.waitUntilSynced()
        let trimmed = try #require(try query("SELECT burrow.trim()").flatMap(UInt64.init))
        let oldest = try #require(try query("SELECT min(seq) FROM burrow.changes").flatMap(UInt64.init))
        #expect(oldest == trimmed + 1)
        // b pulled before a's last changes: they stay for it.
        #expect(try query("SELECT count(*) FROM burrow.changes WHERE pk = '\"t2\"' AND fields -> 'title' ->> 'v' = 'changed on a'") == "1")
        b.syncSession!.resume()
        try fixture.converge([a, b])
        #expect(resets().isEmpty, "\(resets())")
        #expect(titles(a) == titles(b))
        #expect(titles(b)["t1"] == "renamed on b" && titles(b)["t2"] == "changed on a" && titles(b)["t3"] == nil)
    }

    @Test func aClientPastTheTrimPointDownloadsAgainAndKeepsItsChanges() throws {
        let (a, b) = try twoFilesWithBPausedAndChanged()
        try a.write {
            a.object(ofType: SyncedTask.self, forPrimaryKey: "t2")!.title = "changed on a"
            a.delete(a.object(ofType: SyncedTask.self, forPrimaryKey: "t3")!)
            a.create(SyncedTask.self, value: ["id": "t6", "title": "task 6"])
        }
        try a.syncSession!.waitUntilSynced()
        // b is not seen for longer than the retention: the log is trimmed past it.
        try fixture.psql("UPDATE burrow.meta SET value = '0 seconds' WHERE key = 'client_retention'; INSERT INTO burrow.meta VALUES ('client_retention', '0 seconds') ON CONFLICT DO NOTHING")
        let trimmed = try #require(try query("SELECT burrow.trim()").flatMap(UInt64.init))
        #expect(try query("SELECT count(*) FROM burrow.changes") == "1")
        #expect(b.syncSession!.state == .paused)

        b.syncSession!.resume()
        try fixture.converge([a, b])
        let reset = try #require(resets().first)
        // Its changes went up in the turn before the reset, or wait through it: either way they are kept.
        #expect(reset.message.contains("trimmed its changes through \(trimmed)") && reset.message.contains("kept its"), "\(reset.message)")
        // b holds the server's objects, and its own changes went up.
        #expect(titles(b) == titles(a))
        #expect(titles(b) == ["t1": "renamed on b", "t2": "changed on a", "t4": "task 4", "t5": "task 5", "t6": "task 6", "mine": "made on b"])
        // Once reset, it syncs as before.
        try a.write { a.object(ofType: SyncedTask.self, forPrimaryKey: "t4")!.title = "after the reset" }
        try fixture.converge([a, b])
        #expect(titles(b)["t4"] == "after the reset" && resets().count == 1)
    }

    @Test func aServerRestoredFromAnOlderBackupResetsItsClients() throws {
        let a = try open("a"), b = try open("b")
        try a.write { for index in 1...3 { a.create(SyncedTask.self, value: ["id": "t\(index)", "title": "task \(index)"]) } }
        try fixture.converge([a, b])
        let backup = try fixture.runTool("pg_dump", [fixture.server.connectionString, "--clean", "--if-exists"])
        // After the backup: a deletion and an edit the restore loses, pulled by both.
        try a.write {
            a.delete(a.object(ofType: SyncedTask.self, forPrimaryKey: "t1")!)
            a.object(ofType: SyncedTask.self, forPrimaryKey: "t2")!.title = "lost with the restore"
        }
        try fixture.converge([a, b])
        a.syncSession!.pause()
        b.syncSession!.pause()
        // b's change waits for upload while the server goes back in time.
        try b.write { b.object(ofType: SyncedTask.self, forPrimaryKey: "t3")!.title = "made during the restore" }
        let dump = fixture.directory.url.appendingPathComponent("backup.sql")
        try backup.write(to: dump, atomically: true, encoding: .utf8)
        Thread.sleep(forTimeInterval: 1.5)   // the paused sessions close their connections
        _ = try fixture.runTool("psql", [fixture.server.connectionString, "-v", "ON_ERROR_STOP=1", "-q", "-f", dump.path])
        #expect(try query(#"SELECT title FROM "SyncedTask" WHERE id = 't2'"#) == "task 2")

        a.syncSession!.resume()
        b.syncSession!.resume()
        try fixture.converge([a, b])
        #expect(resets().count == 2, "\(errors.withLock { $0 })")
        #expect(resets().allSatisfy { $0.message.contains("restored from an older backup") })
        // Both hold the restored server's objects, with b's waiting change on top.
        #expect(titles(a) == ["t1": "task 1", "t2": "task 2", "t3": "made during the restore"])
        #expect(titles(b) == titles(a))
        #expect(try query(#"SELECT title FROM "SyncedTask" WHERE id = 't3'"#) == "made during the restore")
    }
}
