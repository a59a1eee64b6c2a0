import LMDB

/// A hand-over of a realm, object, results or collection to another thread, queue or actor.
///
/// ```swift
/// let reference = ThreadSafeReference(to: person)
/// DispatchQueue.global().async {
///     let realm = try! Realm()
///     guard let person = realm.resolve(reference) else { return }  // deleted meanwhile
///     print(person.name)
/// }
/// ```
///
/// The reference remembers what it refers to (its class and object key, the query of results,
/// the owner and property of a collection) and the version its realm read; it pins no version
/// of its own. It holds the source value until it is resolved, and lets it go then. Resolve it
/// once, with ``Realm/resolve(_:)``.
public struct ThreadSafeReference<Confined: ThreadConfined>: Sendable {
    private let handover: Handover

    /// Whether the reference was resolved already (it can be resolved once).
    public var isInvalidated: Bool { handover.isResolved }

    /// A reference to `threadConfined`, which must be managed and valid; it stays usable.
    ///
    /// Traps for an unmanaged or deleted value ("Cannot construct reference to unmanaged
    /// object", "… invalidated object").
    public init(to threadConfined: Confined) {
        guard let bound = threadConfined as? any RealmBound, let core = bound.boundRealm else {
            burrowPreconditionFailure("Cannot construct reference to unmanaged object, which can be passed across threads directly")
        }
        core.verifyThread()
        burrowPrecondition(!threadConfined.isInvalidated, "Cannot construct reference to invalidated object")
        handover = Handover(value: bound, from: core)
    }

    /// The value in `realm`, or `nil` when it no longer exists there.
    func resolve(in realm: Realm) -> Confined? {
        let core = realm.core
        core.verifyThread()
        guard let value = handover.take(for: core) else { return nil }
        return value as? Confined
    }

    /// What a reference carries across: the source value until it is resolved, the identity
    /// of its file and configuration, and the version it was read at.
    private final class Handover: @unchecked Sendable {
        /// The value, taken (`nil`) by the one resolve, so that the source realm is not kept
        /// open after it. The value's fields read by ``RealmBound/moved(to:)`` are fixed when it
        /// was made, so the resolving thread may read them.
        private let value: Locked<(any RealmBound)?>
        private let identity: String
        /// The version the source realm read (inside a write: the one the write commits as).
        private let version: Int

        init(value: any RealmBound, from core: RealmCore) {
            self.value = Locked(value)
            identity = core.configuration.identity
            version = core.transaction.id
        }

        var isResolved: Bool { value.withLock { $0 == nil } }

        func take(for core: RealmCore) -> (any RealmBound)? {
            burrowPrecondition(core.configuration.identity == identity,
                               "Cannot resolve thread safe reference in Realm with different configuration than the source Realm.")
            let taken = value.withLock { value -> (any RealmBound)? in
                defer { value = nil }
                return value
            }
            guard let source = taken else { burrowPreconditionFailure("Can only resolve a thread safe reference once.") }
            // A realm behind the source's version moves up to it; inside a write it already reads
            // the latest commit, and the source's own write when it is the same one.
            if core.writeState == nil, !core.isFrozen, core.transaction.id < version { core.refresh() }
            return source.moved(to: core)
        }
    }
}

extension Realm {
    /// The value `reference` refers to, read in this realm; `nil` when it was deleted since.
    ///
    /// ```swift
    /// let dogs = realm.resolve(reference)
    /// ```
    /// A realm at an older version than the reference's source moves to the latest version
    /// first. Traps when the reference was resolved already, and when this realm has another
    /// configuration than the source's.
    public func resolve<Confined>(_ reference: ThreadSafeReference<Confined>) -> Confined? {
        reference.resolve(in: self)
    }
}
