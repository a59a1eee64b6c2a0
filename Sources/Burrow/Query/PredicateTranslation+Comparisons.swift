import Foundation

/// Comparisons of translated expressions: `==`, `!=`, `<`, `<=`, `>`, `>=`, string operators
/// and ranges.
extension PredicateTranslation {
    /// `lhs op rhs`, whichever side the property is on.
    func compare(_ lhs: TranslatedExpression, _ op: ComparisonOperator, _ rhs: TranslatedExpression,
                 in expression: Any) throws(Realm.Error) -> TranslatedExpression {
        switch (lhs, rhs) {
        case (.path(let path), .value(let value)):
            return .condition(try comparison(path, op, value: value, in: expression))
        case (.value, .path), (.value, .condition), (.value, .optionalCondition), (.value, .nilCoalesced):
            return try compare(rhs, op.mirrored, lhs, in: expression)
        case (.path(let left), .path(let right)):
            try checkScope(right, in: expression)
            guard left.names.count == 1 && right.names.count == 1 else {
                throw Self.untranslatable(expression, "two properties compare only within one object, not across a link")
            }
            guard left.quantifier == nil || right.quantifier == nil else {
                throw Self.untranslatable(expression, "it compares elements of two collections")
            }
            try checkScope(left, in: expression)
            return .condition(.comparison(Comparison(lhs: .keyPath(left.keyPath, position: 0), op: op, rhs: .keyPath(right.keyPath, position: 0),
                                                     quantifier: left.quantifier ?? right.quantifier)))
        case (.condition(let node), .value(let flag as Bool)) where op == .equal || op == .notEqual:
            constantsReadOtherwise.isSet = true
            return .condition((op == .equal) == flag ? node : .not(node))
        case (.optionalCondition(let present, let condition), .value(let flag as Bool)) where op == .equal || op == .notEqual:
            constantsReadOtherwise.isSet = true
            // `nil` (the link is absent) equals neither `true` nor `false`.
            let equal = PredicateNode.and(present, flag ? condition : .not(condition))
            return .condition(op == .equal ? equal : .not(equal))
        case (.nilCoalesced(let path, let fallback), .value(let value)):
            constantsReadOtherwise.isSet = true
            return .condition(try coalescedComparison(path, fallback: fallback, op, value, in: expression))
        case (.value(let left), .value(let right)):
            constantsReadOtherwise.isSet = true
            return .value(try Self.constantComparison(left, op, right, in: expression))
        default:
            throw Self.untranslatable(expression, "this comparison has no query form: compare a property with a value or with another property")
        }
    }

    /// `(path ?? fallback) op value`: the property's comparison where it has a value, the
    /// fallback's (a constant) where it is `nil`.
    private func coalescedComparison(_ path: PredicatePath, fallback: Any, _ op: ComparisonOperator, _ value: Any,
                                     in expression: Any) throws(Realm.Error) -> PredicateNode {
        let present = try comparison(path, .notEqual, .literal(.null, position: 0), in: expression)
        let compared = try comparison(path, op, value: value, in: expression)
        let fallbackMatches = try Self.constantComparison(fallback, op, value, in: expression)
        guard fallbackMatches else { return .and(present, compared) }
        return .or(.and(present, compared), .not(present))
    }

    /// `left op right` for two constants.
    static func constantComparison(_ left: Any, _ op: ComparisonOperator, _ right: Any,
                                   in expression: Any) throws(Realm.Error) -> Bool {
        let a = try storedValue(left, in: expression), b = try storedValue(right, in: expression)
        switch op {
        case .equal: return a == b
        case .notEqual: return a != b
        case .less, .lessOrEqual, .greater, .greaterOrEqual:
            guard let order = ValueComparator.compare(a, b) else { return false }
            switch op {
            case .less: return order < 0
            case .lessOrEqual: return order <= 0
            case .greater: return order > 0
            default: return order >= 0
            }
        default:
            throw untranslatable(expression, "it compares two constants")
        }
    }

    /// A string operator (`starts(with:)`, `contains`) of a property with a constant.
    func stringComparison(_ base: TranslatedExpression, _ op: ComparisonOperator, _ other: TranslatedExpression,
                          in expression: Any) throws(Realm.Error) -> TranslatedExpression {
        guard case .path(let path) = base, path.objectType == nil, !path.isCollection else {
            throw Self.untranslatable(expression, "\(op.rawValue) needs a String or Data property on its left")
        }
        guard case .value(let value) = other else {
            throw Self.untranslatable(expression, "\(op.rawValue) needs a constant on its right")
        }
        return .condition(try comparison(path, op, value: value, in: expression))
    }

    /// `range.contains(path)`: `BETWEEN` for a closed range, `>=` and `<` for a half-open one.
    func rangeContains(_ range: TranslatedExpression, _ element: TranslatedExpression,
                       in expression: Any) throws(Realm.Error) -> TranslatedExpression {
        guard case .path(let path) = element else {
            throw Self.untranslatable(expression, "a range must contain a property")
        }
        let bounds: (lower: Any, upper: Any, closed: Bool)
        switch range {
        case .range(let lower, let upper, let closed): bounds = (lower, upper, closed)
        case .value(let value as any RangeBounds):
            constantsReadOtherwise.isSet = true
            bounds = (value.anyLowerBound, value.anyUpperBound, value.isClosed)
        default: throw Self.untranslatable(expression, "the range must be made of constants")
        }
        let lower = try comparison(path, .greaterOrEqual, value: bounds.lower, in: expression)
        let upper = try comparison(path, bounds.closed ? .lessOrEqual : .less, value: bounds.upper, in: expression)
        return .condition(.and(lower, upper))
    }

    /// `sequence.contains(element)`: `IN` for a constant array, `ANY collection == value` for a
    /// collection property.
    func sequenceContains(_ sequence: TranslatedExpression, _ element: TranslatedExpression,
                          in expression: Any) throws(Realm.Error) -> TranslatedExpression {
        switch (sequence, element) {
        case (.value(let values), .path(let path)):
            constantsReadOtherwise.isSet = true
            guard let elements = values as? any Sequence else {
                throw Self.untranslatable(expression, "contains needs a sequence of constants")
            }
            var stored: [_PersistedValue] = []
            for value in elements { stored.append(try Self.storedValue(value, in: expression)) }
            return .condition(try comparison(path, .in, .list(stored, position: 0), in: expression))
        case (.path(let path), .value(let value)) where path.isCollection:
            return .condition(try comparison(path, .equal, value: value, in: expression))
        default:
            throw Self.untranslatable(expression, "contains needs a collection property and a constant, or constants and a property")
        }
    }
}

/// The bounds of `ClosedRange` and `Range` captured whole by a predicate.
protocol RangeBounds {
    var anyLowerBound: Any { get }
    var anyUpperBound: Any { get }
    var isClosed: Bool { get }
}

extension ClosedRange: RangeBounds {
    var anyLowerBound: Any { lowerBound }
    var anyUpperBound: Any { upperBound }
    var isClosed: Bool { true }
}

extension Range: RangeBounds {
    var anyLowerBound: Any { lowerBound }
    var anyUpperBound: Any { upperBound }
    var isClosed: Bool { false }
}
