/// Bounds on the shape of a predicate, whatever built it (the string language, the type-safe
/// builder): the parser, the compiler and every other walk of a tree recurse, and a query's
/// length must not be able to drive them past the stack of any thread (512 KiB included).
///
/// Chains of `AND` or `OR` are built balanced (``PredicateNode/balanced(_:_:)``), so thousands
/// of terms stay a few levels deep; what remains bounded is nesting, the number of terms, and
/// key path length.
enum PredicateLimits {
    /// Deepest tree of `AND`, `OR`, `NOT` and `SUBQUERY` levels.
    static let maximumDepth = 256
    /// Most comparisons in one predicate.
    static let maximumComparisons = 100_000
    /// Most segments in one key path (`owner.address.city` has three).
    static let maximumKeyPathSegments = 32
    /// Deepest nesting of `SUBQUERY` inside `SUBQUERY`.
    static let maximumSubqueryNesting = 16

    /// Checks `node` against every bound, without recursion.
    ///
    /// - Throws: ``Realm/Error/Code/invalidQuery`` naming the bound and where it was passed.
    static func check(_ node: PredicateNode) throws(Realm.Error) {
        // The common lone comparison without a subquery, checked without the walk's arrays.
        if case .comparison(let comparison) = node, !comparison.lhs.isSubquery, !comparison.rhs.isSubquery {
            try checkPath(of: comparison.lhs)
            try checkPath(of: comparison.rhs)
            return
        }
        var pending: [(node: PredicateNode, depth: Int, subqueries: Int)] = [(node, 1, 0)]
        var comparisons = 0
        while let (node, depth, subqueries) = pending.popLast() {
            guard depth <= maximumDepth else {
                throw QueryError.at(position(of: node), "the query nests deeper than \(maximumDepth) levels")
            }
            switch node {
            case .constant:
                break
            case .and(let lhs, let rhs), .or(let lhs, let rhs):
                pending.append((lhs, depth + 1, subqueries))
                pending.append((rhs, depth + 1, subqueries))
            case .not(let inner):
                pending.append((inner, depth + 1, subqueries))
            case .comparison(let comparison):
                comparisons += 1
                guard comparisons <= maximumComparisons else {
                    throw QueryError.at(comparison.position, "the query has more than \(maximumComparisons) comparisons")
                }
                for operand in [comparison.lhs, comparison.rhs] {
                    try checkPath(of: operand)
                    if case .subqueryCount(_, let predicate, let position) = operand {
                        guard subqueries < maximumSubqueryNesting else {
                            throw QueryError.at(position, "SUBQUERY nests deeper than \(maximumSubqueryNesting) levels")
                        }
                        pending.append((predicate, depth + 1, subqueries + 1))
                    }
                }
            }
        }
    }

    private static func checkPath(of operand: Operand) throws(Realm.Error) {
        func segments(_ path: String) -> Int { path.utf8.count { $0 == UInt8(ascii: ".") } + 1 }
        let count: Int
        switch operand {
        // A path has at most as many segments as bytes: a short one needs no count.
        case .keyPath(let path, _) where path.utf8.count <= maximumKeyPathSegments: return
        case .keyPath(let path, _): count = segments(path)
        case .mapValue(let map, _, let rest, _): count = segments(map) + 1 + (rest.map(segments) ?? 0)
        case .mixedPath(let property, let steps, _): count = segments(property) + steps.count
        default: return
        }
        guard count <= maximumKeyPathSegments else {
            throw QueryError.at(operand.position, "a key path has more than \(maximumKeyPathSegments) segments")
        }
    }

    private static func position(of node: PredicateNode) -> Int {
        var node = node
        while true {
            switch node {
            case .constant: return 0
            case .comparison(let comparison): return comparison.position
            case .and(let lhs, _), .or(let lhs, _), .not(let lhs): node = lhs
            }
        }
    }
}

extension PredicateNode {
    /// `nodes` joined by `combine` into a balanced tree, in order: a chain of `n` terms is
    /// `log2(n)` levels deep instead of `n`.
    static func balanced(_ nodes: ArraySlice<PredicateNode>, _ combine: (PredicateNode, PredicateNode) -> PredicateNode) -> PredicateNode {
        burrowPrecondition(!nodes.isEmpty, "A chain of predicates needs a term.")
        if nodes.count == 1 { return nodes[nodes.startIndex] }
        let middle = nodes.startIndex + nodes.count / 2
        return combine(balanced(nodes[..<middle], combine), balanced(nodes[middle...], combine))
    }
}

private extension Operand {
    var isSubquery: Bool {
        if case .subqueryCount = self { return true }
        return false
    }
}
