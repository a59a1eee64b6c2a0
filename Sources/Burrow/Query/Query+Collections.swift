import Foundation

/// Types whose collections `where { }` can aggregate and order: integers, `Float`, `Double`,
/// `Decimal`, `Decimal128`, `Date`, `AnyRealmValue`, and their optionals.
///
/// Implementation detail of Burrow: conformances and members of this protocol are for Burrow's use, not yours.
public protocol _QueryNumeric: _QueryComparable {}
extension Int: _QueryNumeric {}
extension Int8: _QueryNumeric {}
extension Int16: _QueryNumeric {}
extension Int32: _QueryNumeric {}
extension Int64: _QueryNumeric {}
extension Float: _QueryNumeric {}
extension Double: _QueryNumeric {}
extension Decimal: _QueryNumeric {}
extension Decimal128: _QueryNumeric {}
extension Date: _QueryNumeric {}
extension AnyRealmValue: _QueryNumeric {}
extension Optional: _QueryNumeric where Wrapped: _QueryNumeric {}

extension Query where T: RealmCollection {
    /// Whether any element equals `value` (`ANY collection == value`).
    ///
    /// ```swift
    /// kennels.where { $0.tags == "small" }
    /// ```
    public static func == (lhs: Query<T>, rhs: T.Element) -> Query<Bool> { lhs.compare(.equal, queryArgument(rhs)) }
    /// Whether any element differs from `value`.
    public static func != (lhs: Query<T>, rhs: T.Element) -> Query<Bool> { lhs.compare(.notEqual, queryArgument(rhs)) }

    /// Whether the collection holds `value` (`value IN collection`).
    ///
    /// ```swift
    /// kennels.where { $0.tags.contains("small") }
    /// ```
    public func contains(_ value: T.Element) -> Query<Bool> { containing(queryArgument(value)) }

    /// Whether any element is one of `values` (`ANY collection IN {…}`).
    ///
    /// ```swift
    /// kennels.where { $0.tags.containsAny(in: ["small", "quiet"]) }
    /// ```
    public func containsAny<S: Sequence>(in values: S) -> Query<Bool> where S.Element == T.Element {
        anyElement(in: values.map(queryArgument))
    }

    /// The number of elements (`@count`).
    ///
    /// ```swift
    /// people.where { $0.dogs.count > 2 }
    /// ```
    public var count: Query<Int> { collectionMember("@count") }

    /// A property of any of the collection's objects.
    ///
    /// ```swift
    /// people.where { $0.dogs.age > 10 }          // any dog older than 10
    /// ```
    public subscript<V>(dynamicMember keyPath: KeyPath<T.Element, V>) -> Query<V> where T.Element: ObjectBase {
        linkedProperty(keyPath)
    }
}

extension Query where T: RealmCollection, T.Element.PersistedType: RealmCollectionValue {
    /// The stored form of the elements (an enum's raw values, a custom type's stored ones).
    ///
    /// ```swift
    /// things.where { $0.sizes.persistableValue.contains(3) }
    /// ```
    public var persistableValue: Query<AnyRealmCollection<T.Element.PersistedType>> { retyped() }
}

extension Query where T: RealmCollection, T.Element.PersistedType: _QueryComparable {
    /// Whether any element is less than `value`.
    public static func < (lhs: Query<T>, rhs: T.Element) -> Query<Bool> { lhs.compare(.less, rhs._persistedValue) }
    /// Whether any element is at most `value`.
    public static func <= (lhs: Query<T>, rhs: T.Element) -> Query<Bool> { lhs.compare(.lessOrEqual, rhs._persistedValue) }
    /// Whether any element is greater than `value`.
    public static func > (lhs: Query<T>, rhs: T.Element) -> Query<Bool> { lhs.compare(.greater, rhs._persistedValue) }
    /// Whether any element is at least `value`.
    public static func >= (lhs: Query<T>, rhs: T.Element) -> Query<Bool> { lhs.compare(.greaterOrEqual, rhs._persistedValue) }
}

extension Query where T: RealmCollection, T.Element.PersistedType: _QueryNumeric {
    /// The smallest element (`@min`); `nil` for an empty collection.
    ///
    /// ```swift
    /// kennels.where { $0.scores.min > 1 && $0.scores.avg >= 3 }
    /// ```
    public var min: Query<T.Element> { collectionMember("@min") }
    /// The largest element (`@max`).
    public var max: Query<T.Element> { collectionMember("@max") }
    /// The mean of the elements (`@avg`).
    public var avg: Query<T.Element> { collectionMember("@avg") }
    /// The sum of the elements (`@sum`); 0 for an empty collection.
    public var sum: Query<T.Element> { collectionMember("@sum") }
}

