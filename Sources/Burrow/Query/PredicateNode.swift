import Foundation

/// A parsed predicate: the tree shared by the string language and (later) the type-safe
/// builder, before it is bound to a class.
indirect enum PredicateNode: Sendable {
    case constant(Bool)
    case comparison(Comparison)
    case and(PredicateNode, PredicateNode)
    case or(PredicateNode, PredicateNode)
    case not(PredicateNode)
}

/// `keyPath op literal` (or the two sides swapped), with string options.
struct Comparison: Sendable {
    var lhs: Operand
    var op: ComparisonOperator
    var rhs: Operand
    var caseInsensitive = false
    var diacriticInsensitive = false
    /// Where the operator starts in the query text, for messages.
    var position: Int
}

/// One side of a comparison.
enum Operand: Sendable {
    case keyPath(String, position: Int)
    case literal(_PersistedValue, position: Int)
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

    var isStringOperator: Bool { self == .beginsWith || self == .endsWith || self == .contains }
}
