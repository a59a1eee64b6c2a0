import Foundation
import Synchronization

/// How much a ``Logger`` passes on, from nothing to everything, each level including those
/// before it.
///
/// ```swift
/// Logger.shared.level = .detail
/// ```
@frozen
public enum LogLevel: UInt, Sendable, CaseIterable {
    /// Nothing is logged.
    case off
    /// Only fatal errors.
    case fatal
    /// Errors.
    case error
    /// Warnings and errors.
    case warn
    /// The few events worth knowing in a running program (a sync session's connection).
    case info
    /// More events: each file opened and closed, migrations, compactions, sync batches.
    case detail
    /// Events that help debugging: each commit. Costs measurable time.
    case debug
    /// Every realm opened, refreshed or written. Costs measurable time.
    case trace
    /// Everything.
    case all
}

/// Where Burrow's log messages go, and how many: RealmSwift's `Logger`.
///
/// ```swift
/// Logger.shared = Logger(level: .detail) { level, message in
///     print("Burrow \(level): \(message)")
/// }
/// ```
///
/// The shared logger passes on messages up to its ``level`` to its function, at once, on
/// whatever thread logs them; the default one has level `.info` and writes to standard error.
/// Messages about files start with `DB:` and the process id; those about sync with `Sync:`.
/// The function must not use realms: it may be called while Burrow holds a file's writer turn
/// or one of its locks.
public final class Logger: Sendable {
    private let threshold: Atomic<UInt>
    private let function: @Sendable (LogLevel, String) -> Void

    /// A logger passing messages up to `level` to `logFunction`.
    ///
    /// ```swift
    /// let logger = Logger(level: .all) { level, message in lines.append(message) }
    /// ```
    public init(level: LogLevel, logFunction: @escaping @Sendable (LogLevel, String) -> Void) {
        threshold = Atomic(level.rawValue)
        function = logFunction
    }

    /// The most detailed level passed on; may be changed at any time, from any thread.
    public var level: LogLevel {
        get { LogLevel(rawValue: threshold.load(ordering: .relaxed)) ?? .all }
        set { threshold.store(newValue.rawValue, ordering: .relaxed) }
    }

    private static let current = Mutex(Logger(level: .info) { level, message in
        FileHandle.standardError.write(Data("Burrow \(level): \(message)\n".utf8))
    })

    /// The logger Burrow logs to. Setting it replaces it for every thread.
    ///
    /// ```swift
    /// Logger.shared.level = .trace
    /// ```
    public static var shared: Logger {
        get { current.withLock { $0 } }
        set { current.withLock { $0 = newValue } }
    }

    /// Logs the message `message` makes, at `level`, to the shared logger; the message is made
    /// only when the logger passes the level on.
    static func log(_ level: LogLevel, _ message: @autoclosure () -> String) {
        let logger = shared
        guard level != .off, level.rawValue <= logger.threshold.load(ordering: .relaxed) else { return }
        logger.function(level, message())
    }
}
