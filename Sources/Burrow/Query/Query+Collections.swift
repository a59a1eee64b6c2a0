import Foundation

/// Numbers whose collections `where { }` can aggregate: integers, `Float`, `Double`,
/// `Decimal`, and their optionals.
///
/// Implementation detail of Burrow: conformances and members of this protocol are for Burrow's use, not yours.
public protocol _QueryNumeric: _Persistable {}
extension Int: _QueryNumeric {}
extension Int8: _QueryNumeric {}
extension Int16: _QueryNumeric {}
extension Int32: _QueryNumeric {}
extension Int64: _QueryNumeric {}
extension Float: _QueryNumeric {}
extension Double: _QueryNumeric {}
extension Decimal: _QueryNumeric {}
extension Decimal128: _QueryNumeric {}
extension Optional: _QueryNumeric where Wrapped: _QueryNumeric {}

/// A `Map` as `where { }` sees it: its key and value types.
///
/// Implementation detail of Burrow: conformances and members of this protocol are for Burrow's use, not yours.
public protocol _QueryKeyedCollection {
    associatedtype _QueryKey: _MapKey
    associatedtype _QueryValue: RealmCollectionValue
}

extension Map: _QueryKeyedCollection {
    /// Implementation detail of `_QueryNumeric`; do not use.
    public typealias _QueryKey = Key
    /// Implementation detail of `_QueryNumeric`; do not use.
    public typealias _QueryValue = Value
}

extension Query where T: _QueryCollection {
    /// Whether any element equals `value` (`ANY collection == value`).
    ///
    /// ```swift
    /// kennels.where { $0.tags == "small" }
    /// ```
    public static func == (lhs: Query<T>, rhs: T._QueryElement) -> Query<Bool> { lhs.compare(.equal, queryArgument(rhs)) }
    /// Whether any element differs from `value`.
    public static func != (lhs: Query<T>, rhs: T._QueryElement) -> Query<Bool> { lhs.compare(.notEqual, queryArgument(rhs)) }

    /// Whether any element is one of `values` (`ANY collection IN {…}`).
    ///
    /// ```swift
    /// kennels.where { $0.tags.containsAny(in: ["small", "quiet"]) }
    /// ```
    public func containsAny<S: Sequence>(in values: S) -> Query<Bool> where S.Element == T._QueryElement {
        Query<Bool>(.predicate(.comparison(Comparison(
            lhs: lhsOperand, op: .in, rhs: .list(values.map(queryArgument), position: 0), quantifier: .any))))
    }
}

extension Query where T: _QueryCollection, T._QueryElement.PersistedType: _QueryComparable {
    /// Whether any element is less than `value`.
    public static func < (lhs: Query<T>, rhs: T._QueryElement) -> Query<Bool> { lhs.compare(.less, rhs._persistedValue) }
    /// Whether any element is at most `value`.
    public static func <= (lhs: Query<T>, rhs: T._QueryElement) -> Query<Bool> { lhs.compare(.lessOrEqual, rhs._persistedValue) }
    /// Whether any element is greater than `value`.
    public static func > (lhs: Query<T>, rhs: T._QueryElement) -> Query<Bool> { lhs.compare(.greater, rhs._persistedValue) }
    /// Whether any element is at least `value`.
    public static func >= (lhs: Query<T>, rhs: T._QueryElement) -> Query<Bool> { lhs.compare(.greaterOrEqual, rhs._persistedValue) }
}

extension Query where T: _QueryCollection, T._QueryElement.PersistedType: _QueryNumeric {
    /// The smallest element (`@min`); `nil` for an empty collection.
    ///
    /// ```swift
    /// kennels.where { $0.scores.min > 1 && $0.scores.avg >= 3 }
    /// ```
    public var min: Query<T._QueryElement> { aggregate("@min") }
    /// The largest element (`@max`).
    public var max: Query<T._QueryElement> { aggregate("@max") }
    /// The mean of the elements (`@avg`).
    public var avg: Query<T._QueryElement> { aggregate("@avg") }
    /// The sum of the elements (`@sum`); 0 for an empty collection.
    public var sum: Query<T._QueryElement> { aggregate("@sum") }

    private func aggregate(_ name: String) -> Query<T._QueryElement> {
        guard case .keyPath(let path, let owner) = expression else {
            burrowPreconditionFailure("An aggregate in where { } needs a collection property.")
        }
        return Query<T._QueryElement>(.keyPath(path + "." + name, owner: owner))
    }

    /// Every element within the bounds, both included: `@min >= lower && @max <= upper`, as
    /// RealmSwift reads it (an empty collection has no minimum, and matches nothing).
    ///
    /// ```swift
    /// kennels.where { $0.scores.contains(1...5) }
    /// ```
    public func contains(_ range: ClosedRange<T._QueryElement>) -> Query<Bool> where T._QueryElement: Comparable {
        min.compare(.greaterOrEqual, range.lowerBound._persistedValue) && max.compare(.lessOrEqual, range.upperBound._persistedValue)
    }

    /// Every element at least the lower bound and below the upper one.
    public func contains(_ range: Range<T._QueryElement>) -> Query<Bool> where T._QueryElement: Comparable {
        min.compare(.greaterOrEqual, range.lowerBound._persistedValue) && max.compare(.less, range.upperBound._persistedValue)
    }
}

extension Query where T: _QueryKeyedCollection {
    /// The map's keys, any of which a comparison matches (`@allKeys`).
    ///
    /// ```swift
    /// ledgers.where { $0.scores.keys == "chess" }
    /// ```
    public var keys: Query<String> { member("@allKeys") }

    /// The map's values, any of which a comparison matches (`@allValues`).
    public var values: Query<T._QueryValue> { member("@allValues") }

    /// The value under `key`; a missing key reads as `nil`.
    ///
    /// ```swift
    /// ledgers.where { $0.scores["chess"] > 1000 }
    /// ledgers.where { $0.pets["home"].name == "Rex" }
    /// ```
    public subscript(member: T._QueryKey) -> Query<T._QueryValue> {
        guard case .keyPath(let path, let owner) = expression else {
            burrowPreconditionFailure("A map subscript in where { } needs a map property.")
        }
        return Query<T._QueryValue>(.mapValue(map: path, key: member._mapKey, rest: nil, owner: owner))
    }

    private func member<V>(_ name: String) -> Query<V> {
        guard case .keyPath(let path, let owner) = expression else {
            burrowPreconditionFailure("'\(name)' in where { } needs a map property.")
        }
        return Query<V>(.keyPath(path + "." + name, owner: owner))
    }
}

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
        return Query<Int>(.subqueryCount(collection: collection, predicate: relative))
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
