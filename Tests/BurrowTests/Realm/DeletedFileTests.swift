import Burrow
import Foundation
import Testing

/// A file deleted from under an open realm: the realm goes on reading what it read, and a write
/// fails instead of appearing to succeed, since nothing would keep it once the realm closes. A
/// file renamed while open keeps what is written to it.
@Suite struct DeletedFileTests {
    let directory = TestDirectory()

    @Test func aWriteToADeletedFileThrowsAndKeepsNothing() throws {
        let configuration = directory.configuration(objectTypes: [Dog.self])
        let url = try #require(configuration.fileURL)
        do {
            let realm = try Realm(configuration: configuration)
            try realm.write { realm.add(Dog(value: ["name": "Rex"])) }
            try FileManager.default.removeItem(at: url)
            #expect(realm.objects(Dog.self).first?.name == "Rex")
            do {
                try realm.write { realm.add(Dog(value: ["name": "Lost"])) }
                Issue.record("a write to a deleted file succeeded")
            } catch let error as Realm.Error {
                #expect(error.code == .fileNotFound)
                #expect(error.localizedDescription.contains("was deleted while the realm had it open"))
            }
            #expect(realm.objects(Dog.self).count == 1)
            #expect(!realm.isInWriteTransaction)
        }
        // Opened again, the path holds a new file, which takes writes.
        let realm = try Realm(configuration: configuration)
        #expect(realm.isEmpty)
        try realm.write { realm.add(Dog(value: ["name": "Max"])) }
        #expect(realm.objects(Dog.self).count == 1)
    }

    @Test func aFileRenamedWhileOpenKeepsItsWrites() throws {
        let configuration = directory.configuration(objectTypes: [Dog.self])
        let url = try #require(configuration.fileURL)
        let moved = directory.configuration("moved.realm").fileURL!
        do {
            let realm = try Realm(configuration: configuration)
            try realm.write { realm.add(Dog(value: ["name": "Rex"])) }
            try FileManager.default.moveItem(at: url, to: moved)
            try FileManager.default.moveItem(at: URL(fileURLWithPath: url.path + "-lock"), to: URL(fileURLWithPath: moved.path + "-lock"))
            try realm.write { realm.add(Dog(value: ["name": "Max"])) }
        }
        let realm = try Realm(configuration: directory.configuration("moved.realm", objectTypes: [Dog.self]))
        #expect(realm.objects(Dog.self).map(\.name).sorted() == ["Max", "Rex"])
    }
}
