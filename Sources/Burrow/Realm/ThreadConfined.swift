/// What lives in one realm instance and so belongs where that realm is confined: realms,
/// managed objects, results and collections.
///
/// To use one elsewhere, freeze it (``freeze()``: any thread may read the frozen value) or hand
/// it over with a ``ThreadSafeReference``.
///
/// ```swift
/// let frozen = dog.freeze()
/// DispatchQueue.global().async { print(frozen.name) }   // any thread may read it
/// ```
public protocol ThreadConfined {
    /// The realm the value belongs to, or `nil` while unmanaged.
    var realm: Realm? { get }
    /// Whether the value can no longer be read (its object or owner was deleted).
    var isInvalidated: Bool { get }
    /// Whether the value is a frozen snapshot, readable from any thread and never changing.
    var isFrozen: Bool { get }
    /// A frozen snapshot of the value at its realm's current version (itself when frozen).
    func freeze() -> Self
    /// The live value in the calling thread's realm at the latest version (itself when live),
    /// or `nil` when it no longer exists there.
    func thaw() -> Self?
}
