#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Each thread's realms, by configuration identity, held weakly: `Realm()` on a thread
/// returns the instance that thread already has.
enum ThreadRealmCache {
    private final class Entries {
        struct WeakRealm { weak var realm: RealmCore? }
        var realms: [String: WeakRealm] = [:]
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

    private static var entries: Entries {
        if let pointer = pthread_getspecific(slot) {
            return Unmanaged<Entries>.fromOpaque(pointer).takeUnretainedValue()
        }
        let entries = Entries()
        pthread_setspecific(slot, Unmanaged.passRetained(entries as AnyObject).toOpaque())
        return entries
    }

    /// This thread's live realm for `identity`, if any.
    static func realm(for identity: String) -> RealmCore? {
        entries.realms[identity]?.realm
    }

    /// Remembers `realm` as this thread's instance for `identity`.
    static func store(_ realm: RealmCore, for identity: String) {
        let entries = self.entries
        entries.realms = entries.realms.filter { $0.value.realm != nil }
        entries.realms[identity] = .init(realm: realm)
    }
}
