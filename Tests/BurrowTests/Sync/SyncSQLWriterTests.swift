import Burrow
import Foundation
import LMDB
import PostgreSQL
import TemporaryPostgres
import Testing

final class SQLTask: Object {
    @Persisted(primaryKey: true) var id: String = ""
    @Persisted var title: String = ""
    @Persisted var priority: Int = 0
    @Persisted var done: Bool = false
    @Persisted var tags: List<String>
    @Persisted var labels: Map<String, Int>
}

/// Writes other programs make to the class tables in SQL reach every file, live, settled by
/// the same rules as the files' own.
@Suite(.enabled(if: TemporaryPostgres.isAvailable, "\(TemporaryPostgres.unavailableReason ?? "")"), .serialized,
       .plainFilesOnly("the server sees values, not files: encryption is covered by the local tests"))
final class SyncSQLWriterTests {
    let fixture: SyncFixture
    let errors = Locked<[SyncError]>([])

    init() throws {
        fixture = try SyncFixture()
    }

    /// A file subscribed to every task, or to those `query` selects.
    func open(_ name: String, query: String? = nil) throws -> Realm {
        var configuration = fixture.configuration(name, objectTypes: [SQLTask.self]) { subs in
            subs.append(query.map { QuerySubscription<SQLTask>(where: $0) } ?? QuerySubscription<SQLTask>())
        }
        configuration.syncConfiguration?.errorHandler = { [errors] error, _ in errors.withLock { $0.append(error) } }
        return try Realm(configuration: configuration)
    }

    func sql(_ sql: String) throws {
        try fixture.psql(sql)
    }

