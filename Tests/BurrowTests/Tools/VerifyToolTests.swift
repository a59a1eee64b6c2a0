import Burrow
import Foundation
import Testing

/// `burrow verify`, run as its own process: it reports intact and damaged files, and survives
/// damage that ends the process reading it.
@Suite(.enabled(if: BuildDirectory.product("burrow") != nil, "the burrow tool was not built beside the tests (run swift build --build-tests)"), .plainFilesOnly("the tool is run without BURROW_ENCRYPTION_KEY (EncryptedToolTests runs it with one)"))
struct VerifyToolTests {
    let directory = TestDirectory()

    /// 2,000 people with names and pictures, closed again.
    private func file() throws -> URL {
        let realm = try Realm(configuration: directory.configuration())
        try realm.write {
            for id in 0..<2000 { realm.add(Person(value: ["id": id, "name": "person \(id)", "picture": Data(count: id % 200)])) }
        }
        return directory.file()
    }

    @Test func anIntactFileExitsZero() throws {
        let url = try file()
        let run = try BurrowToolRun(["verify", url.path])
        #expect(run.status == 0, "\(run.output) \(run.errors)")
        #expect(run.output.contains("Person: 2000 objects"))
        #expect(run.output.hasSuffix("result: intact\n"))
    }

    @Test func aFileThatIsNotARealmIsBadInputNotDamage() throws {
        let url = directory.file("text.realm")
        try Data(repeating: 0x41, count: 20_000).write(to: url)
        let run = try BurrowToolRun(["verify", url.path])
        #expect(run.status == 2 && run.output.isEmpty)
        #expect(run.errors == "burrow verify: \(url.path): not a Burrow file (no LMDB header)\n")
    }

    /// A check that reads no record for the stall time (here its process is stopped) is ended
    /// and reported as damage, as one caught in pages that loop would be; a check waiting for
    /// another process's exclusive hold on the file (a compaction) is not.
    @Test func aStalledCheckIsStoppedButOneWaitingForACompactionIsNot() throws {
        let url = try file()
        let hold = try ExclusiveHold(lockFile: url.path + "-lock")
        let waiting = try VerifyProcess(url.path)
        Thread.sleep(forTimeInterval: 2.5)
        hold.release()
        let waited = waiting.finish()
        #expect(waited.status == 0 && waited.output.hasSuffix("result: intact\n"), "\(waited.output)")

        let again = try ExclusiveHold(lockFile: url.path + "-lock")
        let stalling = try VerifyProcess(url.path)
        let child = try #require(stalling.child(), "the checking process was not started")
        kill(child, SIGSTOP)
        again.release()
        let stalled = stalling.finish()
        #expect(stalled.status == 1, "\(stalled.output)")
        #expect(stalled.output.contains("read no record for 1 s and was stopped") && stalled.output.hasSuffix("result: damaged\n"), "\(stalled.output)")
        #expect(kill(child, 0) != 0, "the stalled process is gone")
    }

    @Test func misuseExitsTwo() throws {
        #expect(try BurrowToolRun(["verify"]).status == 2)
        #expect(try BurrowToolRun(["verify", "a", "b"]).status == 2)
    }

    /// Copies with bytes of data pages overwritten, at random places: whatever the check meets,
    /// even damage that ends the checking process, the tool reports a result and never dies.
    @Test func damagedDataPagesNeverEndTheTool() throws {
        let original = try Data(contentsOf: file())
        let pageSize = 4096, pages = original.count / pageSize
        var generator = SplitMix64(seed: 20261201)
        var outcomes: [String: Int] = [:]
        for round in 0..<24 {
            var bytes = original
            let page = Int.random(in: 2..<pages, using: &generator)
            let length = [8, 64, pageSize][round % 3]
            let start = page * pageSize + Int.random(in: 0..<(pageSize - length + 1), using: &generator)
            for offset in start..<start + length { bytes[offset] = UInt8.random(in: 0...255, using: &generator) }
            let url = directory.file("damaged-\(round).realm")
            try bytes.write(to: url)
            let run = try BurrowToolRun(["verify", url.path])
            #expect(!run.wasSignalled && (run.status == 0 || run.status == 1), "round \(round): \(run.status) \(run.errors)")
            let result = run.output.split(separator: "\n").last { $0.hasPrefix("result: ") }
            #expect(result != nil, "round \(round): \(run.output)")
            let kind = run.output.contains("stopped with signal") ? "stopped LMDB" : run.output.contains("cannot be opened") ? "refused" : String(result ?? "none")
            outcomes[kind, default: 0] += 1
        }
        print("burrow verify on 24 copies with damaged data pages: " + outcomes.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", "))
    }
}

/// An exclusive lock on a lock file's first byte, held by this process as a compaction holds
/// it: another process's open of the file waits for it.
private struct ExclusiveHold {
    private let descriptor: Int32

    init(lockFile: String) throws {
        descriptor = open(lockFile, O_RDWR)
        var lock = flock()
        lock.l_type = Int16(F_WRLCK)
        lock.l_whence = Int16(SEEK_SET)
        lock.l_start = 0
        lock.l_len = 1
        try #require(descriptor >= 0 && fcntl(descriptor, F_SETLK, &lock) == 0, "cannot lock \(lockFile): \(String(cString: strerror(errno)))")
    }

    func release() {
        close(descriptor)
    }
}

/// `burrow verify` with a stall time of one second, running while the test acts on it.
private struct VerifyProcess {
    private let process = Process()
    private let output = Pipe()

    init(_ path: String) throws {
        process.executableURL = BuildDirectory.product("burrow")
        process.arguments = ["verify", path]
        process.environment = ProcessInfo.processInfo.environment.merging(["BURROW_VERIFY_STALL_SECONDS": "1"]) { $1 }
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
    }

    /// The process doing the check, once it runs the check (within five seconds).
    ///
    /// A child is listed from the moment it is cloned, but `posix_spawn` keeps its parent in an
    /// uninterruptible wait until the child has called `exec`: stopping it before then would
    /// stop `burrow verify` too, for good. So the child counts only once its command line is
    /// the checking process's.
    func child() -> pid_t? {
        let pid = process.processIdentifier
        for _ in 0..<500 {
            let children = (try? String(contentsOfFile: "/proc/\(pid)/task/\(pid)/children", encoding: .utf8)) ?? ""
            if let child = children.split(separator: " ").first.flatMap({ pid_t($0) }),
               let commandLine = try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(child)/cmdline")),
               commandLine.split(separator: 0).contains(where: { String(decoding: $0, as: UTF8.self) == "--in-process" }) {
                return child
            }
            Thread.sleep(forTimeInterval: 0.01)
        }
        return nil
    }

    func finish() -> (status: Int32, output: String) {
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }
}
