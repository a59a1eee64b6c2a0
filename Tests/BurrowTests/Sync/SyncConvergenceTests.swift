import Burrow
import Foundation
import PostgreSQL
import TemporaryPostgres
import Testing

final class SyncedTask: Object {
    @Persisted(primaryKey: true) var id: String = ""
    @Persisted var title: String = ""
    @Persisted var priority: Int = 0
    @Persisted var done: Bool = false
    @Persisted var due: Date?
    @Persisted var score: Double = 0
}

/// Two files synced through one PostgreSQL server converge, and conflicts resolve by the rules.
@Suite(.enabled(if: TemporaryPostgres.isAvailable, "\(TemporaryPostgres.unavailableReason ?? "")"), .serialized,
       .plainFilesOnly("the server sees values, not files: encryption is covered by the local tests"))
final class SyncConvergenceTests {
    let fixture: SyncFixture
    var server: TemporaryPostgres { fixture.server }
    var directory: TestDirectory { fixture.directory }

    init() throws {
        fixture = try SyncFixture()
    }

    func configuration(_ name: String) -> Realm.Configuration {
        fixture.configuration(name, objectTypes: [SyncedTask.self]) { $0.append(QuerySubscription<SyncedTask>()) }
    }

    func synced(_ realm: Realm) throws {
        try realm.syncSession!.waitUntilSynced()
        realm.refresh()
    }

    func converge(_ realms: Realm...) throws {
        try fixture.converge(realms)
    }

    /// Pauses the sessions of `realms`: their writes wait, as on machines apart.
    func disconnect(_ realms: Realm...) {
        for realm in realms { realm.syncSession!.pause() }
    }

    func reconnect(_ realms: Realm...) {
        for realm in realms { realm.syncSession!.resume() }
    }

    @Test func aWriteOnOneFileReachesTheOtherAndTheServerTable() throws {
        let a = try Realm(configuration: configuration("a"))
        let b = try Realm(configuration: configuration("b"))
        try a.write {
            a.create(SyncedTask.self, value: ["id": "t1", "title": "Write the note ✍️", "priority": 3,
                                              "due": Date(timeIntervalSince1970: 1_800_000_000.25), "score": 0.1])
        }
        try synced(a)
        try synced(b)
        let task = try #require(b.object(ofType: SyncedTask.self, forPrimaryKey: "t1"))
        #expect(task.title == "Write the note ✍️" && task.priority == 3 && task.score == 0.1)
        #expect(task.due == Date(timeIntervalSince1970: 1_800_000_000.25))
        let row = try PostgresConnection(server.connectionString).execute("SELECT title, priority, done FROM \"SyncedTask\" WHERE id = 't1'")
        #expect(row.rowCount == 1 && row[0, 0] == "Write the note ✍️" && row[0, 1] == "3" && row[0, 2] == "f")

        try b.write { task.done = true }
        try synced(b)
        try synced(a)
        #expect(a.object(ofType: SyncedTask.self, forPrimaryKey: "t1")?.done == true)
    }

    @Test func edgeValuesTravelExactly() throws {
        let a = try Realm(configuration: configuration("a"))
        let b = try Realm(configuration: configuration("b"))
        let text = String(repeating: "quote \" backslash \\ newline \n tab \t nul-free ✍️ 名前 \u{1}", count: 2000)
        let values: [[String: Any]] = [
            ["id": "past", "title": "", "priority": Int.min, "score": -0.5, "due": Date(timeIntervalSince1970: -14_182_940.25)],
            ["id": "future", "title": text, "priority": Int.max, "score": Double.infinity, "due": Date(timeIntervalSince1970: 32_503_680_000.000001)],
            ["id": "nan", "title": "🙂", "priority": 0, "score": Double.nan],
            ["id": "", "title": "empty primary key"],
        ]
        try a.write { for value in values { a.create(SyncedTask.self, value: value) } }
        try converge(a, b)
        for value in values {
            let id = value["id"] as! String
            let task = try #require(b.object(ofType: SyncedTask.self, forPrimaryKey: id), "\(id) did not arrive")
            let original = try #require(a.object(ofType: SyncedTask.self, forPrimaryKey: id))
            #expect(task.title == original.title, "\(id)")
            #expect(task.priority == original.priority, "\(id)")
            #expect(task.score == original.score || (task.score.isNaN && original.score.isNaN), "\(id)")
            #expect(task.due == original.due, "\(id): \(String(describing: task.due)) vs \(String(describing: original.due))")
        }
        let row = try PostgresConnection(server.connectionString).execute("SELECT length(title), score::text FROM \"SyncedTask\" WHERE id = 'future'")
        // PostgreSQL counts code points, as `unicodeScalars` does.
        #expect(row[0, 0] == String(text.unicodeScalars.count) && row[0, 1] == "Infinity")
    }

