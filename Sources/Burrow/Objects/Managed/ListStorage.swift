/// Where a managed ``List`` keeps its elements: a list property's database
/// (``ManagedList``), or a list nested in an `AnyRealmValue` (``NestedList``).
///
/// Every mutation traps outside a write transaction and on an index out of bounds, with
/// RealmSwift's messages.
protocol ListStorage: AnyObject {
    var realm: RealmCore { get }
    /// Whether the list's owner, or the value holding a nested list, is gone.
    var isInvalidated: Bool { get }
    var count: Int { get }
    /// The same list read through `core` (frozen or live, same file), or `nil` where its owner
    /// does not exist.
    func storage(in core: RealmCore) -> (any ListStorage)?
    /// The element at `index`, read as an `E`: the target object of a link, a live collection
    /// for a nested one.
    func element<E: RealmCollectionValue>(at index: Int, as type: E.Type) -> E
    func append(_ element: any _Persistable)
    func insert(_ element: any _Persistable, at index: Int)
    func set(_ element: any _Persistable, at index: Int)
    func remove(at index: Int)
    func removeAll()
    func move(from: Int, to: Int)
    func swapAt(_ first: Int, _ second: Int)
}
