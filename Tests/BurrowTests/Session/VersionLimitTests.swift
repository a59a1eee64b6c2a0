import Burrow
import Foundation
import Testing

/// A reader that is never refreshed keeps every version after its own: the file grows behind
/// it. `maximumNumberOfActiveVersions` bounds how many versions the file keeps.
@Suite struct VersionLimitTests {
    private func fileSize(_ url: URL) -> Int {
        (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? 0
    }

    /// Commits up to `commits` small writes while a realm on another thread stays at its first
    /// version; returns how many committed and the file's size after.
    private func writeBehindAStaleReader(_ directory: TestDirectory, limit: UInt?, commits: Int) throws -> (committed: Int, bytes: Int, error: Realm.Error?) {
        var configuration = directory.configuration()
        configuration.maximumNumberOfActiveVersions = limit
        let stale = ConfinedThread()
        defer { stale.stop() }
        try stale.run { _ = try Realm(configuration: configuration).objects(Person.self).count }
        let holder = try stale.run { try Realm(configuration: configuration) }
        let realm = try Realm(configuration: configuration)
        var committed = 0
        var failure: Realm.Error?
        let payload = String(repeating: "x", count: 2_000)
        for id in 0..<commits {
            do {
                try realm.write { realm.add(Person(value: ["id": id, "name": payload]), update: .all) }
                committed += 1
            } catch let error as Realm.Error {
                failure = error
                break
            }
        }
        try stale.run { withExtendedLifetime(holder) {} }
        return (committed, fileSize(directory.file()), failure)
    }

    @Test func aStaleReaderMakesTheFileGrowWithoutALimit() throws {
        let directory = TestDirectory()
        let (committed, bytes, failure) = try writeBehindAStaleReader(directory, limit: nil, commits: 1_500)
        #expect(failure == nil)
        #expect(committed == 1_500)
        print("version limit: without a limit, 1,500 commits behind a stale reader grew the file to \(bytes) bytes")
        #expect(bytes > 4_000_000)
    }

    @Test func theLimitStopsTheGrowthAndNamesTheReader() throws {
        let directory = TestDirectory()
        let (committed, bytes, failure) = try writeBehindAStaleReader(directory, limit: 100, commits: 1_500)
        let error = try #require(failure)
        #expect(error.code == .limitExceeded)
        #expect(error.localizedDescription.contains("maximumNumberOfActiveVersions (100)"))
        #expect(error.localizedDescription.contains("a realm not refreshed on thread"))
        #expect(committed < 100)
        print("version limit: with a limit of 100, \(committed) commits went through, the file stayed at \(bytes) bytes")
        #expect(bytes < 5_000_000)
        // Every commit before the refused one is intact.
        let realm = try Realm(configuration: directory.configuration())
        #expect(realm.objects(Person.self).count == committed)
    }

    @Test func writingWorksAgainOnceTheReaderMovesOn() throws {
        let directory = TestDirectory()
        var configuration = directory.configuration()
        configuration.maximumNumberOfActiveVersions = 5
        let realm = try Realm(configuration: configuration)
        var frozen: Realm? = realm.freeze()
        for id in 0..<3 { try realm.write { realm.add(Person(value: ["id": id])) } }
        #expect(throws: Realm.Error.self) {
            for id in 3..<10 { try realm.write { realm.add(Person(value: ["id": id])) } }
        }
        do {
            try realm.write { realm.add(Person(value: ["id": 50])) }
            Issue.record("the write past the limit went through")
        } catch let error as Realm.Error {
            #expect(error.localizedDescription.contains("frozen values in this process"))
        }
        frozen = nil
        try realm.write { realm.add(Person(value: ["id": 60])) }
        #expect(realm.object(ofType: Person.self, forPrimaryKey: 60) != nil)
        _ = frozen
    }

    @Test func openingPastTheLimitThrows() throws {
        let directory = TestDirectory()
        let stale = ConfinedThread()
        defer { stale.stop() }
        let configuration = directory.configuration()
        let holder = try stale.run { () -> Realm in
            let realm = try Realm(configuration: configuration)
            _ = realm.objects(Person.self).count
            return realm
        }
        let writer = try Realm(configuration: configuration)
        for id in 0..<20 { try writer.write { writer.add(Person(value: ["id": id])) } }
        var limited = configuration
        limited.maximumNumberOfActiveVersions = 10
        // A thread with no realm of the file yet opens a new one, and is refused.
        onAnotherThread { [limited] in
            #expect(throws: Realm.Error.self) { _ = try Realm(configuration: limited) }
        }
        try stale.run { withExtendedLifetime(holder) {} }
    }
}
