import Burrow
import Foundation
import LMDB
import TemporaryPostgres
import Testing

/// Progress notifications report uploads and downloads as they go, and subscriptions choose
/// what a file downloads.
@Suite(.enabled(if: TemporaryPostgres.isAvailable, "\(TemporaryPostgres.unavailableReason ?? "")"), .serialized,
       .plainFilesOnly("the server sees values, not files: encryption is covered by the local tests"))
final class SyncProgressTests {
    let fixture: SyncFixture
    var server: TemporaryPostgres { fixture.server }
    var directory: TestDirectory { fixture.directory }

    init() throws {
        fixture = try SyncFixture()
    }

    func configuration(_ name: String, subscribe: Bool = true) -> Realm.Configuration {
        fixture.configuration(name, objectTypes: [SyncedTask.self]) { if subscribe { $0.append(QuerySubscription<SyncedTask>()) } }
    }

    /// Waits until `condition` holds, at most `seconds`.
    func eventually(_ seconds: Double = 30, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while !condition() {
            if Date() > deadline { return false }
            usleep(10_000)
        }
        return true
    }

    func createTasks(_ realm: Realm, count: Int, prefix: String) throws {
        try realm.write {
            for index in 0..<count { realm.create(SyncedTask.self, value: ["id": "\(prefix)\(index)", "title": "task \(index)"]) }
        }
    }

    @Test func uploadProgressCountsTheWorkOutstandingAndThenStops() throws {
        let realm = try Realm(configuration: configuration("a"))
        let session = realm.syncSession!
        try session.waitUntilSynced()
        session.pause()
        try createTasks(realm, count: 12_000, prefix: "u")
        let reports = Locked<[SyncSession.Progress]>([])
        let token = session.addProgressNotification(for: .upload, mode: .forCurrentlyOutstandingWork) { progress in
            reports.withLock { $0.append(progress) }
        }
        #expect(token != nil)
        session.resume()
        #expect(eventually { reports.withLock { $0.last?.isTransferComplete == true } }, "the upload never completed")
        let seen = reports.withLock { $0 }
        // Batches of 5,000 objects: two reports before the end, each further along.
        #expect(seen.count >= 3, "\(seen)")
        #expect(zip(seen, seen.dropFirst()).allSatisfy { $0.progressEstimate <= $1.progressEstimate && $0.transferredBytes <= $1.transferredBytes })
        #expect(seen.dropLast().allSatisfy { !$0.isTransferComplete && $0.progressEstimate < 1 })
        #expect(seen.contains { abs($0.progressEstimate - 5_000.0 / 12_000) < 0.001 })
        let last = seen.last!
        #expect(last.progressEstimate == 1 && last.fractionTransferred == 1)
        #expect(last.transferredBytes > 12_000 * 20 && last.transferrableBytes == last.transferredBytes)
        // The work it was added for is done: later uploads do not call it.
        try createTasks(realm, count: 10, prefix: "later")
        try session.waitUntilSynced()
        #expect(reports.withLock { $0.count } == seen.count)
        token?.invalidate()
    }

