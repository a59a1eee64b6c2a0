import Foundation

/// A type-safe query over objects of `T`, built in a `where` closure and compiled to the same
/// predicate tree as the string language.
///
/// ```swift
/// let adults = people.where { $0.age >= 18 && $0.name.starts(with: "J", options: .caseInsensitive) }
/// let picked = people.where { $0.id.in([1, 2, 3]) || !$0.nickname.contains("x") }
/// ```
///
/// `$0.property` names a `@Persisted` property; a `Query<Bool>` combines with `&&`, `||` and `!`.
@dynamicMemberLookup
public struct Query<T> {
    /// What a query expression stands for.
    enum Expression {
        /// The objects themselves (`$0`).
        case root(ClassInfo)
        /// A property of the objects.
        case keyPath(String, owner: ClassInfo)
        /// The value under `key` of a map property, and a key path into it for a map of objects.
        case mapValue(map: String, key: String, rest: String?, owner: ClassInfo)
        /// A value nested in the lists and dictionaries an `AnyRealmValue` property holds
        /// (`value[0]['key']`).
        case mixedPath(property: String, steps: [MixedPathStep], owner: ClassInfo)
        /// How many objects of a collection match a condition on them (`SUBQUERY(…).@count`).
        case subqueryCount(collection: String, predicate: PredicateNode)
        /// A condition.
        case predicate(PredicateNode)
    }

    let expression: Expression
    /// How RealmSwift's query builder writes this expression; only kept for a query built from
    /// ``_constructForTesting()``.
    var spelling: QuerySpelling?

    init(_ expression: Expression, spelling: QuerySpelling? = nil) {
        self.expression = expression
        self.spelling = spelling
    }

    /// The same expression, seen as a query on values of `U` (an enum as its raw value).
    func retyped<U>(as type: U.Type = U.self) -> Query<U> {
        let retyped: Query<U>.Expression = switch expression {
        case .root(let info): .root(info)
        case .keyPath(let name, let owner): .keyPath(name, owner: owner)
        case .mapValue(let map, let key, let rest, let owner): .mapValue(map: map, key: key, rest: rest, owner: owner)
        case .mixedPath(let property, let steps, let owner): .mixedPath(property: property, steps: steps, owner: owner)
        case .subqueryCount(let collection, let predicate): .subqueryCount(collection: collection, predicate: predicate)
        case .predicate(let node): .predicate(node)
        }
        return Query<U>(retyped, spelling: spelling)
    }

    /// The property name of a key-path expression.
    var keyPathName: String {
        guard case .keyPath(let name, _) = expression else {
            burrowPreconditionFailure("A comparison in where { } needs a property on its left.")
        }
        return name
    }

    /// The left side of a comparison: a property, or a map's value.
    var lhsOperand: Operand {
        switch expression {
        case .mapValue(let map, let key, let rest, _): return .mapValue(map: map, key: key, rest: rest, position: 0)
        case .subqueryCount(let collection, let predicate): return .subqueryCount(collection: collection, predicate: predicate, position: 0)
        case .mixedPath(let property, let steps, _): return .mixedPath(property: property, steps: steps, position: 0)
        default: return .keyPath(keyPathName, position: 0)
        }
    }

    /// The expression as a condition: a `Bool` property stands for `property == true`.
    var node: PredicateNode {
        switch expression {
        case .predicate(let node): node
        case .keyPath, .mapValue, .mixedPath, .subqueryCount: .comparison(Comparison(lhs: lhsOperand, op: .equal, rhs: .literal(.bool(true), position: 0)))
        case .root: .constant(true)
        }
    }

    /// `self op value`.
    func compare(_ op: ComparisonOperator, _ value: _PersistedValue, options: StringOptions = []) -> Query<Bool> {
        spelled(Query<Bool>(.predicate(.comparison(Comparison(
            lhs: lhsOperand, op: op, rhs: .literal(value, position: 0),
            caseInsensitive: options.contains(.caseInsensitive), diacriticInsensitive: options.contains(.diacriticInsensitive)))))) {
            $0.comparing(op.rawValue, options: options, value: value.anyValue ?? NSNull())
        }
    }

    /// Between the bounds, both included (`BETWEEN {lower, upper}`).
    func between(_ lower: _PersistedValue, _ upper: _PersistedValue) -> Query<Bool> {
        let both = compare(.greaterOrEqual, lower) && compare(.lessOrEqual, upper)
        return spelled(both) { $0.comparison($0.operand + " BETWEEN {%@, %@}", arguments: []).adding([lower.anyValue ?? NSNull(), upper.anyValue ?? NSNull()]) }
    }

