/// What Burrow was doing with a file when the outside world failed it: the one translation of
/// storage and LMDB errors (``Realm/Error/init(translating:path:operation:maximumFileSize:)``)
/// names it in its message and decides by it what a failure means.
enum FileOperation: Sendable {
    /// Opening the file: its environment, metadata and catalog.
    case open
    /// Taking the snapshot a new realm reads.
    case read
    /// Writing in a write transaction.
    case write
    /// Committing a write transaction.
    case commit
    /// Migrating the file's schema at open.
    case migrate
    /// Writing a copy of the file (``Realm/writeCopy(toFile:encryptionKey:)``).
    case writeCopy
    /// Taking a snapshot for a frozen realm.
    case freeze
    /// Moving a realm to the latest version.
    case refresh
    /// Taking the latest snapshot after a write.
    case renewAfterWrite
    /// Taking the latest snapshot for a read that follows `invalidate()`.
    case readAfterInvalidation

    /// The action, as messages say it: "Cannot commit to '/path': …".
    var action: String {
        switch self {
        case .open: "open"
        case .read: "read"
        case .write: "write to"
        case .commit: "commit to"
        case .migrate: "migrate"
        case .writeCopy: "write a copy to"
        case .freeze: "freeze"
        case .refresh: "refresh realm at"
        case .renewAfterWrite: "renew the read transaction of"
        case .readAfterInvalidation: "read realm at"
        }
    }

    /// Whether the operation writes the file, so that a full map or a short write means the
    /// file's size limit or a full disk.
    var writesFile: Bool {
        switch self {
        case .write, .commit, .migrate: true
        default: false
        }
    }
}
