import Foundation

/// A parsed predicate: the tree shared by the string language and the type-safe builder,
/// before it is bound to a class.
indirect enum PredicateNode: Sendable {
    case constant(Bool)
    case comparison(Comparison)
    case and(PredicateNode, PredicateNode)
    case or(PredicateNode, PredicateNode)
    case not(PredicateNode)

    /// The tree with each operand of its comparisons (and of the predicates of `SUBQUERY`
    /// counts, which are walked instead) replaced by what `transform` makes of it.
    func mappingOperands(_ transform: (Operand) -> Operand) -> PredicateNode {
        switch self {
        case .constant: return self
        case .and(let lhs, let rhs): return .and(lhs.mappingOperands(transform), rhs.mappingOperands(transform))
        case .or(let lhs, let rhs): return .or(lhs.mappingOperands(transform), rhs.mappingOperands(transform))
        case .not(let inner): return .not(inner.mappingOperands(transform))
        case .comparison(var comparison):
            comparison.lhs = Self.mapping(comparison.lhs, transform)
            comparison.rhs = Self.mapping(comparison.rhs, transform)
            return .comparison(comparison)
        }
    }

    private static func mapping(_ operand: Operand, _ transform: (Operand) -> Operand) -> Operand {
        guard case .subqueryCount(let collection, let predicate, let position) = operand else { return transform(operand) }
        return .subqueryCount(collection: collection, predicate: predicate.mappingOperands(transform), position: position)
    }
}

/// `lhs op rhs`, with string options and, for collections, a quantifier.
struct Comparison: Sendable {
    var lhs: Operand
    var op: ComparisonOperator
    var rhs: Operand
    var caseInsensitive = false
    var diacriticInsensitive = false
    /// `ANY`/`SOME`, `ALL` or `NONE` before a collection key path.
    var quantifier: Quantifier?
    /// Where the operator starts in the query text, for messages.
    var position: Int

    init(lhs: Operand, op: ComparisonOperator, rhs: Operand, caseInsensitive: Bool = false,
         diacriticInsensitive: Bool = false, quantifier: Quantifier? = nil, position: Int = 0) {
        self.lhs = lhs
        self.op = op
        self.rhs = rhs
        self.caseInsensitive = caseInsensitive
        self.diacriticInsensitive = diacriticInsensitive
        self.quantifier = quantifier
        self.position = position
    }
}

/// `ANY`, `ALL` or `NONE` over the elements of a collection.
enum Quantifier: String, Sendable {
    case any = "ANY"
    case all = "ALL"
    case none = "NONE"
}

/// One side of a comparison.
enum Operand: Sendable {
    case keyPath(String, position: Int)
    case literal(_PersistedValue, position: Int)
    /// The right side of `IN`: `{1, 2, 3}` or an array argument.
    case list([_PersistedValue], position: Int)
    /// In a cached query template: the `%@` argument with this index, not bound yet.
    case argument(Int, position: Int)
    /// In a cached query template: the `%K` argument with this index, not bound yet.
    case keyPathArgument(Int, position: Int)
    /// In a cached query template: the array argument of `IN %@` with this index, not bound yet.
    case listArgument(Int, position: Int)
    /// `SUBQUERY(collection, $x, predicate).@count`: how many objects of a list or set match
    /// `predicate`, whose key paths are relative to one object.
    indirect case subqueryCount(collection: String, predicate: PredicateNode, position: Int)
    /// `map['key']`, optionally followed by a key path into the object it holds.
    case mapValue(map: String, key: String, rest: String?, position: Int)
    /// `value['key'][0]…`: a value nested in the lists and dictionaries an `AnyRealmValue` holds.
    case mixedPath(property: String, steps: [MixedPathStep], position: Int)
    /// The right side of `GEOWITHIN`: a box, circle or polygon.
    case shape(GeoShape, position: Int)

    /// Whether the operand is a geospatial shape.
    var isShape: Bool {
        if case .shape = self { true } else { false }
    }

    var position: Int {
        switch self {
        case .keyPath(_, let position), .literal(_, let position), .list(_, let position), .argument(_, let position),
             .keyPathArgument(_, let position), .listArgument(_, let position), .subqueryCount(_, _, let position),
             .mapValue(_, _, _, let position), .mixedPath(_, _, let position), .shape(_, let position): position
        }
    }
}

/// One step into the lists and dictionaries an `AnyRealmValue` holds, in a query: an index, a
/// key, or every element at once (`[*]`, which a comparison matches when any element does).
enum MixedPathStep: Equatable, Sendable {
    case index(Int)
    case key(String)
    case all

    /// The step as the query language writes it.
    var queryText: String {
        switch self {
        case .index(let index): "[\(index)]"
        case .key(let key): "[\(_PersistedValue.string(key).queryText)]"
        case .all: "[*]"
        }
    }
}

/// The comparison operators.
enum ComparisonOperator: String, Sendable {
    case equal = "=="
    case notEqual = "!="
    case less = "<"
    case lessOrEqual = "<="
    case greater = ">"
    case greaterOrEqual = ">="
    case beginsWith = "BEGINSWITH"
    case endsWith = "ENDSWITH"
    case contains = "CONTAINS"
    case like = "LIKE"
    case `in` = "IN"
    case geoWithin = "GEOWITHIN"

    /// The operator seen from the other side (`5 < age` is `age > 5`).
    var mirrored: ComparisonOperator {
        switch self {
        case .less: .greater
        case .lessOrEqual: .greaterOrEqual
        case .greater: .less
        case .greaterOrEqual: .lessOrEqual
        default: self
        }
    }

    var isStringOperator: Bool { [.beginsWith, .endsWith, .contains, .like].contains(self) }
    var isOrdering: Bool { [.less, .lessOrEqual, .greater, .greaterOrEqual].contains(self) }
}
