import Foundation

// What each kind of Foundation predicate expression carries besides its type: the constants
// it captured, the key paths it reads and the operator it applies (``PredicateLeaves``), read
// in the order translation reads them. Two predicates of one expression type with the same key
// paths and operators translate alike but for their constants (``PredicateTemplates``).

extension PredicateExpressions.Variable {
    func appendLeaves(to leaves: inout PredicateLeaves) {}
}

extension PredicateExpressions.Value {
    func appendLeaves(to leaves: inout PredicateLeaves) { leaves.constant(value) }
}

extension PredicateExpressions.NilLiteral {
    func appendLeaves(to leaves: inout PredicateLeaves) {}
}

extension PredicateExpressions.KeyPath where Root: TranslatablePredicateExpression {
    func appendLeaves(to leaves: inout PredicateLeaves) {
        root.appendLeaves(to: &leaves)
        leaves.keyPath(keyPath)
    }
}

extension PredicateExpressions.ForcedUnwrap where Inner: TranslatablePredicateExpression {
    func appendLeaves(to leaves: inout PredicateLeaves) { inner.appendLeaves(to: &leaves) }
}

extension PredicateExpressions.OptionalFlatMap where LHS: TranslatablePredicateExpression, RHS: TranslatablePredicateExpression {
    func appendLeaves(to leaves: inout PredicateLeaves) {
        wrapped.appendLeaves(to: &leaves)
        transform.appendLeaves(to: &leaves)
    }
}

extension PredicateExpressions.NilCoalesce where LHS: TranslatablePredicateExpression, RHS: TranslatablePredicateExpression {
    func appendLeaves(to leaves: inout PredicateLeaves) {
        lhs.appendLeaves(to: &leaves)
        rhs.appendLeaves(to: &leaves)
    }
}

extension PredicateExpressions.Conjunction where LHS: TranslatablePredicateExpression, RHS: TranslatablePredicateExpression {
    func appendLeaves(to leaves: inout PredicateLeaves) {
        lhs.appendLeaves(to: &leaves)
        rhs.appendLeaves(to: &leaves)
    }
}

extension PredicateExpressions.Disjunction where LHS: TranslatablePredicateExpression, RHS: TranslatablePredicateExpression {
    func appendLeaves(to leaves: inout PredicateLeaves) {
        lhs.appendLeaves(to: &leaves)
        rhs.appendLeaves(to: &leaves)
    }
}

extension PredicateExpressions.Negation where Wrapped: TranslatablePredicateExpression {
    func appendLeaves(to leaves: inout PredicateLeaves) { wrapped.appendLeaves(to: &leaves) }
}

extension PredicateExpressions.Equal where LHS: TranslatablePredicateExpression, RHS: TranslatablePredicateExpression {
    func appendLeaves(to leaves: inout PredicateLeaves) {
        lhs.appendLeaves(to: &leaves)
        rhs.appendLeaves(to: &leaves)
    }
}

extension PredicateExpressions.NotEqual where LHS: TranslatablePredicateExpression, RHS: TranslatablePredicateExpression {
    func appendLeaves(to leaves: inout PredicateLeaves) {
        lhs.appendLeaves(to: &leaves)
        rhs.appendLeaves(to: &leaves)
    }
}

extension PredicateExpressions.Comparison where LHS: TranslatablePredicateExpression, RHS: TranslatablePredicateExpression {
    func appendLeaves(to leaves: inout PredicateLeaves) {
        lhs.appendLeaves(to: &leaves)
        rhs.appendLeaves(to: &leaves)
        let code = switch op {
        case .lessThan: 1
        case .lessThanOrEqual: 2
        case .greaterThan: 3
        case .greaterThanOrEqual: 4
        @unknown default: 0
        }
        leaves.comparisonOperator(code)
    }
}

extension PredicateExpressions.SequenceStartsWith where Base: TranslatablePredicateExpression, Prefix: TranslatablePredicateExpression {
    func appendLeaves(to leaves: inout PredicateLeaves) {
        base.appendLeaves(to: &leaves)
        prefix.appendLeaves(to: &leaves)
    }
}

extension PredicateExpressions.CollectionContainsCollection
where Base: TranslatablePredicateExpression, Other: TranslatablePredicateExpression {
    func appendLeaves(to leaves: inout PredicateLeaves) {
        base.appendLeaves(to: &leaves)
        other.appendLeaves(to: &leaves)
    }
}

extension PredicateExpressions.ClosedRange where LHS: TranslatablePredicateExpression, RHS: TranslatablePredicateExpression {
    func appendLeaves(to leaves: inout PredicateLeaves) {
        lower.appendLeaves(to: &leaves)
        upper.appendLeaves(to: &leaves)
    }
}

extension PredicateExpressions.Range where LHS: TranslatablePredicateExpression, RHS: TranslatablePredicateExpression {
    func appendLeaves(to leaves: inout PredicateLeaves) {
        lower.appendLeaves(to: &leaves)
        upper.appendLeaves(to: &leaves)
    }
}

extension PredicateExpressions.RangeExpressionContains
where RangeExpression: TranslatablePredicateExpression, Element: TranslatablePredicateExpression {
    func appendLeaves(to leaves: inout PredicateLeaves) {
        range.appendLeaves(to: &leaves)
        element.appendLeaves(to: &leaves)
    }
}

extension PredicateExpressions.SequenceContains where LHS: TranslatablePredicateExpression, RHS: TranslatablePredicateExpression {
    func appendLeaves(to leaves: inout PredicateLeaves) {
        sequence.appendLeaves(to: &leaves)
        element.appendLeaves(to: &leaves)
    }
}

extension PredicateExpressions.SequenceContainsWhere where LHS: TranslatablePredicateExpression, RHS: TranslatablePredicateExpression {
    func appendLeaves(to leaves: inout PredicateLeaves) {
        sequence.appendLeaves(to: &leaves)
        test.appendLeaves(to: &leaves)
    }
}

extension PredicateExpressions.SequenceAllSatisfy where LHS: TranslatablePredicateExpression, RHS: TranslatablePredicateExpression {
    func appendLeaves(to leaves: inout PredicateLeaves) {
        sequence.appendLeaves(to: &leaves)
        test.appendLeaves(to: &leaves)
    }
}

extension PredicateExpressions.SequenceMaximum where Elements: TranslatablePredicateExpression {
    func appendLeaves(to leaves: inout PredicateLeaves) { elements.appendLeaves(to: &leaves) }
}

extension PredicateExpressions.SequenceMinimum where Elements: TranslatablePredicateExpression {
    func appendLeaves(to leaves: inout PredicateLeaves) { elements.appendLeaves(to: &leaves) }
}
