import Burrow
import Foundation
import LMDB
import TemporaryPostgres
import Testing

/// A sync test's world: a PostgreSQL server of its own, a folder for its files, and the synced
/// configurations opened in it, whose sessions stop before the server and the folder go (the
/// folder checks that no realm is left open).
final class SyncFixture {
    let server: TemporaryPostgres
    let directory = TestDirectory()
    private var configurations: [Realm.Configuration] = []

    /// A fixture whose server runs in `networkNamespace`, when given.
    init(networkNamespace: String? = nil) throws {
        server = try TemporaryPostgres.start(networkNamespace: networkNamespace)
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

    /// Refreshes `realm` until `condition` holds, at most 20 s: the test writes nothing
    /// meanwhile, so what arrives came by itself.
    func eventually(_ realm: Realm, _ what: Comment, _ condition: () -> Bool) {
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            realm.refresh()
            if condition() { return }
            Thread.sleep(forTimeInterval: 0.02)
        }
        Issue.record(what)
    }

    /// Runs `sql` with `psql`, as a person or a backend job would.
    ///
    /// - Throws: ``PostgresToolFailure`` with `psql`'s error output when it fails.
    func psql(_ sql: String) throws {
        _ = try runTool("psql", [server.connectionString, "-v", "ON_ERROR_STOP=1", "-q", "-c", sql])
    }

    /// Runs the PostgreSQL program `name` with `arguments`; returns what it printed.
    ///
    /// - Throws: ``PostgresToolFailure`` with its error output when it fails.
    func runTool(_ name: String, _ arguments: [String]) throws -> String {
        let tool = Process()
        tool.executableURL = try TemporaryPostgres.binaries.get().appendingPathComponent(name)
        tool.arguments = arguments
        let errors = Pipe(), output = Pipe()
        tool.standardError = errors
        tool.standardOutput = output
        try tool.run()
        // Read both while it runs: a full pipe would stop it.
        let printed = Locked(Data())
        let reader = Thread { printed.withLock { $0 = output.fileHandleForReading.readDataToEndOfFile() } }
        reader.start()
        let failure = errors.fileHandleForReading.readDataToEndOfFile()
        tool.waitUntilExit()
        while !reader.isFinished { Thread.sleep(forTimeInterval: 0.001) }
        guard tool.terminationStatus == 0 else { throw PostgresToolFailure(message: String(decoding: failure, as: UTF8.self)) }
        return String(decoding: printed.withLock { $0 }, as: UTF8.self)
    }
}

/// A PostgreSQL program that failed, with what it said.
struct PostgresToolFailure: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