    @Test func theLastWriterOfAPropertyWinsAndOtherPropertiesMerge() throws {
        let a = try Realm(configuration: configuration("a"))
        let b = try Realm(configuration: configuration("b"))
        try a.write { a.create(SyncedTask.self, value: ["id": "t", "title": "first"]) }
        try synced(a)
        try synced(b)
        disconnect(a, b)
        let onA = try #require(a.object(ofType: SyncedTask.self, forPrimaryKey: "t"))
        let onB = try #require(b.object(ofType: SyncedTask.self, forPrimaryKey: "t"))
        try a.write { onA.title = "from a"; onA.priority = 1 }
        usleep(5_000)
        try b.write { onB.title = "from b, later" }
        reconnect(a, b)
        try converge(a, b)
        for realm in [a, b] {
            let task = try #require(realm.object(ofType: SyncedTask.self, forPrimaryKey: "t"))
            #expect(task.title == "from b, later")
            #expect(task.priority == 1)
        }
    }

    @Test func aDeleteWinsOverAConcurrentUpdate() throws {
        let a = try Realm(configuration: configuration("a"))
        let b = try Realm(configuration: configuration("b"))
        try a.write { a.create(SyncedTask.self, value: ["id": "gone", "title": "x"]) }
        try synced(a)
        try synced(b)
        disconnect(a, b)
        try a.write { a.delete(a.object(ofType: SyncedTask.self, forPrimaryKey: "gone")!) }
        usleep(5_000)
        try b.write { b.object(ofType: SyncedTask.self, forPrimaryKey: "gone")!.title = "updated later" }
        b.syncSession!.resume()
        try synced(b)
        a.syncSession!.resume()
        try converge(a, b)
        #expect(a.object(ofType: SyncedTask.self, forPrimaryKey: "gone") == nil)
        #expect(b.object(ofType: SyncedTask.self, forPrimaryKey: "gone") == nil)
        let rows = try PostgresConnection(server.connectionString).execute("SELECT count(*) FROM \"SyncedTask\" WHERE id = 'gone'")
        #expect(rows[0, 0] == "0")
    }

    @Test func theSamePrimaryKeyCreatedOnTwoMachinesIsOneObject() throws {
        let a = try Realm(configuration: configuration("a"))
        let b = try Realm(configuration: configuration("b"))
        disconnect(a, b)
        try a.write { a.create(SyncedTask.self, value: ["id": "same", "title": "a's", "priority": 7]) }
        usleep(5_000)
        try b.write { b.create(SyncedTask.self, value: ["id": "same", "title": "b's"]) }
        reconnect(a, b)
        try converge(a, b)
        for realm in [a, b] {
            #expect(realm.objects(SyncedTask.self).count == 1)
            #expect(realm.object(ofType: SyncedTask.self, forPrimaryKey: "same")?.title == "b's")
        }
    }

