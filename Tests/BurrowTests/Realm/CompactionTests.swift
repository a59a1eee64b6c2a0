import Burrow
import Foundation
import Testing

/// `shouldCompactOnLaunch`: asked once per process, with the file's real figures.
@Suite struct CompactionTests {
    let directory = TestDirectory()

    /// A file of 3,000 people of which 10 remain, closed again.
    private func fileWithMostObjectsDeleted() throws -> Int {
        let realm = try directory.realm()
        try realm.write {
            for id in 0..<3000 { realm.add(Person(value: ["id": id, "name": String(repeating: "n", count: 300)])) }
        }
        try realm.write { realm.delete(realm.objects(Person.self).filter("id >= 10")) }
        return try fileSize(directory.file())
    }

    @Test func theFileIsCompactedAtTheFirstOpenWhenAsked() throws {
        let before = try fileWithMostObjectsDeleted()
        let asked = LockedValue<[(Int, Int)]>([])
        var configuration = directory.configuration()
        configuration.shouldCompactOnLaunch = { total, used in
            asked.set(asked.value + [(total, used)])
            return true
        }
        let realm = try Realm(configuration: configuration)
        let figures = try #require(asked.value.first)
        #expect(figures.0 == before && figures.1 > 0 && figures.1 < before / 4)
        #expect(try fileSize(directory.file()) < before / 4)
        #expect(realm.objects(Person.self).count == 10)
        #expect(realm.object(ofType: Person.self, forPrimaryKey: 9)?.name.count == 300)
        try realm.write { realm.add(Person(value: ["id": 50])) }
        // Open already in this process: not asked again.
        onAnotherThread { [configuration] in _ = try! Realm(configuration: configuration).objects(Person.self).count }
        #expect(asked.value.count == 1 && realm.objects(Person.self).count == 11)
    }

    @Test func aNoLeavesTheFileAsItIs() throws {
        let before = try fileWithMostObjectsDeleted()
        let inode = try FileManager.default.attributesOfItem(atPath: directory.file().path)[.systemFileNumber] as? Int
        var configuration = directory.configuration()
        configuration.shouldCompactOnLaunch = { _, _ in false }
        let realm = try Realm(configuration: configuration)
        #expect(realm.objects(Person.self).count == 10)
        #expect(try fileSize(directory.file()) == before)
        #expect(try FileManager.default.attributesOfItem(atPath: directory.file().path)[.systemFileNumber] as? Int == inode)
    }

    @Test(.plainFilesOnly("its child process opens the file with a configuration of its own")) func aFileAnotherProcessHasOpenIsNotCompacted() async throws {
        let before = try fileWithMostObjectsDeleted()
        let path = directory.file().path
        // This process keeps the file open on one thread while the child opens it.
        let holder = ConfinedThread()
        defer { holder.stop() }
        var held: Results<Person>?
        try holder.run { held = try Realm(fileURL: URL(fileURLWithPath: path)).objects(Person.self) }
        await #expect(processExitsWith: .success) { [path = path as String, before = before as Int] in
            var configuration = Realm.Configuration(fileURL: URL(fileURLWithPath: path))
            configuration.shouldCompactOnLaunch = { _, _ in true }
            let realm = try! Realm(configuration: configuration)
            let size = try! FileManager.default.attributesOfItem(atPath: path)[.size] as! Int
            precondition(size == before, "the file was compacted under another process")
            precondition(realm.objects(Person.self).count == 10)
            try! realm.write { realm.add(Person(value: ["id": 60])) }
        }
        try holder.run {
            let realm = try Realm(fileURL: URL(fileURLWithPath: path))
            realm.refresh()
            #expect(realm.objects(Person.self).count == 11 && held?.count == 11)
            held = nil
        }
    }
}
