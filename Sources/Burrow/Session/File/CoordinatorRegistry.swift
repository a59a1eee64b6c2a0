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

        /// The key of `configuration`'s realm, or `nil` when its file does not exist yet (so
        /// no coordinator can have it open).
        init?(_ configuration: Realm.Configuration) {
            if let identifier = configuration.inMemoryIdentifier {
                self = .memory(identifier)
            } else if let url = configuration.fileURL, let identity = Environment.FileIdentity(path: url.path) {
                self = .file(identity)
            } else {
                return nil
            }
        }
    }

    private struct WeakCoordinator { weak var coordinator: Coordinator? }
    private static let entries = Locked<[Key: WeakCoordinator]>([:])

    /// The coordinator of `configuration`'s file, opening the file if this process has not.
    ///
    /// - Throws: ``Realm/Error`` from opening the file.
    static func coordinator(for configuration: Realm.Configuration) throws -> Coordinator {
        while true {
            guard let coordinator = try openOnce(configuration) else {
                usleep(100)  // the file's last coordinator is closing on another thread
                continue
            }
            if coordinator.isReadOnly && !configuration.readOnly {
                throw Realm.Error(.fail, "Realm at '\(coordinator.path)' is already open read-only in this process; it cannot also be opened for writing.",
                                  fileURL: URL(fileURLWithPath: coordinator.path))
            }
            try Coordinator.verifyKey(configuration.encryptionKey, of: coordinator.environment)
            return coordinator
        }
    }

    /// The open coordinator of the file or a new one; `nil` while the previous one is closing.
    private static func openOnce(_ configuration: Realm.Configuration) throws -> Coordinator? {
        try entries.withLock { entries throws -> Coordinator? in
            if let key = Key(configuration), let entry = entries[key] {
                // An entry without a coordinator is one whose deinit has not run yet.
                return entry.coordinator
            }
            let coordinator = try Coordinator.openFile(configuration)
            entries[coordinator.registryKey] = WeakCoordinator(coordinator: coordinator)
            return coordinator
        }
    }

    /// Whether this process has the realm of `configuration` open.
    static func isOpen(_ configuration: Realm.Configuration) -> Bool {
        guard let key = Key(configuration) else { return false }
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
