import Burrow
import Foundation
import PostgreSQL
import TemporaryPostgres
import Testing

/// `burrow sync setup`, `status` and `adopt`, run as a user runs them.
@Suite(.enabled(if: TemporaryPostgres.isAvailable, "\(TemporaryPostgres.unavailableReason ?? "")"), .serialized,
       .plainFilesOnly("the tool reads keys from the environment; its encrypted runs are covered by the tool tests"))
final class SyncToolTests {
    let fixture: SyncFixture
    var server: TemporaryPostgres { fixture.server }
    var directory: TestDirectory { fixture.directory }

    init() throws {
        fixture = try SyncFixture()
    }

    @Test func setupCreatesATablePerClassWithAColumnPerProperty() throws {
        let file = directory.file("models.realm")
        _ = try Realm(configuration: Realm.Configuration(fileURL: file, objectTypes: [SyncedTask.self]))
        for _ in 0..<2 {
            let run = try BurrowToolRun(["sync", "setup", server.connectionString, file.path])
            #expect(run.status == 0, "\(run.errors)")
        }
        let columns = try PostgresConnection(server.connectionString).execute("""
            SELECT column_name, data_type FROM information_schema.columns WHERE table_schema = 'public' AND table_name = 'SyncedTask' ORDER BY column_name
            """)
        let types = Dictionary(uniqueKeysWithValues: (0..<columns.rowCount).map { (columns[$0, 0]!, columns[$0, 1]!) })
        #expect(types == ["id": "text", "title": "text", "priority": "bigint", "done": "boolean",
                          "due": "timestamp with time zone", "score": "double precision"])
    }

    /// A server an earlier version set up (its history store arbitrating every insert, its
    /// capture trigger firing for Burrow's own writes) is brought up to date by setup, and
    /// syncs as before.
    @Test func setupBringsWhatAnEarlierVersionInstalledUpToDate() throws {
        let file = directory.file("models.realm")
        _ = try Realm(configuration: Realm.Configuration(fileURL: file, objectTypes: [SyncedTask.self]))
        #expect(try BurrowToolRun(["sync", "setup", server.connectionString, file.path]).status == 0)
        let admin = try PostgresConnection(server.connectionString)
        func current() throws -> [String] {
            [try admin.execute("SELECT prosrc LIKE '%unique_violation%' FROM pg_proc WHERE proname = 'store_histories'")[0, 0] ?? "",
             try admin.execute("SELECT pg_get_triggerdef(oid) LIKE '%WHEN%' FROM pg_trigger WHERE tgname = 'burrow_capture'")[0, 0] ?? ""]
        }
        #expect(try current() == ["t", "t"])
        try admin.execute("""
            CREATE OR REPLACE FUNCTION burrow.store_histories(records jsonb) RETURNS void LANGUAGE plpgsql SECURITY DEFINER
            SET search_path = pg_catalog, pg_temp AS $$
            BEGIN
                INSERT INTO burrow.objects (class, pk, created, deleted, clocks, collections)
                SELECT class, pk, created, deleted, clocks, collections FROM jsonb_to_recordset(records)
                    AS r(class text, pk jsonb, created text, deleted text, clocks jsonb, collections jsonb)
                ON CONFLICT (class, pk) DO UPDATE SET created = EXCLUDED.created, deleted = EXCLUDED.deleted,
                    clocks = EXCLUDED.clocks, collections = EXCLUDED.collections;
            END $$;
            DROP TRIGGER burrow_capture ON "SyncedTask";
            CREATE TRIGGER burrow_capture AFTER INSERT OR UPDATE OR DELETE ON "SyncedTask"
                FOR EACH ROW EXECUTE FUNCTION burrow.capture_sql_write();
            """)
        #expect(try current() == ["f", "f"])
        let run = try BurrowToolRun(["sync", "setup", server.connectionString, file.path])
        #expect(run.status == 0, "\(run.errors)")
        #expect(try current() == ["t", "t"])

        let configuration = fixture.configuration("client", objectTypes: [SyncedTask.self]) { $0.append(QuerySubscription<SyncedTask>()) }
        let realm = try Realm(configuration: configuration)
        try realm.write { realm.create(SyncedTask.self, value: ["id": "after", "title": "upgraded"]) }
        try realm.syncSession!.waitUntilSynced()
        #expect(try admin.execute("SELECT title FROM \"SyncedTask\" WHERE id = 'after'")[0, 0] == "upgraded")
        #expect(try admin.execute("SELECT count(*) FROM burrow.objects WHERE pk = '\"after\"'")[0, 0] == "1")
        #expect(try admin.execute("SELECT count(*) FROM burrow.sql_writes")[0, 0] == "0")
    }

    @Test func aRoleGrantedOnlyDataAccessSyncsOnceAnOperatorSetUpTheServer() throws {
        let file = directory.file("models.realm")
        _ = try Realm(configuration: Realm.Configuration(fileURL: file, objectTypes: [SyncedTask.self]))
        #expect(try BurrowToolRun(["sync", "setup", server.connectionString, file.path]).status == 0)
        let admin = try PostgresConnection(server.connectionString)
        try admin.execute("""
            CREATE ROLE service LOGIN PASSWORD 'secret';
            GRANT USAGE ON SCHEMA burrow TO service;
            GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA burrow, public TO service;
            GRANT USAGE ON ALL SEQUENCES IN SCHEMA burrow TO service;
            REVOKE CREATE ON SCHEMA public FROM PUBLIC;
            """)
        var configuration = Realm.Configuration(fileURL: directory.file("service.realm"), objectTypes: [SyncedTask.self])
        configuration.syncConfiguration = SyncConfiguration(server: server.connectionString(user: "service", password: "secret"),
                                                            initialSubscriptions: { $0.append(QuerySubscription<SyncedTask>()) },
                                                            errorHandler: { error, _ in print("sync error: \(error)") })
        defer { configuration.stopSyncSession() }
        let realm = try Realm(configuration: configuration)
        try realm.write { realm.create(SyncedTask.self, value: ["id": "by service", "title": "granted"]) }
        try realm.syncSession!.waitUntilSynced()
        #expect(try admin.execute("SELECT title FROM \"SyncedTask\" WHERE id = 'by service'")[0, 0] == "granted")
    }

    @Test func statusSaysWhatWaitsAndWhereItSyncs() throws {
        let file = directory.file("status.realm")
        let plain = try BurrowToolRun(["sync", "status", file.path + ".missing"])
        #expect(plain.status == 1)
        _ = try Realm(configuration: Realm.Configuration(fileURL: directory.file("never.realm"), objectTypes: [SyncedTask.self]))
        let never = try BurrowToolRun(["sync", "status", directory.file("never.realm").path, "--json"])
        #expect(never.status == 0 && never.output.contains("\"synced\":false"))
        // A file whose class shares a name with one of the tool's own (its demo's Person) but
        // not its properties is read through its stored schema.
        _ = try Realm(configuration: Realm.Configuration(fileURL: directory.file("people.realm"), objectTypes: [Person.self]))
        let people = try BurrowToolRun(["sync", "status", directory.file("people.realm").path, "--json"])
        #expect(people.status == 0 && people.output.contains("\"synced\":false"), "\(people.errors)")

        var configuration = Realm.Configuration(fileURL: file, objectTypes: [SyncedTask.self])
        configuration.syncConfiguration = SyncConfiguration(server: server.connectionString,
                                                            initialSubscriptions: { subs in
                                                                subs.append(QuerySubscription<SyncedTask>())
                                                                subs.append(QuerySubscription<SyncedTask>(name: "urgent") { $0.priority > 8 })
                                                            })
        defer { configuration.stopSyncSession() }
        let realm = try Realm(configuration: configuration)
        try realm.write { realm.create(SyncedTask.self, value: ["id": "one"]) }
        try realm.syncSession!.waitUntilSynced()
        realm.syncSession!.pause()
        try realm.write { realm.create(SyncedTask.self, value: ["id": "two"]) }

        let json = try BurrowToolRun(["sync", "status", file.path, "--json"])
        #expect(json.status == 0, "\(json.errors)")
        #expect(json.output.contains("\"pendingObjects\":1"), "\(json.output)")
        #expect(json.output.contains("\"pulledSequence\":1"), "\(json.output)")
        #expect(json.output.contains("\"connectionState\":\"connected\"") || json.output.contains("\"connectionState\":\"disconnected\""))
        #expect(!json.output.contains("password"))
        #expect(json.output.contains(#""subscriptions":["SyncedTask","urgent: SyncedTask where priority > 8"]"#), "\(json.output)")
        #expect(json.output.contains(#""serverTrimmedThrough":0"#), "\(json.output)")
        let text = try BurrowToolRun(["sync", "status", file.path])
        #expect(text.output.contains("pending uploads:  1 objects"), "\(text.output)")
        #expect(text.output.contains("host=\(server.folder.path)"), "\(text.output)")
        #expect(text.output.contains("server trimmed:   through 0"), "\(text.output)")
        #expect(text.output.contains("urgent: SyncedTask where priority > 8"), "\(text.output)")

        let misuse = try BurrowToolRun(["sync", "status"])
        #expect(misuse.status == 2)
    }

    @Test func adoptTurnsOtherProgramsWritesIntoChanges() throws {
        #expect(try BurrowToolRun(["sync", "adopt"]).status == 2)
        let early = try BurrowToolRun(["sync", "adopt", server.connectionString])
        #expect(early.status == 1 && early.errors.contains("not set up for sync"), "\(early.errors)")

        let file = directory.file("models.realm")
        _ = try Realm(configuration: Realm.Configuration(fileURL: file, objectTypes: [SyncedTask.self]))
        #expect(try BurrowToolRun(["sync", "setup", server.connectionString, file.path]).status == 0)
        let admin = try PostgresConnection(server.connectionString)
        try admin.execute("""
            INSERT INTO "SyncedTask" (id, title, priority, done, score) VALUES ('from sql', 'written in SQL', 1, false, 0);
            CREATE ROLE bound LOGIN PASSWORD 'secret';
            GRANT USAGE ON SCHEMA burrow TO bound;
            GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA burrow, public TO bound;
            """)
        let bound = try BurrowToolRun(["sync", "adopt", server.connectionString(user: "bound", password: "secret")])
        #expect(bound.status == 1 && bound.errors.contains("row-level security"), "\(bound.errors)")
        let run = try BurrowToolRun(["sync", "adopt", server.connectionString])
        #expect(run.status == 0 && run.output == "adopted 1 SQL write(s)\n", "\(run.output) \(run.errors)")
        #expect(try admin.execute("SELECT kind, fields->'title'->>'v' FROM burrow.changes").rowCount == 1)
        #expect(try admin.execute("SELECT fields->'title'->>'v' FROM burrow.changes")[0, 0] == "written in SQL")
        #expect(try BurrowToolRun(["sync", "adopt", server.connectionString]).output == "adopted 0 SQL write(s)\n")
    }
}
