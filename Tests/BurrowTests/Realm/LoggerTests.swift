import Burrow
import LMDB
import Foundation
import Testing

/// RealmSwift's `Logger`: Burrow's messages, up to the shared logger's level, go to its
/// function. The shared logger is the process's: these tests look only at the lines that name
/// their own file, and put the logger they replace back.
@Suite(.serialized) struct LoggerTests {
    let directory = TestDirectory()

    /// Runs `body` with a shared logger of `level` that keeps the lines naming this test's
    /// file; returns them, each with its level.
    private func logged(at level: LogLevel, _ body: (Logger) throws -> Void) rethrows -> [(LogLevel, String)] {
        let lines = Locked<[(LogLevel, String)]>([])
        let path = directory.url.path
        let logger = Logger(level: level) { level, message in
            if message.contains(path) { lines.withLock { $0.append((level, message)) } }
        }
        let previous = Logger.shared
        Logger.shared = logger
        defer { Logger.shared = previous }
        try body(logger)
        return lines.withLock { $0 }
    }

    @Test func theDefaultLoggerPassesOnInformationAndWarnings() {
        #expect(Logger.shared.level == .info)
        #expect(LogLevel.allCases.map(\.rawValue) == Array(0...8))
    }

    @Test func nothingIsLoggedAtLevelOff() throws {
        let lines = try logged(at: .off) { _ in
            let realm = try directory.realm()
            try realm.write { realm.add(Dog()) }
        }
        #expect(lines.isEmpty)
    }

    @Test func eachLevelAddsItsMessages() throws {
        // RealmSwift's testDefaultLogger: opening a realm logs "DB:" lines at detail and trace.
        var seen: [LogLevel: [String]] = [:]
        for level in [LogLevel.info, .detail, .debug, .trace] {
            let lines = try logged(at: level) { _ in
                try autoreleasepool {
                    let realm = try directory.realm()
                    try realm.write { realm.add(Dog()) }
                }
            }
            #expect(lines.allSatisfy { $0.0.rawValue <= level.rawValue && $0.1.hasPrefix("DB: \(getpid()) ") })
            seen[level] = lines.map(\.1)
        }
        #expect(seen[.info] == [])
        let detail = try #require(seen[.detail])
        #expect(detail.contains { $0.contains("Open realm at version") })
        #expect(detail.contains { $0.contains("Open file") })
        #expect(!detail.contains { $0.contains("Commit of version") })
        #expect(try #require(seen[.debug]).contains { $0.contains("Commit of version") })
        let trace = try #require(seen[.trace])
        #expect(trace.contains { $0.contains("Begin write on version") })
        #expect(trace.contains { $0.contains("Realm confined to") })
    }

    @Test func theLevelChangesWhileTheLoggerIsShared() throws {
        // RealmSwift's testSetDefaultLogLevel.
        let lines = try logged(at: .off) { logger in
            try autoreleasepool { _ = try directory.realm() }
            logger.level = .all
            #expect(Logger.shared.level == .all)
            try autoreleasepool { _ = try directory.realm() }
        }
        #expect(lines.contains { $0.0 == .detail && $0.1.contains("Open realm at version") })
        #expect(lines.contains { $0.0 == .trace })
        #expect(lines.filter { $0.1.contains("Open realm") }.count == 1)
    }

    @Test func aMigrationIsLogged() throws {
        let lines = try logged(at: .detail) { _ in
            try autoreleasepool { _ = try Realm(configuration: directory.configuration(objectTypes: [Dog.self])) }
            var next = directory.configuration(objectTypes: [Dog.self])
            next.schemaVersion = 2
            try autoreleasepool { _ = try Realm(configuration: next) }
        }
        #expect(lines.contains { $0.1.contains("Migrate from schema version 0 to 2") })
    }
}
