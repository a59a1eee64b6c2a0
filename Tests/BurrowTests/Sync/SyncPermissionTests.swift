import Burrow
import Foundation
import LMDB
import PostgreSQL
import TemporaryPostgres
import Testing

final class OwnedTask: Object {
    @Persisted(primaryKey: true) var id: String = ""
    @Persisted var owner: String = ""
    @Persisted var title: String = ""
    @Persisted var points: Int = 0
    @Persisted var tags: List<String>
}

/// What each machine may read and write is PostgreSQL's to say: each connects as its own
/// role, row-level security policies on the class tables decide, and a write the server
/// refuses is undone on the machine that made it, with the object and the reason.
@Suite(.enabled(if: TemporaryPostgres.isAvailable, "\(TemporaryPostgres.unavailableReason ?? "")"), .serialized,
       .plainFilesOnly("the server sees values, not files: encryption is covered by the local tests"))
final class SyncPermissionTests {
    let fixture: SyncFixture
    let errors = Locked<[String: [SyncError]]>([:])

    /// The README's example: the operator sets up the server, and each user sees and edits
    /// only their own tasks; points never go below zero.
    init() throws {
        fixture = try SyncFixture()
        let models = fixture.directory.url.appendingPathComponent("models.realm")
        try Realm.setUpSyncServer(fixture.server.connectionString,
                                  for: Realm.Configuration(fileURL: models, objectTypes: [OwnedTask.self]))
        try fixture.psql("""
            CREATE ROLE ana LOGIN PASSWORD 'ana-secret';
            CREATE ROLE bob LOGIN PASSWORD 'bob-secret';
            GRANT USAGE ON SCHEMA burrow TO ana, bob;
            GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA burrow, public TO ana, bob;
            GRANT USAGE ON ALL SEQUENCES IN SCHEMA burrow TO ana, bob;
            ALTER TABLE "OwnedTask" ENABLE ROW LEVEL SECURITY;
            CREATE POLICY own_tasks ON "OwnedTask" USING (owner = current_user) WITH CHECK (owner = current_user);
            ALTER TABLE "OwnedTask" ADD CONSTRAINT points_not_negative CHECK (points >= 0);
            """)
    }

    func open(_ user: String) throws -> Realm {
        var configuration = fixture.configuration(user, objectTypes: [OwnedTask.self]) { $0.append(QuerySubscription<OwnedTask>()) }
        configuration.syncConfiguration?.server = server(user)
        configuration.syncConfiguration?.errorHandler = { [errors] error, _ in errors.withLock { $0[user, default: []].append(error) } }
        return try Realm(configuration: configuration)
    }

    func rejections(_ user: String) -> [SyncError.CompensatingWriteInfo] {
        errors.withLock { ($0[user] ?? []).filter { $0.code == .writeRejected }.flatMap(\.compensatingWriteInfo) }
    }

    func ids(_ realm: Realm) -> Set<String> { Set(realm.objects(OwnedTask.self).map(\.id)) }

    func server(_ user: String) -> String { fixture.server.connectionString(user: user, password: "\(user)-secret") }

    /// The first column of each row `sql` gives `user`.
    func query(_ user: String, _ sql: String) throws -> [String] {
        let result = try PostgresConnection(server(user)).execute(sql)
        return (0..<result.rowCount).map { result[$0, 0] ?? "NULL" }
    }

