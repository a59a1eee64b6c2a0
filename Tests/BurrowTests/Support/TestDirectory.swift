import Burrow
import Foundation
import Testing

/// A fresh folder for one test, with realm configurations inside it; removed (after checking
/// that no realm file inside is still open) when released.
final class TestDirectory {
    let url: URL

    private static let prefix = "burrow-tests-"

    init() {
        _ = Self.sweptOnce
        // The process id in the name lets a later process remove the folder of one that trapped.
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(Self.prefix)\(getpid())-\(UUID().uuidString)", isDirectory: true)
        try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// Removes the folders of test processes that are gone: exit tests trap on purpose, in
    /// child processes whose folders no `deinit` removes.
    private static let sweptOnce: Void = {
        let temporary = FileManager.default.temporaryDirectory
        let names = (try? FileManager.default.contentsOfDirectory(atPath: temporary.path)) ?? []
        for name in names where name.hasPrefix(prefix) {
            guard let pid = Int32(name.dropFirst(prefix.count).prefix { $0 != "-" }), pid != getpid(),
                  kill(pid, 0) != 0, errno == ESRCH else { continue }
            try? FileManager.default.removeItem(at: temporary.appendingPathComponent(name))
        }
    }()

    deinit {
        let leftovers = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
        for name in leftovers where name.hasSuffix(".realm") {
            var configuration = Realm.Configuration()
            configuration.fileURL = url.appendingPathComponent(name)
            // A queue's observation or a stream's task lets its realm go when it gets to it,
            // after the test has returned: a realm still open five seconds on was kept.
            let deadline = Date().addingTimeInterval(5)
            while Internals.isOpen(configuration) && Date() < deadline { usleep(10_000) }
            #expect(!Internals.isOpen(configuration), "realm \(name) is still open after the test")
        }
        try? FileManager.default.removeItem(at: url)
    }

    func file(_ name: String = "test.realm") -> URL { url.appendingPathComponent(name) }

    /// A configuration for a file in this folder.
    func configuration(_ name: String = "test.realm", objectTypes: [ObjectBase.Type]? = nil,
                       schemaVersion: UInt64 = 0, readOnly: Bool = false) -> Realm.Configuration {
        Realm.Configuration(fileURL: file(name), encryptionKey: Self.suiteKey, readOnly: readOnly, schemaVersion: schemaVersion,
                            objectTypes: objectTypes)
    }

    /// With `BURROW_TEST_ENCRYPTION=1`, every test file is encrypted with one key: the whole
    /// suite then runs against encrypted files (`Scripts/test.sh` runs it so).
    static let suiteKey: Data? = ProcessInfo.processInfo.environment["BURROW_TEST_ENCRYPTION"] == "1"
        ? Data((0..<64).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) }) : nil

    /// A realm on a file in this folder.
    func realm(_ name: String = "test.realm") throws -> Realm {
        try Realm(configuration: configuration(name))
    }
}

/// Runs `body` on a new thread (with a stack of `stackSize` bytes, or the system's default)
/// and waits for it.
func onAnotherThread(stackSize: Int? = nil, _ body: @escaping @Sendable () -> Void) {
    // Joined, not signalled: what the thread keeps until it exits (its realms) is released
    // before this returns, whatever the load on the machine.
    final class Work {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }
    var thread = pthread_t()
    var attributes = pthread_attr_t()
    pthread_attr_init(&attributes)
    defer { pthread_attr_destroy(&attributes) }
    if let stackSize { pthread_attr_setstacksize(&attributes, stackSize) }
    let work = Unmanaged.passRetained(Work(body)).toOpaque()
    let created = pthread_create(&thread, &attributes, { raw in
        Unmanaged<Work>.fromOpaque(raw!).takeRetainedValue().body()
        return nil
    }, work)
    precondition(created == 0, "no thread could be started: \(created)")
    pthread_join(thread, nil)
}

/// Expects `body` to throw a ``Realm/Error`` with `code`.
func expectError<R>(_ code: Realm.Error.Code, sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> R) {
    do {
        _ = try body()
        Issue.record("expected Realm.Error.\(code), nothing was thrown", sourceLocation: sourceLocation)
    } catch let error as Realm.Error {
        #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
    } catch {
        Issue.record("expected Realm.Error.\(code), got \(error)", sourceLocation: sourceLocation)
    }
}

/// Checks that a crashed child process printed `message`.
func expectMessage(_ result: ExitTest.Result?, _ message: String, sourceLocation: SourceLocation = #_sourceLocation) {
    let output = result.map { String(decoding: $0.standardErrorContent, as: UTF8.self) } ?? ""
    #expect(output.contains(message), "child process printed: \(output)", sourceLocation: sourceLocation)
}

/// The size of the file at `url`, in bytes.
func fileSize(_ url: URL, sourceLocation: SourceLocation = #_sourceLocation) throws -> Int {
    try #require(try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int, sourceLocation: sourceLocation)
}


extension Trait where Self == ConditionTrait {
    /// Runs the test only on unencrypted files: the suite's encrypted run (`BURROW_TEST_ENCRYPTION=1`,
    /// which `Scripts/test.sh` makes after the plain one) skips it, saying `reason`. Every
    /// other test runs in both.
    ///
    /// For tests whose subject is the unencrypted file itself: its records read or damaged in
    /// place, its size, other processes or tools opening it with configurations of their own.
    static func plainFilesOnly(_ reason: Comment) -> Self {
        .disabled(if: TestDirectory.suiteKey != nil, reason)
    }
}

/// Checks every record of the file at `url` with ``Realm/verifyFile(at:encryptionKey:)``: the
/// post-condition of tests that write at random, inject faults or kill writers.
func expectIntact(_ url: URL, encryptionKey: Data? = TestDirectory.suiteKey, sourceLocation: SourceLocation = #_sourceLocation) {
    do {
        let verification = try Realm.verifyFile(at: url, encryptionKey: encryptionKey)
        #expect(verification.isIntact, "\(url.lastPathComponent): \(verification.problems)", sourceLocation: sourceLocation)
        #expect(verification.recordsRead > 0, "\(url.lastPathComponent) was verified without reading a record", sourceLocation: sourceLocation)
    } catch {
        Issue.record("\(url.lastPathComponent) cannot be verified: \(error)", sourceLocation: sourceLocation)
    }
}
