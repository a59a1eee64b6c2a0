import Burrow
import Foundation
import TemporaryPostgres
import Testing

/// A file written without sync and a synced one: a local file holding objects is refused a
/// sync configuration (nothing would upload them), `writeCopy(configuration:)` converts it so
/// that every object uploads, and a synced file's copy for a local configuration keeps no sync
/// state.
@Suite(.enabled(if: TemporaryPostgres.isAvailable, "\(TemporaryPostgres.unavailableReason ?? "")"), .serialized,
       .plainFilesOnly("the server sees values, not files: encryption is covered by the local tests"))
final class SyncLocalFileTests {
    let fixture = try! SyncFixture()

    deinit {
        fixture.stopSessions()
    }

    func synced(_ name: String) -> Realm.Configuration {
        fixture.configuration(name, objectTypes: [SyncedTask.self]) { $0.append(QuerySubscription<SyncedTask>()) }
    }

    @Test func aLocalFileIsConvertedByACopyAndEveryObjectUploads() throws {
        let local = Realm.Configuration(fileURL: fixture.directory.url.appendingPathComponent("local.realm"), objectTypes: [SyncedTask.self])
        var asSynced = local
        asSynced.syncConfiguration = synced("unused").syncConfiguration
        fixture.track(asSynced)
        try {
            let realm = try Realm(configuration: local)
            try realm.write {
                for index in 0..<300 { realm.create(SyncedTask.self, value: ["id": "t\(index)", "title": "task \(index)", "priority": index]) }
            }
            // While this thread holds it open without sync, opening it for sync would not sync.
            #expect(throws: Realm.Error.self) { try Realm(configuration: asSynced) }
        }()

        // Opened for sync as it is, the file is refused: its objects would never upload.
        do {
            _ = try Realm(configuration: asSynced)
            Issue.record("a local file holding objects opened for sync")
        } catch let error as SyncError {
            #expect(error.code == .localFile && error.message.contains("300 of 'SyncedTask'"), "\(error)")
        }
        let realm = try Realm(configuration: local)

        let converted = synced("converted")
        try realm.writeCopy(configuration: converted)
        let uploader = try Realm(configuration: converted)
        #expect(uploader.objects(SyncedTask.self).count == 300)
        try uploader.syncSession!.waitUntilSynced()
        let other = try Realm(configuration: synced("other"))
        try other.syncSession!.waitUntilSynced()
        other.refresh()
        #expect(other.objects(SyncedTask.self).count == 300)
        #expect(other.object(ofType: SyncedTask.self, forPrimaryKey: "t299")?.title == "task 299")
        #expect(other.object(ofType: SyncedTask.self, forPrimaryKey: "t7")?.priority == 7)
        // The two synced files are two clients.
        let clients = try Set([converted, other.configuration].map { try #require(Realm.syncStatus(ofFileAt: $0.fileURL!)?.clientID) })
        #expect(clients.count == 2)

        // A synced file copied for a local configuration is a local file again.
        let backup = Realm.Configuration(fileURL: fixture.directory.url.appendingPathComponent("backup.realm"), objectTypes: [SyncedTask.self])
        try other.writeCopy(configuration: backup)
        #expect(try Realm.syncStatus(ofFileAt: backup.fileURL!) == nil)
        let restored = try Realm(configuration: backup)
        try restored.write { restored.create(SyncedTask.self, value: ["id": "local only"]) }
        let statusAfterWrite = try Realm.syncStatus(ofFileAt: backup.fileURL!)
        #expect(restored.objects(SyncedTask.self).count == 301 && statusAfterWrite == nil)
    }

    /// RealmSwift's `Realm.open(configuration:downloadBeforeOpen:)` and the actor initializer's.
    @MainActor @Test func anActorRealmOpensAfterItsDownload() async throws {
        let writer = try await Realm.open(configuration: synced("writer"))
        try writer.write {
            for index in 0..<50 { writer.create(SyncedTask.self, value: ["id": "a\(index)", "priority": index]) }
        }
        try await writer.syncSession!.wait(for: .upload)
        let reader = try await Realm.open(configuration: synced("reader"), downloadBeforeOpen: .always)
        #expect(reader.objects(SyncedTask.self).count == 50)
        let other = try await Realm(configuration: synced("other"), actor: MainActor.shared, downloadBeforeOpen: .once)
        #expect(other.object(ofType: SyncedTask.self, forPrimaryKey: "a49")?.priority == 49)
    }

    @Test func anEmptyLocalFileMaySync() throws {
        let configuration = synced("empty")
        // Made without sync first, with its tables and no object.
        var local = configuration
        local.syncConfiguration = nil
        _ = try Realm(configuration: local)
        let realm = try Realm(configuration: configuration)
        try realm.write { realm.create(SyncedTask.self, value: ["id": "first"]) }
        try realm.syncSession!.waitUntilUploaded()
        #expect(try Realm.syncStatus(ofFileAt: configuration.fileURL!)?.pendingObjects == 0)
    }
}
