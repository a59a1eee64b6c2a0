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

    private struct WeakCoordinator { weak var coordinator: Coordinator? }
    private static let entries = Locked<[Key: WeakCoordinator]>([:])

    /// The coordinator of the file `file` names, opening the file if this process has not.
    ///
    /// - Throws: ``Realm/Error`` from opening the file.
    static func coordinator(for file: FileOptions) throws -> Coordinator {
        while true {
            guard let coordinator = try openOnce(file) else {
                usleep(100)  // the file's last coordinator is closing on another thread
                continue
            }
            if coordinator.isReadOnly && !file.readOnly {
                throw Realm.Error(.fail, "Realm at '\(coordinator.path)' is already open read-only in this process; it cannot also be opened for writing.",
                                  fileURL: URL(fileURLWithPath: coordinator.path))
            }
            try Coordinator.verifyKey(file.encryptionKey, of: coordinator.environment)
            return coordinator
        }
    }

    /// The open coordinator of the file or a new one; `nil` while the previous one is closing.
    private static func openOnce(_ file: FileOptions) throws -> Coordinator? {
        try entries.withLock { entries throws -> Coordinator? in
            if let key = Key(file), let entry = entries[key] {
                // An entry without a coordinator is one whose deinit has not run yet.
                return entry.coordinator
            }
            let coordinator = try Coordinator.openFile(file)
            entries[coordinator.registryKey] = WeakCoordinator(coordinator: coordinator)
            return coordinator
        }
    }

    /// Whether this process has the file `file` names open.
    static func isOpen(_ file: FileOptions) -> Bool {
        guard let key = Key(file) else { return false }
        // The weak load happens outside the lock: if it held the last reference, releasing it
        // there would run the deinit, which takes the lock.
        let entry = entries.withLock { $0[key] }
        return entry?.coordinator != nil
    }

    /// Runs `close` and forgets `key`'s released coordinator, under the registry's lock, which
    /// opening waits on: a new coordinator for the file opens only after the old one is gone.
    static func remove(_ key: Key, closing close: () -> Void) {
        entries.withLock { entries in
            close()
            if entries[key]?.coordinator == nil { entries[key] = nil }
        }
    }
}