extension Query where T: RealmCollection, T.Element: Comparable {
    /// Every element within the bounds, both included: `@min >= lower && @max <= upper`, as
    /// RealmSwift reads it (an empty collection has no minimum, and matches nothing).
    ///
    /// ```swift
    /// kennels.where { $0.scores.contains(1...5) }
    /// ```
    public func contains(_ range: ClosedRange<T.Element>) -> Query<Bool> {
        everyElement(from: range.lowerBound._persistedValue, to: range.upperBound._persistedValue, including: true)
    }

    /// Every element at least the lower bound and below the upper one.
    public func contains(_ range: Range<T.Element>) -> Query<Bool> {
        everyElement(from: range.lowerBound._persistedValue, to: range.upperBound._persistedValue, including: false)
    }
}

extension Query where T: RealmCollection, T.Element: OptionalProtocol, T.Element.Wrapped: Comparable {
    /// Every element within the bounds, both included, for a collection of optionals.
    public func contains(_ range: ClosedRange<T.Element.Wrapped>) -> Query<Bool> {
        everyElement(from: queryArgument(of: range.lowerBound), to: queryArgument(of: range.upperBound), including: true)
    }

    /// Every element at least the lower bound and below the upper one, for a collection of
    /// optionals.
    public func contains(_ range: Range<T.Element.Wrapped>) -> Query<Bool> {
        everyElement(from: queryArgument(of: range.lowerBound), to: queryArgument(of: range.upperBound), including: false)
    }
}

extension Query where T: _HasPersistedType, T.PersistedType: _QueryNumeric {
    /// The smallest value of this property among the objects of the collection the key path
    /// goes through (`dogs.@min.age`).
    ///
    /// ```swift
    /// people.where { $0.dogs.age.min >= 2 }
    /// ```
    /// A key path through no collection is refused when the query runs.
    public var min: Query<T> { collectionAggregate("@min") }
    /// The largest value of this property among the collection's objects (`dogs.@max.age`).
    public var max: Query<T> { collectionAggregate("@max") }
    /// The mean of this property over the collection's objects (`dogs.@avg.age`).
    public var avg: Query<T> { collectionAggregate("@avg") }
    /// The sum of this property over the collection's objects (`dogs.@sum.age`).
    public var sum: Query<T> { collectionAggregate("@sum") }
}

extension Query {
    /// The key path of a collection property with `member` (`@count`, `@min`, `@allKeys`…)
    /// appended.
    func collectionMember<V>(_ member: String) -> Query<V> {
        guard case .keyPath(let path, let owner) = expression else {
            burrowPreconditionFailure("'\(member)' in where { } needs a collection property.")
        }
        // An aggregate reads one value of the collection; its keys and values are many.
        let requiresAny = member == "@allKeys" || member == "@allValues"
        return spelled(Query<V>(.keyPath(path + "." + member, owner: owner))) { $0.appending(member, requiresAny: requiresAny) }
    }

    /// An aggregate of the objects of the collection the key path starts with: `aggregate`
    /// after its first step (`dogs.age` → `dogs.@avg.age`), or at the end of a one-step path.
    func collectionAggregate(_ aggregate: String) -> Query<T> {
        guard case .keyPath(let path, let owner) = expression else {
            burrowPreconditionFailure("'\(aggregate)' in where { } needs a property of the objects of a collection.")
        }
        let aggregated = path.firstIndex(of: ".").map { path[..<$0] + "." + aggregate + path[$0...] } ?? path + "." + aggregate
        return spelled(Query(.keyPath(aggregated, owner: owner))) { .path(aggregated, arguments: $0.arguments, requiresAny: false) }
    }

    /// Whether any element is one of `values` (`ANY collection IN {…}`).
    func anyElement(in values: [_PersistedValue]) -> Query<Bool> {
        spelled(Query<Bool>(.predicate(.comparison(Comparison(lhs: lhsOperand, op: .in, rhs: .list(values, position: 0), quantifier: .any))))) {
            QuerySpelling.path($0.format, arguments: $0.arguments, requiresAny: true).comparing("IN", value: values.map { $0.anyValue ?? NSNull() })
        }
    }

    /// Whether the collection holds `value` (`value IN collection`).
    func containing(_ value: _PersistedValue) -> Query<Bool> {
        spelled(compare(.equal, value)) { $0.comparison("%@ IN " + $0.format, arguments: [value.anyValue ?? NSNull()]) }
    }

    /// Whether every element lies between the bounds: `@min >= lower && @max <(=) upper`.
    func everyElement(from lower: _PersistedValue, to upper: _PersistedValue, including: Bool) -> Query<Bool> {
        let min: Query<Bool> = collectionMember("@min")
        let max: Query<Bool> = collectionMember("@max")
        return min.compare(.greaterOrEqual, lower) && max.compare(including ? .lessOrEqual : .less, upper)
    }
}
