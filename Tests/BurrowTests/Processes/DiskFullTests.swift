import Burrow
import Foundation
import Testing

/// A small tmpfs of its own, mounted for one test and unmounted after it.
final class SmallDisk {
    let url: URL

    init(in directory: TestDirectory, megabytes: Int) throws {
        url = directory.url.appendingPathComponent("disk", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        try Self.run("/bin/mount", "-t", "tmpfs", "-o", "size=\(megabytes)m", "tmpfs", url.path)
    }

    deinit { try? Self.run("/bin/umount", "-l", url.path) }

    /// Fills the disk but for `spare` bytes.
    func fill(leaving spare: Int = 0) throws {
        var info = statvfs()
        statvfs(url.path, &info)
        let free = Int(info.f_bavail) * Int(info.f_frsize)
        let filler = url.appendingPathComponent("filler")
        _ = FileManager.default.createFile(atPath: filler.path, contents: nil)
        let handle = try FileHandle(forWritingTo: filler)
        defer { try? handle.close() }
        var left = free - spare
        let chunk = Data(repeating: 1, count: 64 * 1024)
        while left > 0 {
            do { try handle.write(contentsOf: chunk.prefix(min(left, chunk.count))) } catch { break }
            left -= chunk.count
        }
    }

    /// Frees the space `fill` took. The filler is emptied before it is removed: a child process
    /// that another test spawns meanwhile can inherit its descriptor, and an unlinked file
    /// keeps its blocks while any descriptor of it is open.
    func unfill() {
        let filler = url.appendingPathComponent("filler").path
        truncate(filler, 0)
        unlink(filler)
    }

    /// Makes the disk read-only: nothing can be written or created on it, by root neither.
    /// The kernel refuses ("busy") while any process holds a file on it open for writing, and a
    /// child that another test is starting holds a copy of this process's descriptors until
    /// it runs its program; so a refusal is tried again for a while.
    func remountReadOnly() throws {
        for _ in 0..<40 {
            if (try? Self.run("/bin/mount", "-o", "remount,ro", url.path)) != nil { return }
            usleep(50_000)
        }
        try Self.run("/bin/mount", "-o", "remount,ro", url.path)
    }

    private static func run(_ tool: String, _ arguments: String...) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw CocoaError(.fileWriteUnknown) }
    }

    /// Whether this process may mount a tmpfs: root, and a mount that works (a container may
    /// refuse it even to root).
    static let canMount: Bool = {
        guard getuid() == 0, FileManager.default.isExecutableFile(atPath: "/bin/mount") else { return false }
        let probe = FileManager.default.temporaryDirectory.appendingPathComponent("burrow-mount-probe-\(getpid())")
        defer { try? FileManager.default.removeItem(at: probe) }
        guard (try? FileManager.default.createDirectory(at: probe, withIntermediateDirectories: true)) != nil,
              (try? run("/bin/mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", probe.path)) != nil else { return false }
        try? run("/bin/umount", probe.path)
        return true
    }()
}

@Suite(.enabled(if: SmallDisk.canMount, "needs root and a system that lets it mount a small tmpfs"), .serialized)
struct DiskFullTests {
    let directory = TestDirectory()

    @Test func aWriteOnAFullDiskThrowsOutOfDiskSpaceAndLosesNothing() throws {
        let disk = try SmallDisk(in: directory, megabytes: 4)
        let configuration = Realm.Configuration(fileURL: disk.url.appendingPathComponent("full.realm"))
        let realm = try Realm(configuration: configuration)
        try realm.write { for id in 0..<10 { realm.add(Person(value: ["id": id, "name": "kept"])) } }
        try disk.fill()
        let blob = Data(repeating: 7, count: 32 * 1024)
        expectError(.outOfDiskSpace) {
            try realm.write { for id in 10..<200 { realm.add(Person(value: ["id": id, "picture": blob])) } }
        }
        #expect(!realm.isInWriteTransaction && realm.objects(Person.self).count == 10)
        disk.unfill()
        try realm.write { realm.add(Person(value: ["id": 10])) }
        #expect(realm.objects(Person.self).count == 11)
    }

    @Test func openingARealmOnAFullDiskThrows() async throws {
        let disk = try SmallDisk(in: directory, megabytes: 2)
        try disk.fill()
        let path = disk.url.appendingPathComponent("new.realm").path
        // In a child: a SIGBUS while mapping the lock file would end the process.
        await #expect(processExitsWith: .success) { [path = path as String] in
            do {
                _ = try Realm(fileURL: URL(fileURLWithPath: path))
                exit(1)
            } catch let error as Realm.Error {
                exit(error.code == .outOfDiskSpace ? 0 : 2)
            } catch {
                exit(3)
            }
        }
        #expect(!FileManager.default.fileExists(atPath: path) && !FileManager.default.fileExists(atPath: path + "-lock"))
    }
}
