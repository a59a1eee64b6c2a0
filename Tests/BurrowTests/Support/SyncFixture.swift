import Burrow
import Foundation
import TemporaryPostgres

/// A sync test's world: a PostgreSQL server of its own, a folder for its files, and the synced
/// configurations opened in it, whose sessions stop before the server and the folder go (the
/// folder checks that no realm is left open).
final class SyncFixture {
    let server: TemporaryPostgres
    let directory = TestDirectory()
    private var configurations: [Realm.Configuration] = []

    init() throws {
        server = try TemporaryPostgres.start()
    }

    deinit {
        stopSessions()
        server.stop()
    }

    /// The file `name` of the folder, synced with the server: `objectTypes`, subscribed to as
    /// `subscriptions` says; errors are printed.
    func configuration(_ name: String, objectTypes: [ObjectBase.Type],
                       subscriptions: @escaping @Sendable (SyncSubscriptionSet) -> Void) -> Realm.Configuration {
        var configuration = Realm.Configuration(fileURL: directory.url.appendingPathComponent("\(name).realm"), objectTypes: objectTypes)
        configuration.syncConfiguration = SyncConfiguration(server: server.connectionString, initialSubscriptions: subscriptions,
                                                            errorHandler: { error, _ in print("sync error: \(error)") })
        return track(configuration)
    }

    /// Stops `configuration`'s session with the others; returns it.
    @discardableResult
    func track(_ configuration: Realm.Configuration) -> Realm.Configuration {
        configurations.append(configuration)
        return configuration
    }

    func stopSessions() {
        for configuration in configurations { configuration.stopSyncSession() }
    }

    /// Syncs each of `realms` in turn, twice: the second round brings each what the others
    /// uploaded after it last pulled.
    func converge(_ realms: [Realm], timeout: Double = 30) throws {
        for _ in 0..<2 {
            for realm in realms {
                try realm.syncSession!.waitUntilSynced(timeout: timeout)
                realm.refresh()
            }
        }
    }
}
