import Foundation

extension Query where T == Bool {
    /// How many objects of a collection meet this condition on them, for a condition whose key
    /// paths all go through that one list, set or map of objects (`SUBQUERY(…).@count`).
    ///
    /// ```swift
    /// kennels.where { ($0.dogs.age > 5 && $0.dogs.name != "Rex").count >= 2 }
    /// ```
    public var count: Query<Int> {
        var collection: String?
        let relative = Self.relative(self.node, collection: &collection)
        guard let collection else {
            burrowPreconditionFailure("count in where { } needs a condition on the objects of a collection, such as ($0.dogs.age > 5).count.")
        }
        return spelled(Query<Int>(.subqueryCount(collection: collection, predicate: relative))) { spelling in
            // RealmSwift names the element `$col1` and reads the collection's key paths from it.
            let inner = spelling.condition.replacingOccurrences(of: "ANY \(collection).", with: "$col1.")
                .replacingOccurrences(of: "\(collection).", with: "$col1.")
            return .path("SUBQUERY(\(collection), $col1, \(inner)).@count", arguments: spelling.arguments, requiresAny: false)
        }
    }

    /// `node` with its key paths made relative to the collection they start with; traps when
    /// two start with different collections.
    private static func relative(_ node: PredicateNode, collection: inout String?) -> PredicateNode {
        switch node {
        case .constant: return node
        case .and(let a, let b): return .and(relative(a, collection: &collection), relative(b, collection: &collection))
        case .or(let a, let b): return .or(relative(a, collection: &collection), relative(b, collection: &collection))
        case .not(let inner): return .not(relative(inner, collection: &collection))
        case .comparison(var comparison):
            comparison.lhs = relative(comparison.lhs, collection: &collection)
            comparison.rhs = relative(comparison.rhs, collection: &collection)
            return .comparison(comparison)
        }
    }

    private static func relative(_ operand: Operand, collection: inout String?) -> Operand {
        guard case .keyPath(let path, let position) = operand else { return operand }
        guard let dot = path.firstIndex(of: ".") else {
            burrowPreconditionFailure("count in where { } needs every key path to go through the collection; '\(path)' does not.")
        }
        let head = String(path[..<dot])
        burrowPrecondition(collection == nil || collection == head,
                           "count in where { } needs one collection; the condition uses both '\(collection ?? "")' and '\(head)'.")
        collection = head
        return .keyPath(String(path[path.index(after: dot)...]), position: position)
    }
}