    @Test func waitingForUploadAsynchronouslyReturnsOnceTheServerHasTheWrite() async throws {
        let configuration = configuration("a")
        let session: SyncSession = try {
            let realm = try Realm(configuration: configuration)
            try realm.write { realm.create(SyncedTask.self, value: ["id": "async", "title": "awaited"]) }
            return realm.syncSession!
        }()
        #expect(session.state == .active)
        try await session.wait(for: .upload)
        let rows = try PostgresConnection(server.connectionString).execute("SELECT title FROM \"SyncedTask\" WHERE id = 'async'")
        #expect(rows.rowCount == 1 && rows[0, 0] == "awaited")
        #expect(session.connectionState == .connected)
    }

    @Test func aNewClientStartsFromTheServersTablesAndThenFollowsTheLog() throws {
        let a = try Realm(configuration: configuration("a"))
        try a.write {
            for index in 0..<6_000 { a.create(SyncedTask.self, value: ["id": "n\(index)", "priority": index]) }
        }
        try a.write {
            a.delete(a.objects(SyncedTask.self).filter("priority < 100"))
            for task in a.objects(SyncedTask.self).filter("priority >= 5900") { task.title = "renamed" }
        }
        try synced(a)
        let b = try Realm(configuration: configuration("b"))
        try synced(b)
        #expect(b.objects(SyncedTask.self).count == 5_900)
        #expect(b.objects(SyncedTask.self).filter("title == 'renamed'").count == 100)
        let latest = try PostgresConnection(server.connectionString).execute("SELECT max(seq) FROM burrow.changes")[0, 0]
        #expect(try Realm.syncStatus(ofFileAt: b.configuration.fileURL!)?.pulledSequence == latest.flatMap(UInt64.init))
        // Changes after the snapshot arrive through the log.
        try a.write { a.object(ofType: SyncedTask.self, forPrimaryKey: "n500")!.title = "after" }
        try synced(a)
        try synced(b)
        #expect(b.object(ofType: SyncedTask.self, forPrimaryKey: "n500")?.title == "after")
    }

    @Test(.timeLimit(.minutes(1))) func theStateAndTheConnectionStateAreObservable() async throws {
        let configuration = configuration("a")
        let session: SyncSession = try { try Realm(configuration: configuration).syncSession! }()
        var connections: [SyncSession.ConnectionState] = []
        for await state in session.connectionStateChanges {
            connections.append(state)
            if state == .connected { break }
        }
        #expect(connections.last == .connected)
        session.pause()
        var states: [SyncSession.State] = []
        for await state in session.stateChanges {
            states.append(state)
            if state == .paused { break }
        }
        #expect(states == [.paused])
        for await state in session.connectionStateChanges where state == .disconnected { break }
        #expect(session.connectionState == .disconnected)
        session.resume()
        #expect(session.state == .active)
    }

    @Test func aChangeFromTheServerThatDoesNotDecodeIsReportedAndSkipped() throws {
        let errors = SyncErrorLog()
        var configuration = configuration("a")
        configuration.syncConfiguration?.errorHandler = { error, _ in errors.append(error) }
        let a = try Realm(configuration: configuration)
        try a.write { a.create(SyncedTask.self, value: ["id": "t", "title": "fine", "priority": 1]) }
        try synced(a)
        let clock = "00000fffffffffff-00000000000000000000000000000001"
        let server = try PostgresConnection(self.server.connectionString)
        for fields in [#"{"priority": {"v": "not a number", "c": "\#(clock)"}}"#, #"{"title": {"v": null, "c": "\#(clock)"}}"#,
                       #"{"due": {"v": "yesterday", "c": "\#(clock)"}}"#] {
            try server.execute("""
                INSERT INTO burrow.changes (client, class, pk, kind, fields)
                VALUES ('00000000-0000-0000-0000-000000000001', 'SyncedTask', '"t"', 'update', $1::jsonb)
                """, [fields])
        }
        try server.execute("""
            INSERT INTO burrow.changes (client, class, pk, kind, fields) VALUES ('00000000-0000-0000-0000-000000000001',
            'SyncedTask', '"t"', 'update', '{"title": {"v": "after the bad rows", "c": "\(clock)"}}')
            """)
        try synced(a)
        #expect(errors.codes.filter { $0 == .malformedServerData }.count == 3, "\(errors.all)")
        let task = try #require(a.object(ofType: SyncedTask.self, forPrimaryKey: "t"))
        #expect(task.priority == 1 && task.due == nil)
        #expect(task.title == "after the bad rows")
    }

