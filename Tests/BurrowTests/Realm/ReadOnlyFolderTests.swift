import Burrow
import Foundation
import Testing

/// A read-only realm on a disk nothing can write to (a read-only mount, a shipped data folder):
/// LMDB cannot make or write its lock file there, so it reads without one.
@Suite(.enabled(if: SmallDisk.canMount, "needs root and a system that lets it mount a small tmpfs"), .serialized)
struct ReadOnlyFolderTests {
    @Test func aReadOnlyRealmOpensOnAReadOnlyDisk() throws {
        let directory = TestDirectory()
        let disk = try SmallDisk(in: directory, megabytes: 8)
        let file = disk.url.appendingPathComponent("data.realm")
        do {
            let realm = try Realm(fileURL: file)
            try realm.write { for id in 0..<3 { realm.add(Person(value: ["id": id, "name": "p\(id)"])) } }
        }
        unlink(file.path + "-lock")
        try disk.remountReadOnly()
        let realm = try Realm(configuration: Realm.Configuration(fileURL: file, readOnly: true))
        #expect(realm.objects(Person.self).sorted(byKeyPath: "id").map(\.name) == ["p0", "p1", "p2"])
        #expect(realm.object(ofType: Person.self, forPrimaryKey: 1)?.name == "p1")
        #expect(!FileManager.default.fileExists(atPath: file.path + "-lock"))
        // A realm that would write there is refused with an error, not a crash.
        #expect(throws: Realm.Error.self) { _ = try Realm(fileURL: disk.url.appendingPathComponent("new.realm")) }
    }

    /// A folder the process may read but not write: `setfsuid` makes this thread's file access
    /// that of `nobody` (dropping root's override of permissions) for the opens only.
    @Test func aReadOnlyRealmOpensInAFolderItCannotWrite() throws {
        let directory = TestDirectory()
        let folder = directory.url.appendingPathComponent("shipped", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("data.realm")
        do {
            let realm = try Realm(fileURL: file)
            try realm.write { for id in 0..<3 { realm.add(Person(value: ["id": id, "name": "p\(id)"])) } }
        }
        unlink(file.path + "-lock")
        chmod(file.path, 0o444)
        chmod(folder.path, 0o555)
        defer { chmod(folder.path, 0o755) }
        let setfsuid = unsafeBitCast(dlsym(nil, "setfsuid"), to: (@convention(c) (UInt32) -> Int32).self)
        _ = setfsuid(65534)
        let names: [String]
        let refused: Bool
        do {
            defer { _ = setfsuid(0) }
            let realm = try Realm(configuration: Realm.Configuration(fileURL: file, readOnly: true))
            names = realm.objects(Person.self).sorted(byKeyPath: "id").map(\.name)
            refused = (try? Realm(fileURL: folder.appendingPathComponent("new.realm"))) == nil
        }
        #expect(names == ["p0", "p1", "p2"])
        #expect(refused)
        #expect(!FileManager.default.fileExists(atPath: file.path + "-lock"))
    }
}
