import Burrow
import Foundation
import Testing

/// The map grows as the file does, many times over.
@Suite struct MapGrowthTests {
    private func configuration(_ directory: TestDirectory) -> Realm.Configuration {
        var configuration = directory.configuration()
        configuration.internals.initialMapSize = 4 << 20
        return configuration
    }

    /// 256 writes of 256 KB each into a map that starts at 4 MiB.
    @Test func theMapGrowsManyTimesAndEveryCommitStays() throws {
        let directory = TestDirectory()
        let realm = try Realm(configuration: configuration(directory))
        let start = realm.internals.environment.mapSize
        let blob = Data(repeating: 0x5A, count: 256 * 1024)
        for id in 0..<256 {
            try realm.write { realm.add(Person(value: ["id": id, "picture": blob])) }
        }
        let grown = realm.internals.environment.mapSize
        print("map growth: \(start >> 20) MiB grew to \(grown >> 20) MiB over 64 MB of commits")
        #expect(grown >= 64 << 20)
        #expect(realm.objects(Person.self).count == 256)
        #expect(realm.objects(Person.self).allSatisfy { $0.picture == blob })
    }
}

@Suite struct ProcessMapGrowthTests {
    /// In a child process: a realm of the file at `path`, its map starting at 4 MiB, commits a
    /// person with a 256 KB picture for each of `ids`.
    static func grow(_ path: String, ids: Range<Int>, maximumFileSize: Int? = nil) {
        var configuration = Realm.Configuration(fileURL: URL(fileURLWithPath: path))
        configuration.internals.initialMapSize = 4 << 20
        configuration.maximumFileSize = maximumFileSize
        let child = try! Realm(configuration: configuration)
        let blob = Data(repeating: 0x33, count: 256 * 1024)
        for id in ids { try! child.write { child.add(Person(value: ["id": id, "picture": blob])) } }
    }

    /// A child process grows the map far past this process's; this process, whose only realm
    /// is the one refreshing, adopts the larger map (LMDB's MDB_MAP_RESIZED) and goes on.
    @MainActor @Test(.plainFilesOnly("its child process opens the file with a configuration of its own")) func anotherProcesssGrowthIsPickedUp() async throws {
        let directory = TestDirectory()
        var configuration = directory.configuration()
        configuration.internals.initialMapSize = 4 << 20
        // Isolated to the main actor: the test resumes on other threads after awaiting the child.
        let realm = try await Realm.open(configuration: configuration)
        try realm.write { realm.add(Person(value: ["id": -1])) }
        #expect(realm.internals.environment.mapSize == 4 << 20)
        await #expect(processExitsWith: .success) { [path = directory.file().path as String] in
            Self.grow(path, ids: 0..<128)
        }
        realm.refresh()
        #expect(realm.internals.environment.mapSize > 4 << 20)
        #expect(realm.objects(Person.self).count == 129)
        try realm.write { realm.add(Person(value: ["id": 1_000, "picture": Data(repeating: 1, count: 1 << 20)])) }
        #expect(realm.objects(Person.self).filter("id >= 0").allSatisfy { $0.picture?.count ?? 0 >= 256 * 1024 })
    }

    /// Another process grows the file past this process's map while a frozen realm holds a
    /// snapshot, so LMDB cannot map it larger: the live realm stays whole at its version, a
    /// write throws and changes nothing, and once the frozen realm is gone everything is seen.
    @MainActor @Test(.plainFilesOnly("its child process opens the file with a configuration of its own")) func growthPastTheMapWaitsForOtherSnapshots() async throws {
        let directory = TestDirectory()
        var configuration = directory.configuration()
        configuration.internals.initialMapSize = 4 << 20
        let realm = try await Realm.open(configuration: configuration)
        try realm.write { realm.add(Person(value: ["id": -1, "name": "before"])) }
        var frozen: Realm? = realm.freeze()
        let person = try #require(realm.objects(Person.self).first)
        // Near the end of the map, the refresh takes its new snapshot beside the old one.
        await #expect(processExitsWith: .success) { [path = directory.file().path as String] in
            Self.grow(path, ids: 0..<11, maximumFileSize: 4 << 20)
        }
        let fill = realm.internals.environment.mapFill
        #expect(fill > 0.75 && fill <= 1, "the map is \(fill) full")
        #expect(realm.refresh())
        #expect(realm.objects(Person.self).count == 12)
        // Past its end, the realm stays where it is.
        await #expect(processExitsWith: .success) { [path = directory.file().path as String] in
            Self.grow(path, ids: 11..<128)
        }
        #expect(!realm.refresh())
        #expect(realm.objects(Person.self).count == 12)
        #expect(person.name == "before")
        let error = try #require(throws: Realm.Error.self) { try realm.write { realm.add(Person(value: ["id": 5_000])) } }
        #expect(error.code == .addressSpaceExhausted)
        #expect(error.message.contains("frozen realms"))
        #expect(!realm.isInWriteTransaction)
        #expect(frozen?.objects(Person.self).count == 1)
        frozen = nil
        #expect(realm.refresh())
        #expect(realm.objects(Person.self).count == 129)
        #expect(person.name == "before")
        try realm.write { person.name = "after" }
        #expect(realm.objects(Person.self).filter("name == 'after'").count == 1)
    }
}
