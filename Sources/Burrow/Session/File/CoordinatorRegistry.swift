import Foundation
import LMDB

/// The coordinators this process has open, one per file whatever path reached it (a symlink,
/// a hard link, `./x`), as it has one LMDB environment per file; and one per in-memory
/// identifier.
enum CoordinatorRegistry {
    /// What a coordinator is registered under.
    enum Key: Hashable {
        case file(Environment.FileIdentity)
        case memory(String)

        /// The key of the realm `file` names, or `nil` when its file does not exist yet (so
        /// no coordinator can have it open).
        init?(_ file: FileOptions) {
            if let identifier = file.inMemoryIdentifier {
                self = .memory(identifier)
            } else if let url = file.fileURL, let identity = Environment.FileIdentity(path: url.path) {
                self = .file(identity)
            } else {
                return nil
            }
        }
    }

    private static let registry = WeakRegistry<Key, Coordinator>()

    /// The coordinator of the file `file` names, opening the file if this process has not.
    ///
    /// - Throws: ``Realm/Error`` from opening the file.
    static func coordinator(for file: FileOptions) throws -> Coordinator {
        let coordinator = try registry.object(for: Key(file)) {
            let opened = try Coordinator.openFile(file)
            return (opened.registryKey, opened)
        }
        if coordinator.isReadOnly && !file.readOnly {
            throw Realm.Error(.fail, "Realm at '\(coordinator.path)' is already open read-only in this process; it cannot also be opened for writing.",
                              fileURL: URL(fileURLWithPath: coordinator.path))
        }
        try Coordinator.verifyKey(file.encryptionKey, of: coordinator.environment)
        return coordinator
    }

    /// Whether this process has the file `file` names open.
    static func isOpen(_ file: FileOptions) -> Bool {
        guard let key = Key(file) else { return false }
        return registry.contains(key)
    }

    /// Runs `close` and forgets `key`'s released coordinator, under the registry's lock, which
    /// opening waits on: a new coordinator for the file opens only after the old one is gone.
    static func remove(_ key: Key, closing close: () -> Void) {
        registry.remove(key, closing: close)
    }
}
