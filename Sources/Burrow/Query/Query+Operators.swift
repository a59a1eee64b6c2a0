import Foundation

extension Query where T: _Persistable {
    /// Equal to `value`.
    public static func == (lhs: Query<T>, rhs: T) -> Query<Bool> { lhs.compare(.equal, queryArgument(rhs)) }
    /// Not equal to `value`.
    public static func != (lhs: Query<T>, rhs: T) -> Query<Bool> { lhs.compare(.notEqual, queryArgument(rhs)) }
    /// Equal to another property.
    public static func == (lhs: Query<T>, rhs: Query<T>) -> Query<Bool> { lhs.compare(.equal, rhs) }
    /// Not equal to another property.
    public static func != (lhs: Query<T>, rhs: Query<T>) -> Query<Bool> { lhs.compare(.notEqual, rhs) }

    /// Equal to one of `collection`'s values.
    ///
    /// ```swift
    /// people.where { $0.id.in([1, 2, 3]) }
    /// ```
    public func `in`<C: Sequence>(_ collection: C) -> Query<Bool> where C.Element == T {
        let values = collection.map(queryArgument)
        return spelled(Query<Bool>(.predicate(.comparison(Comparison(lhs: lhsOperand, op: .in, rhs: .list(values, position: 0)))))) {
            $0.comparing("IN", value: values.map { $0.anyValue ?? NSNull() })
        }
    }
}

extension Query {
    /// Equal to `value`, for generic code that knows `T` only as a stored type
    /// (`T: _RealmSchemaDiscoverable`), as RealmSwift's `==` accepts it.
    ///
    /// ```swift
    /// func isNil<T: _RealmSchemaDiscoverable & ExpressibleByNilLiteral>(_ q: Query<T>) -> Query<Bool> { q == nil }
    /// ```
    @_disfavoredOverload
    public static func == (lhs: Query<T>, rhs: T) -> Query<Bool> { lhs.compare(.equal, queryArgument(of: rhs)) }
    /// Not equal to `value`, for generic code (see ``==(_:_:)``).
    @_disfavoredOverload
    public static func != (lhs: Query<T>, rhs: T) -> Query<Bool> { lhs.compare(.notEqual, queryArgument(of: rhs)) }
}

extension Query where T: _Persistable, T.PersistedType: _QueryComparable {
    public static func < (lhs: Query<T>, rhs: T) -> Query<Bool> { lhs.compare(.less, rhs._persistedValue) }
    public static func <= (lhs: Query<T>, rhs: T) -> Query<Bool> { lhs.compare(.lessOrEqual, rhs._persistedValue) }
    public static func > (lhs: Query<T>, rhs: T) -> Query<Bool> { lhs.compare(.greater, rhs._persistedValue) }
    public static func >= (lhs: Query<T>, rhs: T) -> Query<Bool> { lhs.compare(.greaterOrEqual, rhs._persistedValue) }
    public static func < (lhs: Query<T>, rhs: Query<T>) -> Query<Bool> { lhs.compare(.less, rhs) }
    public static func <= (lhs: Query<T>, rhs: Query<T>) -> Query<Bool> { lhs.compare(.lessOrEqual, rhs) }
    public static func > (lhs: Query<T>, rhs: Query<T>) -> Query<Bool> { lhs.compare(.greater, rhs) }
    public static func >= (lhs: Query<T>, rhs: Query<T>) -> Query<Bool> { lhs.compare(.greaterOrEqual, rhs) }

}

extension Query where T: _Persistable, T.PersistedType: _QueryBinary {
    /// Contains `value` (`CONTAINS`).
    ///
    /// ```swift
    /// dogs.where { $0.name.contains("ex", options: .caseInsensitive) }
    /// ```
    public func contains(_ value: T, options: StringOptions = []) -> Query<Bool> {
        compare(.contains, value._persistedValue, options: options)
    }

    /// Contains the value of another property.
    public func contains<U>(_ column: Query<U>, options: StringOptions = []) -> Query<Bool> {
        compare(.contains, column, options: options)
    }

    /// Starts with `value` (`BEGINSWITH`).
    public func starts(with value: T, options: StringOptions = []) -> Query<Bool> {
        compare(.beginsWith, value._persistedValue, options: options)
    }

    /// Starts with the value of another property.
    public func starts<U>(with column: Query<U>, options: StringOptions = []) -> Query<Bool> {
        compare(.beginsWith, column, options: options)
    }

    /// Ends with `value` (`ENDSWITH`).
    public func ends(with value: T, options: StringOptions = []) -> Query<Bool> {
        compare(.endsWith, value._persistedValue, options: options)
    }

    /// Ends with the value of another property.
    public func ends<U>(with column: Query<U>, options: StringOptions = []) -> Query<Bool> {
        compare(.endsWith, column, options: options)
    }

    /// Equal to `value` under `options`.
    public func equals(_ value: T, options: StringOptions = []) -> Query<Bool> {
        compare(.equal, value._persistedValue, options: options)
    }

    /// Equal to the value of another property under `options`.
    public func equals<U>(_ column: Query<U>, options: StringOptions = []) -> Query<Bool> {
        compare(.equal, column, options: options)
    }

    /// Not equal to `value` under `options`.
    public func notEquals(_ value: T, options: StringOptions = []) -> Query<Bool> {
        compare(.notEqual, value._persistedValue, options: options)
    }

    /// Not equal to the value of another property under `options`.
    public func notEquals<U>(_ column: Query<U>, options: StringOptions = []) -> Query<Bool> {
        compare(.notEqual, column, options: options)
    }
}