    @Test func aClassWithoutAPrimaryKeyIsRefusedAtOpen() throws {
        var configuration = configuration("keyless")
        configuration.objectTypes = [SyncedTask.self, Dog.self]
        #expect { try Realm(configuration: configuration) } throws: { error in
            guard let error = error as? SyncError else { return false }
            return error.code == .missingPrimaryKey && error.message.contains("'Dog'")
        }
        #expect(configuration.syncConfiguration != nil)
    }

    @Test func writesGoOnWhileTheServerIsDownAndSyncWhenItReturns() throws {
        let a = try Realm(configuration: configuration("a"))
        let b = try Realm(configuration: configuration("b"))
        try a.write { a.create(SyncedTask.self, value: ["id": "before", "title": "x"]) }
        try synced(a)
        try server.pause()
        for index in 0..<30 {
            try a.write { a.create(SyncedTask.self, value: ["id": "a\(index)", "title": "offline a", "priority": index]) }
            try b.write { b.create(SyncedTask.self, value: ["id": "b\(index)", "title": "offline b", "priority": index]) }
        }
        let deadline = Date().addingTimeInterval(10)
        while a.syncSession!.connectionState == .connected && Date() < deadline { usleep(20_000) }
        #expect(a.syncSession!.connectionState != .connected, "the session did not notice the server stopped")
        try server.resume()
        try converge(a, b)
        #expect(a.objects(SyncedTask.self).count == 61)
        #expect(b.objects(SyncedTask.self).count == 61)
        let rows = try PostgresConnection(server.connectionString).execute("SELECT count(*) FROM \"SyncedTask\"")
        #expect(rows[0, 0] == "61")
    }

    @Test func aWrongPasswordOrAMissingDatabaseIsReportedByName() throws {
        try server.createRole("ana", password: "right")
        let errors = SyncErrorLog()
        for (name, connection, code) in [("wrongPassword", server.connectionString(user: "ana", password: "wrong"), SyncError.Code.authenticationFailed),
                                         ("missingDatabase", server.connectionString(database: "no_such_db"), SyncError.Code.missingDatabase)] {
            var configuration = configuration(name)
            configuration.syncConfiguration = SyncConfiguration(server: connection,
                                                                initialSubscriptions: { $0.append(QuerySubscription<SyncedTask>()) },
                                                                errorHandler: { error, _ in errors.append(error) })
            fixture.track(configuration)
            let realm = try Realm(configuration: configuration)
            try realm.write { realm.create(SyncedTask.self, value: ["id": name]) }
            let deadline = Date().addingTimeInterval(10)
            while !errors.codes.contains(code) && Date() < deadline { usleep(20_000) }
            #expect(errors.codes.contains(code), "\(name): \(errors.all)")
            // The write stays, waiting for a server it can reach.
            #expect(realm.object(ofType: SyncedTask.self, forPrimaryKey: name) != nil)
            #expect(realm.syncSession!.connectionState != .connected)
        }
        #expect(errors.all.contains { $0.message.contains("password authentication failed") })
        #expect(errors.all.contains { $0.message.contains("no_such_db") })
    }
}

/// The errors a sync error handler received, from any thread.
final class SyncErrorLog: @unchecked Sendable {
    private let lock = NSLock()
    private var errors: [SyncError] = []

    func append(_ error: SyncError) { lock.withLock { errors.append(error) } }
    var all: [SyncError] { lock.withLock { errors } }
    var codes: [SyncError.Code] { all.map(\.code) }
}
