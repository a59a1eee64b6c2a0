import Burrow
import Foundation
import Synchronization
import Testing

/// What code ported from RealmSwift calls that Linux lacks or RealmSwift spells differently:
/// `autoreleasepool`, and the configuration's initializer with every argument of RealmSwift's.
@Suite struct PortingShimTests {
    let directory = TestDirectory()

    private struct Refused: Error {}

    @Test func autoreleasepoolRunsItsBodyAndPassesOnItsResultAndErrors() throws {
        var ran = 0
        let value = autoreleasepool { () -> Int in
            ran += 1
            return 42
        }
        #expect(value == 42 && ran == 1)
        #expect(throws: Refused.self) { try autoreleasepool { throw Refused() } }
        // RealmSwift's getting-started shape: a write inside a pool.
        try autoreleasepool {
            let realm = try Realm(configuration: directory.configuration())
            try realm.write { realm.add(Dog(value: ["name": "Rex"])) }
        }
        #expect(try Realm(configuration: directory.configuration()).objects(Dog.self).count == 1)
    }

    @Test func theConfigurationTakesEveryArgumentOfRealmSwiftsInItsOrder() throws {
        let seed = directory.file("seed.realm")
        let asked = Mutex(false)
        let config = Realm.Configuration(fileURL: directory.file("app.realm"), inMemoryIdentifier: nil, syncConfiguration: nil,
                                         encryptionKey: directory.configuration().encryptionKey, readOnly: false, schemaVersion: 3, migrationBlock: nil,
                                         deleteRealmIfMigrationNeeded: false,
                                         shouldCompactOnLaunch: { _, _ in
                                             asked.withLock { $0 = true }
                                             return false
                                         },
                                         objectTypes: [Dog.self], seedFilePath: seed)
        #expect(config.schemaVersion == 3 && config.seedFilePath == seed && config.syncConfiguration == nil)
        #expect(config.shouldCompactOnLaunch?(10, 5) == false && asked.withLock { $0 })
        // The seed is copied in when the file does not exist yet.
        try autoreleasepool {
            let seeded = try Realm(configuration: directory.configuration("seed.realm", objectTypes: [Dog.self]))
            try seeded.write { seeded.add(Dog(value: ["name": "Seed"])) }
        }
        let realm = try Realm(configuration: config)
        #expect(realm.objects(Dog.self).map(\.name) == ["Seed"])
    }
}
