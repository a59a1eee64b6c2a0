import Foundation

extension Realm {
    /// The realm's sync session; `nil` when its configuration has no ``Configuration/syncConfiguration``.
    ///
    /// ```swift
    /// try await realm.syncSession!.wait(for: .upload)
    /// ```
    public var syncSession: SyncSession? {
        configuration.syncConfiguration == nil ? nil : SyncSessionRegistry.session(for: configuration)
    }

    /// What the realm downloads. Only a synced realm has subscriptions: reading them on
    /// another traps.
    ///
    /// ```swift
    /// try await realm.subscriptions.update { realm.subscriptions.append(QuerySubscription<Task>()) }
    /// ```
    public var subscriptions: SyncSubscriptionSet {
        guard let session = syncSession else {
            burrowPreconditionFailure("This realm was not configured with sync: it has no subscriptions.")
        }
        return session.subscriptions
    }

    /// When opening a synced realm waits for the server's data.
    public enum OpenBehavior: Sendable {
        /// Opens at once with what the file holds.
        case never
        /// Waits for the download the first time the file is opened, when it is new.
        case once
        /// Waits for the download at every open.
        case always
    }

    /// Opens the realm, first downloading the server's changes as `downloadBeforeOpen` asks.
    ///
    /// ```swift
    /// let realm = try await Realm(configuration: config, downloadBeforeOpen: .always)
    /// ```
    ///
    /// - Throws: what ``init(configuration:queue:)`` throws; ``SyncError`` when the download
    ///   cannot finish (the session stopped).
    @MainActor
    public init(configuration: Configuration, downloadBeforeOpen: OpenBehavior) async throws {
        let isNew = Self.isNewFile(configuration)
        try self.init(configuration: configuration)
        try await download(as: downloadBeforeOpen, fileWasNew: isNew)
    }

    /// Whether `configuration`'s file does not exist yet (``OpenBehavior/once`` waits then).
    static func isNewFile(_ configuration: Configuration) -> Bool {
        configuration.fileURL.map { !FileManager.default.fileExists(atPath: $0.path) } ?? true
    }

    /// Waits for the server's changes and reads them, as `behavior` asks of a file that was new
    /// when it opened, or not.
    func download(as behavior: OpenBehavior, fileWasNew isNew: Bool, isolation: isolated (any Actor)? = #isolation) async throws {
        guard behavior == .always || (behavior == .once && isNew), let session = syncSession else { return }
        try await session.wait(for: .download)
        refresh()
    }
}
