import Burrow
import Foundation
import PostgreSQL
import TemporaryPostgres
import Testing

/// Sync between real processes: clients writing at once converge, and a client killed at any
/// moment of an upload or a download loses nothing and applies nothing twice.
@Suite(.enabled(if: TemporaryPostgres.isAvailable, "\(TemporaryPostgres.unavailableReason ?? "")"), .serialized,
       .plainFilesOnly("the server sees values, not files: encryption is covered by the local tests"))
final class SyncProcessTests {
    let fixture: SyncFixture
    var server: TemporaryPostgres { fixture.server }
    var directory: TestDirectory { fixture.directory }

    init() throws {
        fixture = try SyncFixture()
    }

    static func configuration(path: String, server: String) -> Realm.Configuration {
        var configuration = Realm.Configuration(fileURL: URL(fileURLWithPath: path), objectTypes: [SyncedTask.self])
        configuration.syncConfiguration = SyncConfiguration(server: server,
                                                            initialSubscriptions: { $0.append(QuerySubscription<SyncedTask>()) })
        return configuration
    }

    /// Opens `name` synced, waits until it holds everything the server has, and returns its tasks.
    func syncedTasks(_ name: String) throws -> [String: String] {
        let configuration = Self.configuration(path: directory.file(name).path, server: server.connectionString)
        fixture.track(configuration)
        let realm = try Realm(configuration: configuration)
        try realm.syncSession!.waitUntilSynced(timeout: 60)
        realm.refresh()
        return Dictionary(uniqueKeysWithValues: realm.objects(SyncedTask.self).map { ($0.id, "\($0.title)|\($0.priority)") })
    }

    func serverTasks() throws -> [String: String] {
        let rows = try PostgresConnection(server.connectionString).execute("SELECT id, title, priority FROM \"SyncedTask\"")
        return Dictionary(uniqueKeysWithValues: (0..<rows.rowCount).map { (rows[$0, 0]!, "\(rows[$0, 1]!)|\(rows[$0, 2]!)") })
    }

    func changesAppliedTwice() throws -> Int {
        let rows = try PostgresConnection(server.connectionString).execute("""
            SELECT count(*) FROM (SELECT pk FROM burrow.changes WHERE kind = 'create' GROUP BY class, pk HAVING count(*) > 1) twice
            """)
        return Int(rows[0, 0]!)!
    }

    @Test func threeProcessesWritingAtOnceConverge() async throws {
        let url = server.connectionString
        await withTaskGroup(of: Void.self) { group in
            for client in 0..<3 {
                let path = directory.file("client\(client).realm").path
                group.addTask {
                    await #expect(processExitsWith: .success) { [path = path as String, url = url as String, client = client as Int] in
                        let realm = try! Realm(configuration: SyncProcessTests.configuration(path: path, server: url))
                        for index in 0..<20 {
                            try! realm.write {
                                realm.create(SyncedTask.self, value: ["id": "c\(client)-\(index)", "title": "by \(client)", "priority": index])
                                realm.create(SyncedTask.self, value: ["id": "shared", "title": "by \(client)", "priority": index],
                                             update: .modified)
                            }
                        }
                        try! realm.syncSession!.waitUntilSynced(timeout: 60)
                    }
                }
            }
        }
        let expected = try serverTasks()
        #expect(expected.count == 61)
        for client in 0..<3 {
            let tasks = try syncedTasks("client\(client).realm")
            #expect(tasks == expected, "client \(client) differs from the server: \(Set(tasks.map { "\($0.key)=\($0.value)" }).symmetricDifference(expected.map { "\($0.key)=\($0.value)" }).sorted())")
        }
        #expect(try syncedTasks("late.realm") == expected)
        #expect(try changesAppliedTwice() == 0)
    }

    @Test func aClientKilledDuringUploadLosesNothingAndUploadsNothingTwice() async throws {
        let path = directory.file("killed.realm").path
        let url = server.connectionString
        let rounds = 100
        for round in 0..<rounds {
            await #expect(processExitsWith: .signal(SIGKILL)) { [path = path as String, url = url as String, round = round as Int] in
                let realm = try! Realm(configuration: SyncProcessTests.configuration(path: path, server: url))
                Thread {
                    usleep(useconds_t.random(in: 20_000...150_000))
                    kill(getpid(), SIGKILL)
                }.start()
                var index = 0
                while true {
                    try! realm.write {
                        realm.create(SyncedTask.self, value: ["id": "r\(round)-\(index)", "title": "round \(round)", "priority": index])
                    }
                    index += 1
                    usleep(1_000)
                }
            }
        }
        let local = try syncedTasks("killed.realm")
        #expect(local.count > rounds, "the killed clients committed too little to test anything")
        #expect(try serverTasks() == local)
        #expect(try changesAppliedTwice() == 0)
        fixture.stopSessions()
        expectIntact(directory.file("killed.realm"), encryptionKey: nil)
        print("sync upload killed \(rounds) times: \(local.count) objects committed, all on the server once")
    }

    @Test func aClientKilledDuringDownloadEndsWithEverythingOnce() async throws {
        let path = directory.file("downloader.realm").path
        let url = server.connectionString
        let writing = Self.configuration(path: directory.file("writer.realm").path, server: url)
        fixture.track(writing)
        let rounds = 100
        for round in 0..<rounds {
            // The writer is opened anew each round: a realm stays on its thread, and an await
            // may resume on another.
            try {
                let writer = try Realm(configuration: writing)
                try writer.write {
                    for index in 0..<100 {
                        writer.create(SyncedTask.self, value: ["id": "w\(round)-\(index)", "title": "round \(round)", "priority": index])
                    }
                    if round > 0 { writer.object(ofType: SyncedTask.self, forPrimaryKey: "w\(round - 1)-0")!.priority = -round }
                }
                try writer.syncSession!.waitUntilUploaded(timeout: 60)
            }()
            await #expect(processExitsWith: .signal(SIGKILL)) { [path = path as String, url = url as String] in
                _ = try! Realm(configuration: SyncProcessTests.configuration(path: path, server: url))
                usleep(useconds_t.random(in: 5_000...60_000))
                kill(getpid(), SIGKILL)
            }
        }
        let local = try syncedTasks("downloader.realm")
        #expect(local.count == rounds * 100)
        #expect(try serverTasks() == local)
        fixture.stopSessions()
        expectIntact(directory.file("downloader.realm"), encryptionKey: nil)
    }
}
