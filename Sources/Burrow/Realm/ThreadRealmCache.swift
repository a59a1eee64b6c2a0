import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Each thread's realms, by configuration identity: `Realm()` on a thread returns the instance
/// that thread already has.
///
/// Entries point at realms without retaining them, and a realm removes its entry as it
/// deinitialises. A weak reference would do the same, but it gives the realm a side table,
/// which makes every retain and release of it (each managed object and result holds one)
/// several times slower.
enum ThreadRealmCache {
    /// One thread's realms. Locked because a realm may deinitialise on another thread.
    final class Entries: Sendable {
        /// Realms' addresses, which are plain numbers to the lock.
        private let realms = Mutex<[String: UInt]>([:])

        fileprivate func realm(for identity: String) -> RealmCore? {
            realms.withLock { realms in
                realms[identity].flatMap(UnsafeRawPointer.init(bitPattern:)).map { Unmanaged<RealmCore>.fromOpaque($0).takeUnretainedValue() }
            }
        }

        fileprivate func store(_ realm: RealmCore, for identity: String) {
            let address = Self.address(of: realm)
            realms.withLock { $0[identity] = address }
        }

        /// Forgets `realm`, which is deinitialising.
        func remove(_ realm: RealmCore, for identity: String) {
            let address = Self.address(of: realm)
            realms.withLock { realms in
                if realms[identity] == address { realms[identity] = nil }
            }
        }

        private static func address(of realm: RealmCore) -> UInt {
            UInt(bitPattern: Unmanaged.passUnretained(realm).toOpaque())
        }
    }

    /// The thread-local slot; its destructor releases a thread's entries when the thread ends.
    private static let slot: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key) { pointer in
            if let pointer { Unmanaged<AnyObject>.fromOpaque(pointer).release() }
        }
        precondition(status == 0, "Cannot create the thread-local realm cache (error \(status)).")
        return key
    }()

    /// The calling thread's entries.
    static var current: Entries {
        if let pointer = pthread_getspecific(slot) {
            return Unmanaged<Entries>.fromOpaque(pointer).takeUnretainedValue()
        }
        let entries = Entries()
        pthread_setspecific(slot, Unmanaged.passRetained(entries as AnyObject).toOpaque())
        return entries
    }

    /// This thread's live realm for `identity`, if any.
    static func realm(for identity: String) -> RealmCore? {
        current.realm(for: identity)
    }

    /// Remembers `realm` as this thread's instance for its identity.
    static func store(_ realm: RealmCore) {
        realm.cacheEntries.store(realm, for: realm.cacheIdentity)
    }
}
