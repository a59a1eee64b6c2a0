import LMDB
import Dispatch

/// The realms of each thread, queue and actor, by configuration identity: `Realm()` on a thread
/// (or `Realm(queue:)` on a queue, `Realm.open()` on an actor) returns the instance it already
/// has, for as long as anything uses it.
///
/// The cache holds each realm strongly while its use count (``RealmSession/addUse()``: `Realm`
/// values, managed objects, results, collections) is above zero, and lets it go when the count
/// reaches zero. A weak reference would do the same, but it gives the realm a side table,
/// which makes every retain and release of it (each managed object and result holds one)
/// several times slower. A lookup counts its use under the cache's lock, so a realm whose
/// last use ends on another thread at that moment is either kept or already gone, never
/// handed out while it deinitialises.
enum RealmInstanceCache {
    /// The realms of one thread, queue or actor. Locked because a realm's last use may end on another thread.
    final class Entries: Sendable {
        /// The address of each realm, retained once by the cache.
        private let realms = Locked<[String: UInt]>([:])

        /// The live realm for `identity`, with one use counted for the caller.
        fileprivate func realm(for identity: String) -> RealmSession? {
            realms.withLock { realms -> RealmSession? in
                guard let pointer = realms[identity].flatMap(UnsafeRawPointer.init(bitPattern:)) else { return nil }
                let realm = Unmanaged<RealmSession>.fromOpaque(pointer).takeUnretainedValue()
                realm.addUse()
                return realm
            }
        }

        /// Keeps `realm`, which already counts a use, under its identity.
        fileprivate func store(_ realm: RealmSession) {
            let address = UInt(bitPattern: Unmanaged.passRetained(realm).toOpaque())
            let replaced = realms.withLock { realms -> UInt? in
                defer { realms[realm.cacheIdentity] = address }
                return realms[realm.cacheIdentity]
            }
            replaced.map(Self.release)
        }

        /// Lets `realm` go if nothing uses it any more; called when its use count reaches zero.
        func releaseIfUnused(_ realm: RealmSession) {
            let address = UInt(bitPattern: Unmanaged.passUnretained(realm).toOpaque())
            let removed = realms.withLock { realms -> Bool in
                guard realms[realm.cacheIdentity] == address, realm.useCount == 0 else { return false }
                realms[realm.cacheIdentity] = nil
                return true
            }
            // Outside the lock: the realm may deinitialise now.
            if removed { Self.release(address) }
        }

        private static func release(_ address: UInt) {
            Unmanaged<RealmSession>.fromOpaque(UnsafeRawPointer(bitPattern: address)!).release()
        }
    }

    /// Each thread's entries, released when the thread ends.
    private static let slot = ThreadSlot { Entries() }

    /// The calling thread's entries.
    static var current: Entries { slot.value }

    /// The entries of `confinement`'s thread, queue or actor.
    static func entries(for confinement: Confinement) -> Entries {
        switch confinement {
        case .thread: return current
        case .queue(let queue): return entries(for: queue)
        case .actor(let isolation):
            guard let actor = isolation.actor else { burrowPreconditionFailure(TrapMessage.wrongThread) }
            return entries(for: actor)
        case .frozen: burrowPreconditionFailure("Frozen realms are not cached.")
        }
    }

    // MARK: Queues

    /// The key under which a queue keeps its entries: the queue's own storage, so they live as
    /// long as the queue, and `DispatchQueue.getSpecific` tells whether code runs on it.
    static let queueKey = DispatchSpecificKey<Entries>()
    /// Serialises giving a queue its entries, and counts the queues given some.
    private static let queuesWithEntries = Locked(0)

    /// The entries kept on `queue`, made on first use.
    static func entries(for queue: DispatchQueue) -> Entries {
        queuesWithEntries.withLock { count in
            if let entries = queue.getSpecific(key: queueKey) { return entries }
            let entries = Entries()
            queue.setSpecific(key: queueKey, value: entries)
            count += 1
            return entries
        }
    }

    /// Whether the calling code runs on the queue that keeps `entries`.
    static func isRunningOnQueue(of entries: Entries) -> Bool {
        DispatchQueue.getSpecific(key: queueKey) === entries
    }

    // MARK: Actors

    /// An actor's entries, with the actor held weakly: an identifier outlives its actor and may
    /// be reused by a new one, which must not find the old one's realms.
    private struct ActorSlot {
        weak var actor: (any Actor)?
        let entries: Entries
    }

    private static let actorSlots = Locked<[ObjectIdentifier: ActorSlot]>([:])

    /// The entries of `actor`, made on first use.
    static func entries(for actor: any Actor) -> Entries {
        actorSlots.withLock { slots in
            let id = ObjectIdentifier(actor)
            if let slot = slots[id], slot.actor === actor { return slot.entries }
            slots = slots.filter { $0.value.actor != nil }
            let entries = Entries()
            slots[id] = ActorSlot(actor: actor, entries: entries)
            return entries
        }
    }

    /// `entries`' live realm for `identity`, with one use counted for the caller.
    static func realm(for identity: String, in entries: Entries) -> RealmSession? {
        entries.realm(for: identity)
    }

    /// Keeps `realm`, which already counts a use, as its thread's, queue's or actor's instance.
    static func store(_ realm: RealmSession) {
        realm.cacheEntries?.store(realm)
    }
}
