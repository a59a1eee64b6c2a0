#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The live objects of this process by key, at most one per key, held weakly: the environment
/// of each file (LMDB allows one per file in a process), the coordinator of each realm file.
///
/// An object's `deinit` closes what it owns and forgets its entry under the registry's lock
/// (``remove(_:closing:)``), and opening waits on that lock and on an entry whose object is
/// closing: a new object for a key is made only once the old one is gone.
///
/// ```swift
/// let environment = try registry.object(for: identity) { (identity, try open()) }
/// ```
package final class WeakRegistry<Key: Hashable, Object: AnyObject>: @unchecked Sendable {
    private struct Entry {
        weak var object: Object?
    }

    private let entries = Locked<[Key: Entry]>([:])

    package init() {}

    /// The live object under `key`, or the one `make` returns, registered under the key it
    /// returns with it. `key` (`nil` when nothing can be registered under it yet, such as a
    /// file that does not exist) and `make` run under the registry's lock: two threads opening
    /// one file get one object. Waits while the key's previous object is closing on another
    /// thread.
    ///
    /// - Throws: what `make` throws; nothing is registered then.
    package func object<Failure: Error>(for key: @autoclosure () -> Key?,
                                        orMake make: () throws(Failure) -> (key: Key, object: Object)) throws(Failure) -> Object {
        while true {
            let found = try entries.withLock { entries throws(Failure) -> Object? in
                // An entry without an object is one whose deinit has not forgotten it yet.
                if let key = key(), let entry = entries[key] { return entry.object }
                let made = try make()
                entries[made.key] = Entry(object: made.object)
                return made.object
            }
            if let found { return found }
            usleep(100)
        }
    }

    /// Whether an object is live under `key`.
    package func contains(_ key: Key) -> Bool {
        // The weak load happens outside the lock: if it held the last reference, releasing it
        // there would run the deinit, which takes the lock.
        let entry = entries.withLock { $0[key] }
        return entry?.object != nil
    }

    /// How many objects are live.
    package var count: Int {
        let all = entries.withLock { Array($0.values) }
        return all.count { $0.object != nil }
    }

    /// Runs `close` and forgets `key`'s released object, under the registry's lock, which
    /// opening waits on. For the object's `deinit`.
    package func remove(_ key: Key, closing close: () -> Void) {
        entries.withLock { entries in
            close()
            if entries[key]?.object == nil { entries[key] = nil }
        }
    }
}