    @Test func downloadProgressReportsEachPageUntilTokenIsInvalidated() throws {
        let writer = try Realm(configuration: configuration("writer"))
        let reader = try Realm(configuration: configuration("reader"))
        // Past the first download, which reads the server's tables instead of its changes.
        try createTasks(writer, count: 1, prefix: "first")
        try writer.syncSession!.waitUntilSynced()
        try reader.syncSession!.waitUntilSynced()
        let reports = Locked<[SyncSession.Progress]>([])
        let token = reader.syncSession!.addProgressNotification(for: .download, mode: .reportIndefinitely) { progress in
            reports.withLock { $0.append(progress) }
        }
        try createTasks(writer, count: 3_000, prefix: "d")
        try writer.syncSession!.waitUntilSynced()
        #expect(eventually { reports.withLock { $0.last.map { $0.isTransferComplete && $0.transferredBytes > 3_000 * 20 } ?? false } })
        let seen = reports.withLock { $0 }
        // Pages of 1,000 changes.
        #expect(seen.contains { abs($0.progressEstimate - 1.0 / 3) < 0.001 } && seen.contains { abs($0.progressEstimate - 2.0 / 3) < 0.001 },
                "\(seen.map(\.progressEstimate))")
        token!.invalidate()
        try createTasks(writer, count: 5, prefix: "after")
        try writer.syncSession!.waitUntilSynced()
        try reader.syncSession!.waitUntilSynced()
        reader.refresh()
        #expect(reader.objects(SyncedTask.self).count == 3_006)
        #expect(reports.withLock { $0.count } == seen.count, "an invalidated token was called")
    }

    @Test func asyncOpenDeliversASyncedRealmOnceTheServersDataIsDownloaded() throws {
        let writer = try Realm(configuration: configuration("writer"))
        try createTasks(writer, count: 3_000, prefix: "s")
        try writer.syncSession!.waitUntilSynced()
        let queue = DispatchQueue(label: "callback")
        let delivered = DispatchSemaphore(value: 0)
        let count = Locked(-1)
        let reports = Locked<[SyncSession.Progress]>([])
        let task = Realm.asyncOpen(configuration: configuration("fresh"), callbackQueue: queue) { result in
            count.withLock { $0 = (try? result.get())?.objects(SyncedTask.self).count ?? -2 }
            delivered.signal()
        }
        task.addProgressNotification(queue: queue) { progress in
            dispatchPrecondition(condition: .onQueue(queue))
            reports.withLock { $0.append(progress) }
        }
        #expect(delivered.wait(timeout: .now() + 60) == .success)
        #expect(count.withLock { $0 } == 3_000, "the callback ran before the download")
        let seen = reports.withLock { $0 }
        #expect(zip(seen, seen.dropFirst()).allSatisfy { $0.progressEstimate <= $1.progressEstimate }, "\(seen)")
        #expect(seen.isEmpty || seen.last!.isTransferComplete, "\(seen)")
    }

    @Test func aStoppedSessionTakesNoProgressNotification() throws {
        let configuration = configuration("stopped")
        // The realm is let go at once: the session outlives it.
        let session: SyncSession? = try { try Realm(configuration: configuration).syncSession }()
        configuration.stopSyncSession()
        #expect(session?.state == .inactive)
        #expect(session?.addProgressNotification(for: .upload, mode: .reportIndefinitely) { _ in } == nil)
    }

    @Test func subscriptionsChooseWhatAFileDownloads() throws {
        let writer = try Realm(configuration: configuration("writer"))
        let reader = try Realm(configuration: configuration("reader", subscribe: false))
        let subscriptions = reader.subscriptions
        #expect(subscriptions.count == 0)
        try createTasks(writer, count: 3, prefix: "before")
        try writer.syncSession!.waitUntilSynced()
        try reader.syncSession!.waitUntilSynced()
        reader.refresh()
        #expect(reader.objects(SyncedTask.self).isEmpty, "a class without a subscription was downloaded")

        // Subscribing downloads what the server has of the class, then follows its changes.
        subscriptions.update {
            subscriptions.append(QuerySubscription<SyncedTask>())
            subscriptions.append(QuerySubscription<SyncedTask>())
        }
        #expect(subscriptions.count == 1)
        try writer.write { writer.object(ofType: SyncedTask.self, forPrimaryKey: "before0")!.title = "changed" }
        try createTasks(writer, count: 2, prefix: "subscribed")
        try writer.syncSession!.waitUntilSynced()
        try reader.syncSession!.waitUntilSynced()
        reader.refresh()
        #expect(Set(reader.objects(SyncedTask.self).map(\.id)) == ["before0", "before1", "before2", "subscribed0", "subscribed1"])
        #expect(reader.object(ofType: SyncedTask.self, forPrimaryKey: "before0")?.title == "changed")

        // Unsubscribing removes the class's objects here, but one with a change to upload,
        // and leaves the server's alone.
        reader.syncSession!.pause()
        try reader.write { reader.object(ofType: SyncedTask.self, forPrimaryKey: "before1")!.priority = 7 }
        subscriptions.update { subscriptions.removeAll(ofType: SyncedTask.self) }
        #expect(subscriptions.count == 0)
        reader.syncSession!.resume()
        try createTasks(writer, count: 2, prefix: "unsubscribed")
        try writer.syncSession!.waitUntilSynced()
        try reader.syncSession!.waitUntilSynced()
        reader.refresh()
        #expect(reader.object(ofType: SyncedTask.self, forPrimaryKey: "unsubscribed0") == nil)
        // The change went up before the object could go: the upload runs before the download.
        #expect(reader.objects(SyncedTask.self).count <= 1)
        try writer.syncSession!.waitUntilSynced()
        writer.refresh()
        #expect(writer.objects(SyncedTask.self).count == 7)
        #expect(writer.object(ofType: SyncedTask.self, forPrimaryKey: "before1")?.priority == 7)
    }
}