    /// `self op other`, two properties.
    func compare<U>(_ op: ComparisonOperator, _ other: Query<U>, options: StringOptions = []) -> Query<Bool> {
        spelled(Query<Bool>(.predicate(.comparison(Comparison(
            lhs: lhsOperand, op: op, rhs: other.lhsOperand,
            caseInsensitive: options.contains(.caseInsensitive), diacriticInsensitive: options.contains(.diacriticInsensitive)))))) {
            $0.comparing(op.rawValue, options: options, other.spelling ?? .path(other.keyPathName, requiresAny: false))
        }
    }
}

/// Options of string comparisons in `where { }`.
public struct StringOptions: OptionSet, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Ignore case: "a" matches "A" (`[c]`).
    public static let caseInsensitive = StringOptions(rawValue: 1)
    /// Ignore diacritics: "a" matches "ä" (`[d]`).
    public static let diacriticInsensitive = StringOptions(rawValue: 2)
}

/// Types whose values can be ordered in queries (`<`, `>`, `BETWEEN`): numbers, dates,
/// strings, and their optionals.
///
/// Implementation detail of Burrow: conformances and members of this protocol are for Burrow's use, not yours.
public protocol _QueryComparable: _Persistable {}
extension Int: _QueryComparable {}
extension Int8: _QueryComparable {}
extension Int16: _QueryComparable {}
extension Int32: _QueryComparable {}
extension Int64: _QueryComparable {}
extension Float: _QueryComparable {}
extension Double: _QueryComparable {}
extension Date: _QueryComparable {}
extension String: _QueryComparable {}
extension Decimal: _QueryComparable {}
extension Decimal128: _QueryComparable {}
extension ObjectId: _QueryComparable {}
extension Data: _QueryComparable {}
extension AnyRealmValue: _QueryComparable {}
extension Optional: _QueryComparable where Wrapped: _QueryComparable {}

/// Types with the operators of bytes in queries (`contains`, `starts(with:)`, `ends(with:)`,
/// `equals`, ordering): `String`, `Data` and their optionals.
///
/// Implementation detail of Burrow: conformances and members of this protocol are for Burrow's use, not yours.
public protocol _QueryBinary: _QueryComparable {}
extension Data: _QueryBinary {}
extension Optional: _QueryBinary where Wrapped: _QueryBinary {}

/// Types with the operators of text in queries, `like` besides those of bytes: `String` and
/// `String?`.
///
/// Implementation detail of Burrow: conformances and members of this protocol are for Burrow's use, not yours.
public protocol _QueryString: _QueryBinary {}
extension String: _QueryString {}
extension Optional: _QueryString where Wrapped: _QueryString {}

extension Query where T: ObjectBase {
    /// The property `keyPath` reads, as a query on its values.
    public subscript<V>(dynamicMember keyPath: KeyPath<T, V>) -> Query<V> {
        guard case .root(let info) = expression else {
            burrowPreconditionFailure("Key path \(keyPath) in where { } must start from the object.")
        }
        burrowPrecondition(keyPath is ReferenceWritableKeyPath<T, V>, "where { } on '\(info.className)' reads a property that is not @Persisted: \(keyPath).")
        let name = info.propertyName(of: keyPath)
        return spelled(Query<V>(.keyPath(name, owner: info))) { $0.appending(name, requiresAny: isCollection(V.self)) }
    }
}

/// ``queryArgument(_:)`` of a value generic code knows only as `Any` (a range's bound, a `T`
/// known as `_RealmSchemaDiscoverable`); traps for a type no property stores.
func queryArgument(of value: Any) -> _PersistedValue {
    guard let persistable = value as? any _Persistable else {
        burrowPreconditionFailure("A value of \(type(of: value)) cannot be compared in where { }: it is not a stored type.")
    }
    return queryArgument(persistable)
}

/// A constant of `where { }` as a query compares it: an object as the object it is, with its
/// class, or as an object not in the realm while unmanaged (``QueryParser/value(ofObject:)``).
func queryArgument<Value: _Persistable>(_ value: Value) -> _PersistedValue {
    if let object = value as? ObjectBase { return QueryParser.value(ofObject: object) }
    return value._persistedValue
}