    func serverTitle(_ id: String) throws -> String? {
        let result = try PostgresConnection(fixture.server.connectionString).execute(#"SELECT title FROM "SQLTask" WHERE id = $1"#, [id])
        return result.rowCount == 0 ? nil : result[0, 0]
    }

    @Test func insertsUpdatesAndDeletesInSQLReachEveryFileLive() throws {
        let a = try open("a"), b = try open("b"), open = try open("open", query: "done == false")
        try fixture.converge([a, b, open])
        var changes: [String] = []
        let token = b.objects(SQLTask.self).observe { change in
            if case .update(_, let deletions, let insertions, let modifications) = change {
                changes.append("-\(deletions.count)+\(insertions.count)~\(modifications.count)")
            }
        }
        defer { token.invalidate() }
        b.refresh()

        try sql(#"INSERT INTO "SQLTask" (id, title, priority, done, tags, labels) VALUES ('s1', 'from SQL ✓', 3, false, '["x", "y"]', '{"k": 1}')"#)
        for realm in [a, b, open] {
            fixture.eventually(realm, "the inserted row did not arrive") { realm.object(ofType: SQLTask.self, forPrimaryKey: "s1") != nil }
        }
        let inserted = try #require(b.object(ofType: SQLTask.self, forPrimaryKey: "s1"))
        #expect(inserted.title == "from SQL ✓" && inserted.priority == 3 && Array(inserted.tags) == ["x", "y"] && inserted.labels["k"] == 1)

        try sql(#"UPDATE "SQLTask" SET priority = 4, tags = '["z"]' WHERE id = 's1'"#)
        fixture.eventually(b, "the update did not arrive") { inserted.priority == 4 && Array(inserted.tags) == ["z"] }
        #expect(inserted.title == "from SQL ✓")

        // A row that leaves a file's subscription leaves the file.
        try sql(#"UPDATE "SQLTask" SET done = true WHERE id = 's1'"#)
        fixture.eventually(open, "the row that left the view stayed") { open.object(ofType: SQLTask.self, forPrimaryKey: "s1") == nil }

        // A new primary key is another object.
        try sql(#"UPDATE "SQLTask" SET id = 's2' WHERE id = 's1'"#)
        fixture.eventually(a, "the renamed row did not arrive") {
            a.object(ofType: SQLTask.self, forPrimaryKey: "s1") == nil && a.object(ofType: SQLTask.self, forPrimaryKey: "s2")?.priority == 4
        }

        try sql(#"DELETE FROM "SQLTask" WHERE id = 's2'"#)
        fixture.eventually(b, "the deletion did not arrive") { b.objects(SQLTask.self).isEmpty }
        #expect(changes.first == "-0+1~0" && changes.contains("-0+0~1"), "\(changes)")
        #expect(errors.withLock { $0.isEmpty }, "\(errors.withLock { $0 })")
    }

    @Test func aPropertySetInSQLWinsOverEarlierWritesAndLosesToLaterOnes() throws {
        let a = try open("a"), b = try open("b")
        try a.write { a.create(SQLTask.self, value: ["id": "t", "title": "a1"]) }
        try fixture.converge([a, b])

        // Later than the file's write: SQL's value wins everywhere.
        try sql(#"UPDATE "SQLTask" SET title = 'sql1' WHERE id = 't'"#)
        let onB = try #require(b.object(ofType: SQLTask.self, forPrimaryKey: "t"))
        fixture.eventually(b, "the SQL write did not arrive") { onB.title == "sql1" }

        // An offline edit made before an SQL write loses to it when it comes up later; what
        // SQL did not touch keeps the edit.
        a.syncSession!.pause()
        try a.write {
            let task = a.object(ofType: SQLTask.self, forPrimaryKey: "t")!
            task.title = "a2"
            task.priority = 5
        }
        Thread.sleep(forTimeInterval: 0.005)
        try sql(#"UPDATE "SQLTask" SET title = 'sql2' WHERE id = 't'"#)
        a.syncSession!.resume()
        try fixture.converge([a, b])
        for realm in [a, b] {
            let task = try #require(realm.object(ofType: SQLTask.self, forPrimaryKey: "t"))
            #expect(task.title == "sql2" && task.priority == 5)
        }
        #expect(try serverTitle("t") == "sql2")

        // An edit made after an SQL write wins over it.
        try sql(#"UPDATE "SQLTask" SET title = 'sql3' WHERE id = 't'"#)
        fixture.eventually(a, "the SQL write did not arrive") { a.object(ofType: SQLTask.self, forPrimaryKey: "t")?.title == "sql3" }
        try a.write { a.object(ofType: SQLTask.self, forPrimaryKey: "t")!.title = "a3" }
        try fixture.converge([a, b])
        #expect(onB.title == "a3")
        #expect(try serverTitle("t") == "a3")

        // A deletion in SQL wins over a concurrent edit.
        b.syncSession!.pause()
        try b.write { onB.priority = 9 }
        try sql(#"DELETE FROM "SQLTask" WHERE id = 't'"#)
        b.syncSession!.resume()
        try fixture.converge([a, b])
        #expect(a.objects(SQLTask.self).isEmpty && b.objects(SQLTask.self).isEmpty)
        #expect(try serverTitle("t") == nil)
    }

    @Test func aValueWrittenInSQLThatDoesNotFitIsReportedAndTheRestApplies() throws {
        let a = try open("a")
        try a.write { a.create(SQLTask.self, value: ["id": "t", "title": "before", "tags": ["ok"]]) }
        try a.syncSession!.waitUntilSynced()
        try sql(#"UPDATE "SQLTask" SET tags = '{"not": "a list"}' WHERE id = 't'"#)
        try sql(#"UPDATE "SQLTask" SET title = 'after' WHERE id = 't'"#)
        let task = try #require(a.object(ofType: SQLTask.self, forPrimaryKey: "t"))
        fixture.eventually(a, "the valid write after the bad one did not arrive") { task.title == "after" }
        #expect(Array(task.tags) == ["ok"])
        let reported: [SyncError] = errors.withLock { $0 }
        #expect(reported.contains { $0.code == .malformedServerData && $0.message.contains("SQLTask") }, "\(reported)")
    }

    @Test func truncatingASyncedTableIsRefused() throws {
        let a = try open("a")
        try a.write { a.create(SQLTask.self, value: ["id": "t"]) }
        try a.syncSession!.waitUntilSynced()
        #expect {
            try sql(#"TRUNCATE "SQLTask""#)
        } throws: { error in
            "\(error)".contains("use DELETE")
        }
        #expect(try serverTitle("t") == "")
    }
}
