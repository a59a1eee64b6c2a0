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
/// the owner and property of a collection) and keeps the version its realm read, as RealmSwift's
/// does: resolved in a realm that has read nothing yet, or one at an older version, the value
/// is read at that version (``Realm/resolve(_:)``). It holds the source value until it is
/// resolved, and lets it go then. Resolve it once.
///
/// Keeping a version keeps its pages from reuse, as a frozen realm does: resolve references
/// soon, or let them go. A reference made inside a write, or while its realm reads an older
/// version than the latest, keeps none (a realm behind it then moves to the latest version);
/// so does one made while 64 others of this process keep theirs for the file.
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
    /// of its file and configuration, the version it was read at, and a snapshot at that
    /// version for the resolving realm to take.
    private final class Handover: @unchecked Sendable {
        /// How many references of one file may keep a snapshot at once: each holds one of
        /// LMDB's reader slots, which every process of the file shares.
        static var pinLimit: Int { 64 }

        /// The value and the snapshot (with the file whose count of snapshots it is in), both
        /// taken (`nil`) by the one resolve, so that the source realm is not kept open after
        /// it. The value's fields read by ``RealmBound/moved(to:)`` are fixed when it was made,
        /// so the resolving thread may read them.
        private let state: Locked<(value: (any RealmBound)?, pin: Pin?)>
        private let identity: String
        /// The version the source realm read (inside a write: the one the write commits as).
        private let version: Int

        /// A snapshot at the reference's version, counted in its file's
        /// ``Coordinator/referenceSnapshots`` until a realm takes it over or it ends.
        private struct Pin {
            let snapshot: Transaction
            let file: Coordinator

            /// Takes the snapshot out of the file's count, for a realm to take over.
            func release() -> Transaction {
                file.referenceSnapshots.subtract(1, ordering: .relaxed)
                return snapshot
            }
        }

        init(value: any RealmBound, from core: RealmCore) {
            identity = core.configuration.identity
            version = core.transaction.id
            state = Locked((value, core.writeState == nil ? Self.pin(version, of: core.coordinator) : nil))
        }

        deinit {
            state.withLock { $0.pin }?.release().abort()
        }

        /// A new snapshot when it reads `version`, the latest; `nil` when the latest is newer,
        /// when the process's references keep ``pinLimit`` snapshots of the file already, or
        /// when LMDB has no reader slot left (the reference then works as one without a
        /// snapshot).
        private static func pin(_ version: Int, of file: Coordinator) -> Pin? {
            let count = file.referenceSnapshots.add(1, ordering: .relaxed).newValue
            if count <= pinLimit, let snapshot = try? file.environment.beginReadTransaction() {
                if snapshot.id == version { return Pin(snapshot: snapshot, file: file) }
                snapshot.abort()
            }
            file.referenceSnapshots.subtract(1, ordering: .relaxed)
            return nil
        }

        var isResolved: Bool { state.withLock { $0.value == nil } }

        func take(for core: RealmCore) -> (any RealmBound)? {
            let taken = state.withLock { state in
                defer { state = (nil, nil) }
                return state
            }
            guard let source = taken.value else { burrowPreconditionFailure("Can only resolve a thread safe reference once.") }
            // Another file holds other objects: nothing to resolve there, and the reference is
            // spent, as RealmSwift's is.
            guard core.configuration.identity == identity else {
                taken.pin?.release().abort()
                return nil
            }
            core.moveForResolving(madeAt: version, pinned: taken.pin?.release())
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
    /// A realm at an older version than the reference's source, or one that has read nothing
    /// since it opened, first moves to the source's version (see ``ThreadSafeReference``);
    /// inside a write the value is read in the write. A realm of another file than the
    /// source's resolves nothing (`nil`), and spends the reference. Traps when the reference
    /// was resolved already.
    public func resolve<Confined>(_ reference: ThreadSafeReference<Confined>) -> Confined? {
        reference.resolve(in: self)
    }
}
