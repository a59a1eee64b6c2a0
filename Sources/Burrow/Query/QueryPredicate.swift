/// A query parsed and checked for syntax ahead of use, for queries that come from people:
/// unlike `filter(_:)` with a string, a malformed query throws instead of trapping.
///
/// ```swift
/// let predicate = try QueryPredicate("age < %@ SORT(name ASC) LIMIT(20)", 2)
/// let page = realm.objects(Dog.self).filter(predicate)
/// ```
///
/// Property names and types are checked when the predicate meets a class: use
/// ``Results/validate(_:)`` to have that throw too.
public struct QueryPredicate: Sendable {
    let parsed: ParsedQuery

    /// Parses `format` with `%@` and `%K` arguments.
    ///
    /// - Throws: ``Realm/Error/Code/invalidQuery`` with the position and the reason.
    public init(_ format: String, _ args: Any...) throws {
        parsed = try QueryParser.parse(format, arguments: args)
    }

    /// Parses `format` with an array of arguments.
    ///
    /// - Throws: ``Realm/Error/Code/invalidQuery`` with the position and the reason.
    public init(format: String, argumentArray: [Any]) throws {
        parsed = try QueryParser.parse(format, arguments: argumentArray)
    }

    init(parsed: ParsedQuery) {
        self.parsed = parsed
    }

    /// A predicate from a tree already built (by the type-safe builder).
    init(node: PredicateNode) {
        parsed = ParsedQuery(node: node)
    }
}
