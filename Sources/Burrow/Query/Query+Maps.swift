import Foundation

extension Query where T: RealmKeyedCollection {
    /// Whether any value equals `value` (`ANY map == value`).
    public static func == (lhs: Query<T>, rhs: T.Value) -> Query<Bool> { lhs.compare(.equal, queryArgument(rhs)) }
    /// Whether any value differs from `value`.
    public static func != (lhs: Query<T>, rhs: T.Value) -> Query<Bool> { lhs.compare(.notEqual, queryArgument(rhs)) }

    /// Whether the map holds `value` under some key (`value IN map`).
    ///
    /// ```swift
    /// ledgers.where { $0.scores.contains(1200) }
    /// ```
    public func contains(_ value: T.Value) -> Query<Bool> { containing(queryArgument(value)) }

    /// Whether any value is one of `values` (`ANY map IN {…}`).
    public func containsAny<S: Sequence>(in values: S) -> Query<Bool> where S.Element == T.Value {
        anyElement(in: values.map(queryArgument))
    }

    /// The number of entries (`@count`).
    public var count: Query<Int> { collectionMember("@count") }

    /// The map's values, any of which a comparison matches (`@allValues`).
    public var values: Query<T.Value> { collectionMember("@allValues") }

    /// The value under `key`; a missing key reads as `nil`.
    ///
    /// ```swift
    /// ledgers.where { $0.scores["chess"] > 1000 }
    /// ledgers.where { $0.pets["home"].name == "Rex" }
    /// ```
    public subscript(member: T.Key) -> Query<T.Value> {
        guard case .keyPath(let path, let owner) = expression else {
            burrowPreconditionFailure("A map subscript in where { } needs a map property.")
        }
        return spelled(Query<T.Value>(.mapValue(map: path, key: member._mapKey, rest: nil, owner: owner))) {
            .path($0.format + "[%@]", arguments: $0.arguments + [member._mapKey], requiresAny: false)
        }
    }
}

extension Query where T: RealmKeyedCollection, T.Key == String {
    /// The map's keys, any of which a comparison matches (`@allKeys`).
    ///
    /// ```swift
    /// ledgers.where { $0.scores.keys == "chess" }
    /// ```
    public var keys: Query<String> { collectionMember("@allKeys") }
}

extension Query where T: RealmKeyedCollection, T.Value.PersistedType: _QueryComparable {
    /// Whether any value is less than `value`.
    public static func < (lhs: Query<T>, rhs: T.Value) -> Query<Bool> { lhs.compare(.less, rhs._persistedValue) }
    /// Whether any value is at most `value`.
    public static func <= (lhs: Query<T>, rhs: T.Value) -> Query<Bool> { lhs.compare(.lessOrEqual, rhs._persistedValue) }
    /// Whether any value is greater than `value`.
    public static func > (lhs: Query<T>, rhs: T.Value) -> Query<Bool> { lhs.compare(.greater, rhs._persistedValue) }
    /// Whether any value is at least `value`.
    public static func >= (lhs: Query<T>, rhs: T.Value) -> Query<Bool> { lhs.compare(.greaterOrEqual, rhs._persistedValue) }
}

extension Query where T: RealmKeyedCollection, T.Value.PersistedType: _QueryNumeric {
    /// The smallest value (`@min`); `nil` for an empty map.
    ///
    /// ```swift
    /// ledgers.where { $0.scores.max > 2000 }
    /// ```
    public var min: Query<T.Value> { collectionMember("@min") }
    /// The largest value (`@max`).
    public var max: Query<T.Value> { collectionMember("@max") }
    /// The mean of the values (`@avg`).
    public var avg: Query<T.Value> { collectionMember("@avg") }
    /// The sum of the values (`@sum`); 0 for an empty map.
    public var sum: Query<T.Value> { collectionMember("@sum") }
}

extension Query where T: RealmKeyedCollection, T.Value: Comparable {
    /// Every value within the bounds, both included (`@min >= lower && @max <= upper`).
    ///
    /// ```swift
    /// ledgers.where { $0.scores.contains(1000...2000) }
    /// ```
    public func contains(_ range: ClosedRange<T.Value>) -> Query<Bool> {
        everyElement(from: range.lowerBound._persistedValue, to: range.upperBound._persistedValue, including: true)
    }

    /// Every value at least the lower bound and below the upper one.
    public func contains(_ range: Range<T.Value>) -> Query<Bool> {
        everyElement(from: range.lowerBound._persistedValue, to: range.upperBound._persistedValue, including: false)
    }
}

extension Query where T: RealmKeyedCollection, T.Value: OptionalProtocol, T.Value.Wrapped: Comparable {
    /// Every value within the bounds, both included, for a map of optionals.
    public func contains(_ range: ClosedRange<T.Value.Wrapped>) -> Query<Bool> {
        everyElement(from: queryArgument(of: range.lowerBound), to: queryArgument(of: range.upperBound), including: true)
    }

    /// Every value at least the lower bound and below the upper one, for a map of optionals.
    public func contains(_ range: Range<T.Value.Wrapped>) -> Query<Bool> {
        everyElement(from: queryArgument(of: range.lowerBound), to: queryArgument(of: range.upperBound), including: false)
    }
}

extension Query where T: RealmKeyedCollection, T.Value.PersistedType: RealmCollectionValue {
    /// The stored form of the values (an enum's raw values, a custom type's stored ones).
    public var persistableValue: Query<Map<T.Key, T.Value.PersistedType>> { retyped() }
}
