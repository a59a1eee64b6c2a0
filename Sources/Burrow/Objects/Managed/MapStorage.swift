/// Where a managed ``Map`` keeps its entries: a map property's database (``ManagedMap``), or a
/// dictionary nested in an `AnyRealmValue` (``NestedMap``).
protocol MapStorage: AnyObject {
    var realm: RealmCore { get }
    /// Whether the map's owner, or the value holding a nested dictionary, is gone.
    var isInvalidated: Bool { get }
    /// The number of entries.
    var count: Int { get }
    /// The same map read through `core` (frozen or live, same file), or `nil` where its owner
    /// does not exist.
    func storage(in core: RealmCore) -> (any MapStorage)?
    /// The keys, in UTF-8 byte order.
    var keys: [String] { get }
    /// Whether the map has `key`.
    func contains(_ key: String) -> Bool
    /// The value under `key` read as a `V`, or `nil` when there is no such key.
    func value<V: RealmCollectionValue>(forKey key: String, as type: V.Type) -> V?
    /// The values, in key order.
    func values<V: RealmCollectionValue>(as type: V.Type) -> [V]
    func set(_ element: any _Persistable, for key: String)
    func remove(_ key: String)
    func removeAll()
}
