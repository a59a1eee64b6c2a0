extension SyncSession {
    /// How long a progress notification lasts.
    public enum ProgressMode: Sendable {
        /// For as long as the token lives: each time work starts, progress counts from it.
        case reportIndefinitely
        /// Until the work waiting when it was added is done; then it is called once with
        /// ``Progress/isTransferComplete`` and never again.
        case forCurrentlyOutstandingWork
    }

    /// How far an upload or a download is.
    ///
    /// Work is counted in objects uploaded and in changes (on a first download, rows)
    /// downloaded; ``progressEstimate`` is their ratio. Bytes are those of the changes' text
    /// as they travel, in the session so far; ``transferrableBytes`` adds the work still
    /// waiting at the average size of what moved so far, so it is an estimate.
    public struct Progress: Equatable, Sendable {
        /// The bytes moved so far.
        public let transferredBytes: Int
        /// The bytes moved so far and, estimated, those still to move.
        public let transferrableBytes: Int
        /// The part of the work done, from 0 to 1.
        public let progressEstimate: Double

        /// ``progressEstimate``, by its earlier name.
        public var fractionTransferred: Double { progressEstimate }

        /// Whether the work is done.
        public var isTransferComplete: Bool { progressEstimate >= 1 }
    }

    /// A token that keeps a progress notification alive; ``NotificationToken/invalidate()``
    /// ends it.
    public typealias ProgressNotificationToken = NotificationToken

    /// Calls `block` on the session's thread each time the progress of uploads or downloads
    /// changes, until the token is invalidated or released (or, with
    /// `.forCurrentlyOutstandingWork`, until the work waiting now is done).
    ///
    /// ```swift
    /// let token = realm.syncSession!.addProgressNotification(for: .upload, mode: .forCurrentlyOutstandingWork) { progress in
    ///     print("uploaded \(Int(progress.progressEstimate * 100)) %")
    /// }
    /// ```
    ///
    /// Returns `nil` once the session stopped (its file was closed).
    public func addProgressNotification(for direction: ProgressDirection, mode: ProgressMode,
                                        block: @escaping @Sendable (Progress) -> Void) -> ProgressNotificationToken? {
        guard state != .inactive else { return nil }
        let token = progress.add(direction, mode: mode, block: block)
        worker.wake()
        return token
    }
}