extension Query where T: _Persistable, T.PersistedType: _QueryString {
    /// Matches a wildcard pattern: `*` any run of characters, `?` one character (`LIKE`).
    ///
    /// ```swift
    /// dogs.where { $0.name.like("R?x*", caseInsensitive: true) }
    /// ```
    public func like(_ value: T, caseInsensitive: Bool = false) -> Query<Bool> {
        compare(.like, value._persistedValue, options: caseInsensitive ? .caseInsensitive : [])
    }

    /// Matches the pattern another property holds.
    public func like<U>(_ column: Query<U>, caseInsensitive: Bool = false) -> Query<Bool> {
        compare(.like, column, options: caseInsensitive ? .caseInsensitive : [])
    }
}

extension Query where T: Comparable {
    /// Between the bounds, both included (`BETWEEN`).
    ///
    /// ```swift
    /// dogs.where { $0.age.contains(1...3) }
    /// ```
    public func contains(_ range: ClosedRange<T>) -> Query<Bool> {
        between(queryArgument(of: range.lowerBound), queryArgument(of: range.upperBound))
    }

    /// At least the lower bound and below the upper bound.
    public func contains(_ range: Range<T>) -> Query<Bool> {
        compare(.greaterOrEqual, queryArgument(of: range.lowerBound)) && compare(.less, queryArgument(of: range.upperBound))
    }
}

extension Query where T: OptionalProtocol, T.Wrapped: Comparable {
    /// Between the bounds, both included, for an optional property (`nil` is in no range).
    ///
    /// ```swift
    /// dogs.where { $0.weight.contains(10.0...20.0) }
    /// ```
    public func contains(_ range: ClosedRange<T.Wrapped>) -> Query<Bool> {
        between(queryArgument(of: range.lowerBound), queryArgument(of: range.upperBound))
    }

    /// At least the lower bound and below the upper bound, for an optional property.
    public func contains(_ range: Range<T.Wrapped>) -> Query<Bool> {
        compare(.greaterOrEqual, queryArgument(of: range.lowerBound)) && compare(.less, queryArgument(of: range.upperBound))
    }
}

extension Query where T: _HasPersistedType {
    /// The stored form of the values, to query what the stored type allows: a range of a
    /// ``CustomPersistable`` type's stored integers, a prefix of an enum's raw strings.
    ///
    /// ```swift
    /// things.where { $0.size.persistableValue > 10 }
    /// ```
    public var persistableValue: Query<T.PersistedType> { retyped() }
}

extension Query where T == Bool {
    /// Both conditions hold.
    public static func && (lhs: Query<Bool>, rhs: Query<Bool>) -> Query<Bool> {
        Query<Bool>(.predicate(.and(lhs.node, rhs.node)), spelling: joined(lhs, "&&", rhs))
    }

    /// Either condition holds.
    public static func || (lhs: Query<Bool>, rhs: Query<Bool>) -> Query<Bool> {
        Query<Bool>(.predicate(.or(lhs.node, rhs.node)), spelling: joined(lhs, "||", rhs))
    }

    /// The condition does not hold.
    public static prefix func ! (query: Query<Bool>) -> Query<Bool> {
        query.spelled(Query<Bool>(.predicate(.not(query.node)))) { $0.negated }
    }

    private static func joined(_ lhs: Query<Bool>, _ op: String, _ rhs: Query<Bool>) -> QuerySpelling? {
        guard let left = lhs.spelling, let right = rhs.spelling else { return nil }
        return .joining(left, op, right)
    }
}

extension Query where T: PersistableEnum {
    /// The enum's raw value, to compare with raw values.
    ///
    /// ```swift
    /// people.where { $0.mood.rawValue == "calm" }
    /// ```
    public var rawValue: Query<T.RawValue> { retyped() }
}

/// An optional enum a `@Persisted` property stores: `T?` for a ``PersistableEnum`` `T`.
///
/// Implementation detail of Burrow: conformances and members of this protocol are for Burrow's use, not yours.
public protocol _OptionalPersistableEnum {
    associatedtype _Enum: PersistableEnum
}

extension Optional: _OptionalPersistableEnum where Wrapped: PersistableEnum {
    /// Implementation detail of `_OptionalPersistableEnum`; do not use.
    public typealias _Enum = Wrapped
}

extension Query where T: _OptionalPersistableEnum {
    /// The optional enum's raw value, `nil` included.
    public var rawValue: Query<T._Enum.RawValue?> { retyped() }
}

extension Query where T: RealmCollection, T.Element: PersistableEnum, T.Element.RawValue: RealmCollectionValue {
    /// The raw values of a collection of enums.
    ///
    /// ```swift
    /// things.where { $0.moods.rawValue.contains("calm") }
    /// ```
    public var rawValue: Query<AnyRealmCollection<T.Element.RawValue>> { retyped() }
}

extension Query where T: RealmKeyedCollection, T.Value: PersistableEnum, T.Value.RawValue: RealmCollectionValue {
    /// The raw values of a map of enums.
    public var rawValue: Query<Map<T.Key, T.Value.RawValue>> { retyped() }
}

extension Query where T: RealmCollection, T.Element: _OptionalPersistableEnum, T.Element._Enum.RawValue: RealmCollectionValue {
    /// The raw values of a collection of optional enums, `nil` included.
    public var rawValue: Query<AnyRealmCollection<T.Element._Enum.RawValue?>> { retyped() }
}

extension Query where T: RealmKeyedCollection, T.Value: _OptionalPersistableEnum, T.Value._Enum.RawValue: RealmCollectionValue {
    /// The raw values of a map of optional enums, `nil` included.
    public var rawValue: Query<Map<T.Key, T.Value._Enum.RawValue?>> { retyped() }
}
