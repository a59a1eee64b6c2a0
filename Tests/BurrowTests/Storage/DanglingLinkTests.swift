import Burrow
import Foundation
import Testing

/// Deleting an object clears every link to it, so a link or a backlink entry that names no
/// object is damage: reading it stops with a message that says so and names the file, the
/// link and the object, instead of reading `nil` or "Object has been deleted or invalidated.".
@Suite struct DanglingLinkTests {
    let directory = TestDirectory()

    /// A puppy whose owner's row is gone, its link and backlink entry left behind.
    private func fileWithADanglingLink() throws -> String {
        let realm = try directory.realm()
        try realm.write {
            let owner = realm.create(Owner.self, value: ["id": 7, "name": "Ana"])
            realm.create(Puppy.self, value: ["name": "Rex", "owner": owner])
            realm.create(Owner.self, value: ["id": 8, "name": "Bo"])
        }
        try realm.write {
            try realm.internals.deleteRowOnly(of: realm.object(ofType: Owner.self, forPrimaryKey: 7)!)
        }
        return directory.file().path
    }

    @Test func aToOneLinkToNoObjectIsReportedAsDamage() async throws {
        let path = try fileWithADanglingLink()
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) { [path = path as String] in
            var configuration = Realm.Configuration(fileURL: URL(fileURLWithPath: path))
            configuration.encryptionKey = TestDirectory.suiteKey
            let realm = try Realm(configuration: configuration)
            _ = realm.objects(Puppy.self).first!.owner
        }
        expectMessage(result, "The file is damaged: 'Puppy.owner' of object")
        expectMessage(result, "links to object")
        expectMessage(result, "of 'Owner', which cannot be found in '\(path)'")
    }

    @Test func aBacklinkToNoObjectIsReportedAsDamage() async throws {
        let realm = try directory.realm()
        try realm.write {
            let owner = realm.create(Owner.self, value: ["id": 7, "name": "Ana"])
            realm.create(Puppy.self, value: ["name": "Rex", "owner": owner])
        }
        try realm.write {
            try realm.internals.deleteRowOnly(of: realm.objects(Puppy.self).first!)
        }
        let path = directory.file().path
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) { [path = path as String] in
            var configuration = Realm.Configuration(fileURL: URL(fileURLWithPath: path))
            configuration.encryptionKey = TestDirectory.suiteKey
            let realm = try Realm(configuration: configuration)
            let puppies = realm.object(ofType: Owner.self, forPrimaryKey: 7)!.puppies
            _ = puppies[0]
        }
        expectMessage(result, "The file is damaged: the backlink index of object")
        expectMessage(result, "of 'Owner' links to object")
        expectMessage(result, "of 'Puppy', which cannot be found")
    }
}
