import Burrow
import Foundation
import Synchronization

/// `burrow sync setup CONNECTION FILE` creates Burrow's tables in a PostgreSQL database for
/// the classes of a realm file; `burrow sync status FILE [--json]` says what a synced file
/// holds of its sync; `burrow sync adopt CONNECTION [--follow]` turns other programs' SQL
/// writes into changes, with a role row-level security does not bind.
///
/// Exit status: 0 done, 1 failed, 2 misused.
enum SyncCommand {
    static let usage = """
        usage: burrow sync setup CONNECTION FILE
               burrow sync status FILE [--json]
               burrow sync adopt CONNECTION [--follow]
        """

    static func run(_ arguments: [String]) -> Int32 {
        switch arguments.first {
        case "setup": return setup(Array(arguments.dropFirst()))
        case "status": return status(Array(arguments.dropFirst()))
        case "adopt": return adopt(Array(arguments.dropFirst()))
        default:
            BurrowTool.printError("burrow sync: expected setup, status or adopt\n\n\(usage)")
            return 2
        }
    }

    private static func setup(_ arguments: [String]) -> Int32 {
        guard arguments.count == 2 else {
            BurrowTool.printError("burrow sync setup takes CONNECTION and FILE\n\n\(usage)")
            return 2
        }
        guard let key = ToolEncryptionKey.read(for: "sync setup") else { return 2 }
        let file = URL(fileURLWithPath: arguments[1])
        guard FileManager.default.fileExists(atPath: file.path) else {
            BurrowTool.printError("burrow sync setup: \(file.path) does not exist")
            return 1
        }
        do {
            // The classes stored in the file, not this program's.
            try Realm.setUpSyncServer(arguments[0], for: Realm.Configuration(fileURL: file, encryptionKey: key, readOnly: true, objectTypes: []))
            print("set up the server for the classes of \(file.path)")
            return 0
        } catch {
            BurrowTool.printError("burrow sync setup: \(error)")
            return 1
        }
    }

    /// Set by SIGINT or SIGTERM: `adopt --follow` ends after the adoption under way.
    private static let stopRequested = Atomic<Bool>(false)

    private static func adopt(_ arguments: [String]) -> Int32 {
        let follow = arguments.contains("--follow")
        let servers = arguments.filter { $0 != "--follow" }
        guard servers.count == 1, !servers[0].hasPrefix("-") else {
            BurrowTool.printError("burrow sync adopt takes CONNECTION\n\n\(usage)")
            return 2
        }
        do {
            guard follow else {
                print("adopted \(try Realm.adoptSyncSQLWrites(servers[0])) SQL write(s)")
                return 0
            }
            // A parent may have started this process with these signals blocked.
            var stopSignals = sigset_t()
            sigemptyset(&stopSignals)
            for stopSignal in [SIGINT, SIGTERM] {
                signal(stopSignal) { _ in SyncCommand.stopRequested.store(true, ordering: .relaxed) }
                sigaddset(&stopSignals, stopSignal)
            }
            pthread_sigmask(SIG_UNBLOCK, &stopSignals, nil)
            let adopted = try Realm.followSyncSQLWrites(servers[0]) { stopRequested.load(ordering: .relaxed) }
            print("adopted \(adopted) SQL write(s)")
            return 0
        } catch {
            BurrowTool.printError("burrow sync adopt: \(error)")
            return 1
        }
    }

    private static func status(_ arguments: [String]) -> Int32 {
        let json = arguments.contains("--json")
        let paths = arguments.filter { $0 != "--json" }
        guard paths.count == 1, !paths[0].hasPrefix("-") else {
            BurrowTool.printError("burrow sync status takes FILE\n\n\(usage)")
            return 2
        }
        guard let key = ToolEncryptionKey.read(for: "sync status") else { return 2 }
        let status: SyncStatus?
        do {
            status = try Realm.syncStatus(ofFileAt: URL(fileURLWithPath: paths[0]), encryptionKey: key)
        } catch {
            BurrowTool.printError("burrow sync status: \(error)")
            return 1
        }
        guard let status else {
            print(json ? "{\"synced\":false}" : "\(paths[0]) has never synced")
            return 0
        }
        let oldest = status.oldestPendingChange.map { ISO8601DateFormatter().string(from: $0) }
        let since = status.connectionStateSince.map { ISO8601DateFormatter().string(from: $0) }
        if json {
            let fields: [(String, Any?)] = [
                ("synced", true), ("server", status.server), ("serverID", status.serverID),
                ("clientID", status.clientID?.uuidString.lowercased()), ("pulledSequence", status.pulledSequence),
                ("pendingObjects", status.pendingObjects), ("oldestPendingChange", oldest),
                ("uploadInFlight", status.uploadInFlight), ("connectionState", status.connectionState),
                ("connectionStateSince", since), ("serverTrimmedThrough", status.serverTrimmedThrough),
            ]
            let subscriptions = "[" + status.subscriptions.map { jsonText($0) }.joined(separator: ",") + "]"
            print("{" + fields.map { "\"\($0.0)\":\(jsonText($0.1))" }.joined(separator: ",") + ",\"subscriptions\":\(subscriptions)}")
        } else {
            print("""
                server:           \(status.server ?? "(never connected)")
                server id:        \(status.serverID ?? "-")
                client id:        \(status.clientID?.uuidString.lowercased() ?? "-")
                pulled through:   \(status.pulledSequence)
                pending uploads:  \(status.pendingObjects) objects\(oldest.map { ", oldest change \($0)" } ?? "")\(status.uploadInFlight ? ", a batch in flight" : "")
                connection:       \(status.connectionState ?? "never connected")\(since.map { " since \($0)" } ?? "")
                server trimmed:   \(status.serverTrimmedThrough.map { "through \($0)" } ?? "unknown")
                subscriptions:    \(status.subscriptions.isEmpty ? "none" : status.subscriptions.joined(separator: "\n                  "))
                """)
        }
        return 0
    }

    private static func jsonText(_ value: Any?) -> String {
        switch value {
        case nil: return "null"
        case let value as Bool: return value ? "true" : "false"
        case let value as Int: return String(value)
        case let value as UInt64: return String(value)
        case let value as String:
            let data = try? JSONSerialization.data(withJSONObject: [value], options: [])
            return data.map { String(decoding: $0.dropFirst().dropLast(), as: UTF8.self) } ?? "null"
        default: return "null"
        }
    }
}
