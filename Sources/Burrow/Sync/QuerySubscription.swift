/// A subscription: the objects of `T` that match a query (every object of `T` without one)
/// sync to this file. Add it inside ``SyncSubscriptionSet/update(_:)``.
///
/// ```swift
/// try await realm.subscriptions.update {
///     realm.subscriptions.append(QuerySubscription<Task>(name: "mine") { $0.owner == "ana" && $0.done == false })
///     realm.subscriptions.append(QuerySubscription<Project>(name: "open", where: "closed == false"))
/// }
/// ```
///
/// The server picks the matching rows with SQL (``SubscriptionSQL``): a query compares the
/// object's own properties, links by their target's primary key, and collections' elements.
public struct QuerySubscription<T: Object>: @unchecked Sendable {
    /// The subscription's name, if given.
    public let name: String?
    /// The query; `.constant(true)` for every object.
    let node: PredicateNode

    /// A subscription to the objects of `T` for which `query` holds, or to all of them.
    public init(name: String? = nil, query: ((Query<T>) -> Query<Bool>)? = nil) {
        self.name = name
        node = query.map { $0(Query<T>(.root(ClassInfo.of(T.self)))).node } ?? .constant(true)
    }

    /// A subscription to the objects of `T` matching a query string with `%@` arguments.
    /// A malformed query traps, as `filter(_:)` does with one; use ``init(name:where:)-(_,QueryPredicate)``
    /// for a query that comes from a person.
    public init(name: String? = nil, where predicateFormat: String, _ args: Any...) {
        self.name = name
        do {
            node = try QueryParser.parse(predicateFormat, arguments: args).node
        } catch {
            burrowPreconditionFailure("Invalid subscription query '\(predicateFormat)': \(error)")
        }
    }

    /// A subscription to the objects of `T` matching a query parsed ahead.
    public init(name: String? = nil, where predicate: QueryPredicate) {
        self.name = name
        node = predicate.parsed.node
    }

    init(name: String?, node: PredicateNode) {
        self.name = name
        self.node = node
    }

    var className: String { ClassInfo.of(T.self).className }
}