    func serverRow(_ id: String) throws -> String? {
        let result = try PostgresConnection(fixture.server.connectionString).execute(
            #"SELECT owner || ':' || title || ':' || points FROM "OwnedTask" WHERE id = $1"#, [id])
        return result.rowCount == 0 ? nil : result[0, 0]
    }

    @Test func eachRoleSeesOnlyTheRowsItsPoliciesShowIt() throws {
        let ana = try open("ana"), bob = try open("bob")
        try ana.write { ana.create(OwnedTask.self, value: ["id": "a1", "owner": "ana", "title": "ana's"]) }
        try bob.write { bob.create(OwnedTask.self, value: ["id": "b1", "owner": "bob", "title": "bob's"]) }
        try fixture.converge([ana, bob])
        #expect(ids(ana) == ["a1"] && ids(bob) == ["b1"])
        #expect(try serverRow("a1") == "ana:ana's:0" && serverRow("b1") == "bob:bob's:0")

        // An operator hands a task over: it leaves one file and arrives whole in the other,
        // once a role that sees every row turns the write into a change.
        try fixture.psql(#"UPDATE "OwnedTask" SET owner = 'bob', points = 3 WHERE id = 'a1'"#)
        #expect(throws: SyncError.self) { try Realm.adoptSyncSQLWrites(self.server("ana")) }
        #expect(try Realm.adoptSyncSQLWrites(fixture.server.connectionString) == 1)
        try fixture.converge([ana, bob])
        #expect(ids(ana).isEmpty && ids(bob) == ["a1", "b1"])
        #expect(bob.object(ofType: OwnedTask.self, forPrimaryKey: "a1")?.title == "ana's")
        #expect(rejections("ana").isEmpty && rejections("bob").isEmpty)
    }

    @Test func aWriteTheServerRefusesIsUndoneAndReported() throws {
        let ana = try open("ana"), bob = try open("bob")
        try ana.write {
            ana.create(OwnedTask.self, value: ["id": "mine", "owner": "ana", "title": "kept", "points": 1])
            ana.create(OwnedTask.self, value: ["id": "edited", "owner": "ana", "title": "first"])
        }
        try fixture.converge([ana, bob])
        var changes: [String] = []
        let token = ana.objects(OwnedTask.self).observe { change in
            if case .update(_, let deletions, let insertions, let modifications) = change {
                changes.append("-\(deletions.count)+\(insertions.count)~\(modifications.count)")
            }
        }
        defer { token.invalidate() }
        ana.refresh()

        // In one batch: a task made for someone else, a task given away, points below zero,
        // and an edit the server takes.
        ana.syncSession!.pause()
        try ana.write {
            ana.create(OwnedTask.self, value: ["id": "for bob", "owner": "bob", "title": "not yours to make"])
            ana.object(ofType: OwnedTask.self, forPrimaryKey: "edited")!.owner = "bob"
            ana.object(ofType: OwnedTask.self, forPrimaryKey: "mine")!.points = -5
            ana.create(OwnedTask.self, value: ["id": "fine", "owner": "ana", "title": "accepted"])
        }
        ana.syncSession!.resume()
        try fixture.converge([ana, bob])

        let refused = rejections("ana")
        #expect(Set(refused.map(\.primaryKeyText)) == ["for bob", "edited", "mine"], "\(refused)")
        #expect(refused.allSatisfy { $0.objectType == "OwnedTask" })
        #expect(refused.first { $0.primaryKeyText == "mine" }?.reason.contains("points_not_negative") == true)
        #expect(refused.first { $0.primaryKeyText == "for bob" }?.reason.contains("row-level security") == true)
        // Undone here: the object the server does not have is gone, the others are as it has them.
        #expect(ana.object(ofType: OwnedTask.self, forPrimaryKey: "for bob") == nil)
        #expect(ana.object(ofType: OwnedTask.self, forPrimaryKey: "edited")?.owner == "ana")
        #expect(ana.object(ofType: OwnedTask.self, forPrimaryKey: "mine")?.points == 1)
        #expect(ana.object(ofType: OwnedTask.self, forPrimaryKey: "fine")?.title == "accepted")
        #expect(changes.contains { $0.hasPrefix("-1") }, "\(changes)")
        // Applied nowhere else.
        #expect(try serverRow("for bob") == nil && serverRow("edited") == "ana:first:0" && serverRow("mine") == "ana:kept:1")
        #expect(try serverRow("fine") == "ana:accepted:0")
        #expect(ids(bob).isEmpty)

        // Later writes of the same objects go on as usual.
        try ana.write { ana.object(ofType: OwnedTask.self, forPrimaryKey: "mine")!.points = 2 }
        try fixture.converge([ana])
        #expect(try serverRow("mine") == "ana:kept:2")
        #expect(rejections("ana").count == 3)
    }

    /// A row written past Burrow (no history, no change) that a role's policies hide: the
    /// role's creation of the same key finds the row only when it writes, and is refused
    /// there, leaving the row as it was.
    @Test func aCreationOverAHiddenRowWrittenPastBurrowIsRefused() throws {
        try fixture.psql(#"SET burrow.applying = 'on'; INSERT INTO "OwnedTask" (id, owner, title, points, tags) VALUES ('x1', 'ana', 'written past Burrow', 0, '[]')"#)
        let bob = try open("bob")
        try bob.write {
            bob.create(OwnedTask.self, value: ["id": "x1", "owner": "bob", "title": "bob's"])
            bob.create(OwnedTask.self, value: ["id": "x2", "owner": "bob", "title": "bob's too"])
        }
        try fixture.converge([bob])
        #expect(rejections("bob").map(\.primaryKeyText) == ["x1"])
        #expect(rejections("bob").first?.reason.contains("row-level security") == true, "\(rejections("bob"))")
        #expect(try serverRow("x1") == "ana:written past Burrow:0")
        #expect(try serverRow("x2") == "bob:bob's too:0")
        #expect(ids(bob) == ["x2"])
    }

    @Test func noRoleReadsAnothersRowsInBurrowsOwnTables() throws {
        let ana = try open("ana"), bob = try open("bob")
        try ana.write {
            ana.create(OwnedTask.self, value: ["id": "a1", "owner": "ana", "title": "ana's secret", "tags": ["hidden tag"]])
            ana.create(OwnedTask.self, value: ["id": "a2", "owner": "ana", "title": "ana's plan"])
        }
        try bob.write { bob.create(OwnedTask.self, value: ["id": "b1", "owner": "bob", "title": "bob's", "tags": ["bob's tag"]]) }
        try fixture.converge([ana, bob])
        try ana.write { ana.object(ofType: OwnedTask.self, forPrimaryKey: "a1")!.tags.append("another hidden tag") }
        try fixture.converge([ana, bob])
        #expect(ids(ana) == ["a1", "a2"] && ids(bob) == ["b1"])

        // The change log's values, the histories' collections and the keys are ana's alone.
        #expect(try query("bob", "SELECT pk #>> '{}' FROM burrow.changes ORDER BY seq") == ["b1"])
        #expect(try query("bob", "SELECT count(*) FROM burrow.changes WHERE fields::text LIKE '%hidden%' OR pk::text LIKE '%a1%'") == ["0"])
        #expect(try query("bob", "SELECT pk #>> '{}' FROM burrow.objects") == ["b1"])
        #expect(try query("ana", "SELECT pk #>> '{}' FROM burrow.objects ORDER BY 1") == ["a1", "a2"])
        #expect(try query("ana", "SELECT count(*) FROM burrow.objects WHERE collections::text LIKE '%hidden tag%'") == ["1"])
        // The log itself every role reads whole, without values or keys.
        let log = try query("bob", "SELECT row_to_json(l)::text FROM burrow.change_log l")
        #expect(log.count == 4 && log.allSatisfy { !$0.contains("\"a1\"") && !$0.contains("\"a2\"") && !$0.contains("ana") }, "\(log)")
        #expect(try query("bob", "SELECT count(*) FROM burrow.change_log WHERE key ~ '^[0-9a-f]{64}$'") == ["4"])
        // Nor can bob write over what he cannot read.
        #expect(throws: PostgresError.self) {
            try self.query("bob", "SELECT burrow.store_histories('[{\"class\": \"OwnedTask\", \"pk\": \"a1\", \"created\": \"x\", \"clocks\": {}, \"collections\": {}}]')")
        }
        try bob.write { bob.create(OwnedTask.self, value: ["id": "a2", "owner": "bob", "title": "taken"]) }
        try fixture.converge([ana, bob])
        #expect(rejections("bob").map(\.primaryKeyText) == ["a2"])
        #expect(rejections("bob").first?.reason.contains("hides this object's row") == true, "\(rejections("bob"))")
        #expect(try serverRow("a2") == "ana:ana's plan:0" && ids(bob) == ["b1"])

        // Other programs' writes wait for a role that sees every row, as bob sees none of them.
        let follower = Process()
        follower.executableURL = BuildDirectory.product("burrow")
        follower.arguments = ["sync", "adopt", fixture.server.connectionString, "--follow"]
        let output = Pipe()
        follower.standardOutput = output
        try fixture.psql(#"DELETE FROM "OwnedTask" WHERE id = 'a2'; INSERT INTO "OwnedTask" (id, owner, title, points, tags) VALUES ('a3', 'ana', 'from SQL', 0, '[]')"#)
        #expect(try query("bob", "SELECT count(*) FROM burrow.sql_writes") == ["0"])
        #expect(try query("ana", "SELECT count(*) FROM burrow.sql_writes") == ["0"])
        try follower.run()
        // The deletion reaches ana's file through the log, which names the object only by digest.
        fixture.eventually(ana, "the SQL deletion and insertion arrive") { ids(ana) == ["a1", "a3"] }
        #expect(ids(ana) == ["a1", "a3"])
        try fixture.psql(#"UPDATE "OwnedTask" SET title = 'edited in SQL' WHERE id = 'b1'"#)
        fixture.eventually(bob, "a later SQL write arrives live") {
            bob.object(ofType: OwnedTask.self, forPrimaryKey: "b1")?.title == "edited in SQL"
        }
        follower.terminate()
        let deadline = Date().addingTimeInterval(10)
        while follower.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        if follower.isRunning { kill(follower.processIdentifier, SIGKILL) }
        follower.waitUntilExit()
        #expect(follower.terminationReason == .exit && follower.terminationStatus == 0)
        #expect(String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self) == "adopted 3 SQL write(s)\n")

        // A deleted object's history keeps no values.
        try ana.write { ana.delete(ana.object(ofType: OwnedTask.self, forPrimaryKey: "a1")!) }
        try fixture.converge([ana, bob])
        #expect(try query("bob", "SELECT pk #>> '{}' FROM burrow.objects WHERE clocks = '{}' AND collections = '{}' ORDER BY 1") == ["a1", "a2"])
        let owner = try PostgresConnection(fixture.server.connectionString)
        #expect(try owner.execute("SELECT count(*) FROM burrow.objects WHERE collections::text LIKE '%hidden%'")[0, 0] == "0")
    }
}
