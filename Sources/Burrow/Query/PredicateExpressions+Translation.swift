import Foundation

// How each kind of Foundation predicate expression translates. A kind missing here (arithmetic,
// casts, regular expressions, ternaries, subscripts) makes the whole predicate untranslatable,
// and `PredicateTranslation` names it.

extension PredicateExpressions.Variable: TranslatablePredicateExpression {
    func translated(in translation: inout PredicateTranslation) throws(Realm.Error) -> TranslatedExpression {
        switch try translation.binding(of: key, in: self) {
        case .object(let path, let type, let scope):
            .path(PredicatePath(names: path, objectType: type, isCollection: false, quantifier: nil, scope: scope))
        case .element(let path, let quantifier, let scope):
            .path(PredicatePath(names: path, objectType: nil, isCollection: false, quantifier: quantifier, scope: scope))
        }
    }
}

extension PredicateExpressions.Value: TranslatablePredicateExpression {
    func translated(in translation: inout PredicateTranslation) throws(Realm.Error) -> TranslatedExpression {
        .value(value)
    }
}

extension PredicateExpressions.NilLiteral: TranslatablePredicateExpression {
    func translated(in translation: inout PredicateTranslation) throws(Realm.Error) -> TranslatedExpression {
        .value(NSNull())
    }
}

extension PredicateExpressions.KeyPath: TranslatablePredicateExpression where Root: TranslatablePredicateExpression {
    func translated(in translation: inout PredicateTranslation) throws(Realm.Error) -> TranslatedExpression {
        guard case .path(var path) = try root.translated(in: &translation) else {
            throw PredicateTranslation.untranslatable(self, "a key path must start from the predicate's object")
        }
        if path.isCollection {
            switch (Root.Output.self as? any PredicateCollection.Type)?.aggregate(of: keyPath) {
            case .count?:
                path.names.append("@count")
                path.isCollection = false
                path.objectType = nil
                return .path(path)
            case .isEmpty?:
                path.names.append("@count")
                return .condition(try translation.comparison(path, .equal, .literal(.int(0), position: 0), in: self))
            case nil:
                throw PredicateTranslation.untranslatable(self, "of a collection, queries read only count and isEmpty")
            }
        }
        guard let type = path.objectType, path.quantifier == nil else {
            throw PredicateTranslation.untranslatable(self, "queries read properties of objects, not of their values")
        }
        let entry = TranslatedKeyPaths.entry(for: keyPath) {
            // A computed property reading one field would pass for it; only the wrappers of
            // @Persisted properties are settable.
            guard keyPath is ReferenceWritableKeyPath<Root.Output, Output>,
                  let name = ClassInfo.of(type).persistedPropertyName(of: keyPath) else { return nil }
            let target = PredicatePath.target(of: Output.self)
            return TranslatedKeyPaths.Entry(name: name, objectType: target.objectType, isCollection: target.isCollection)
        }
        guard let entry else {
            throw PredicateTranslation.untranslatable(self, "it reads a property of '\(ClassInfo.storedName(of: type))' that is not @Persisted")
        }
        path.names.append(entry.name)
        (path.objectType, path.isCollection) = (entry.objectType, entry.isCollection)
        return .path(path)
    }
}

extension PredicateExpressions.ForcedUnwrap: TranslatablePredicateExpression where Inner: TranslatablePredicateExpression {
    func translated(in translation: inout PredicateTranslation) throws(Realm.Error) -> TranslatedExpression {
        // A `nil` link reads as an absent object, whose properties are all `nil`: a query never
        // traps on it.
        try inner.translated(in: &translation)
    }
}

extension PredicateExpressions.OptionalFlatMap: TranslatablePredicateExpression
where LHS: TranslatablePredicateExpression, RHS: TranslatablePredicateExpression {
    func translated(in translation: inout PredicateTranslation) throws(Realm.Error) -> TranslatedExpression {
        guard case .path(let path) = try wrapped.translated(in: &translation), let type = path.objectType, !path.isCollection else {
            throw PredicateTranslation.untranslatable(self, "?. and flatMap must follow a link to an object")
        }
        let transformed = try translation.with(variable.key, boundTo: .object(path: path.names, type: type, scope: path.scope)) {
            (inner: inout PredicateTranslation) throws(Realm.Error) in try transform.translated(in: &inner)
        }
        switch transformed {
        case .path, .value, .optionalCondition, .nilCoalesced:
            return transformed
        case .condition(let condition):
            let present = try translation.comparison(path, .notEqual, .literal(.null, position: 0), in: self)
            return .optionalCondition(present: present, condition: condition)
        case .range:
            throw PredicateTranslation.untranslatable(self, "a range is not a value of the object")
        }
    }
}

extension PredicateExpressions.NilCoalesce: TranslatablePredicateExpression
where LHS: TranslatablePredicateExpression, RHS: TranslatablePredicateExpression {
    func translated(in translation: inout PredicateTranslation) throws(Realm.Error) -> TranslatedExpression {
        guard case .path(let path) = try lhs.translated(in: &translation), case .value(let fallback) = try rhs.translated(in: &translation) else {
            throw PredicateTranslation.untranslatable(self, "?? needs a property on its left and a constant on its right")
        }
        return .nilCoalesced(path, default: fallback)
    }
}

extension PredicateExpressions.Conjunction: TranslatablePredicateExpression
where LHS: TranslatablePredicateExpression, RHS: TranslatablePredicateExpression {
    func translated(in translation: inout PredicateTranslation) throws(Realm.Error) -> TranslatedExpression {
        if translation.elementQuantifier == .any {
            throw PredicateTranslation.untranslatable(self, "&& inside contains(where:) over values has no query form: use one contains(where:) for each condition")
        }
        let left = try translation.condition(lhs.translated(in: &translation), of: lhs)
        return .condition(.and(left, try translation.condition(rhs.translated(in: &translation), of: rhs)))
    }
}

extension PredicateExpressions.Disjunction: TranslatablePredicateExpression
where LHS: TranslatablePredicateExpression, RHS: TranslatablePredicateExpression {
    func translated(in translation: inout PredicateTranslation) throws(Realm.Error) -> TranslatedExpression {
        if translation.elementQuantifier == .all {
            throw PredicateTranslation.untranslatable(self, "|| inside allSatisfy over values has no query form")
        }
        let left = try translation.condition(lhs.translated(in: &translation), of: lhs)
        return .condition(.or(left, try translation.condition(rhs.translated(in: &translation), of: rhs)))
    }
}

extension PredicateExpressions.Negation: TranslatablePredicateExpression where Wrapped: TranslatablePredicateExpression {
    func translated(in translation: inout PredicateTranslation) throws(Realm.Error) -> TranslatedExpression {
        if translation.elementQuantifier != nil {
            throw PredicateTranslation.untranslatable(self, "! inside contains(where:) or allSatisfy over values has no query form: use != or the opposite comparison")
        }
        return .condition(.not(try translation.condition(wrapped.translated(in: &translation), of: wrapped)))
    }
}

extension PredicateExpressions.Equal: TranslatablePredicateExpression
where LHS: TranslatablePredicateExpression, RHS: TranslatablePredicateExpression {
    func translated(in translation: inout PredicateTranslation) throws(Realm.Error) -> TranslatedExpression {
        try translation.compare(lhs.translated(in: &translation), .equal, rhs.translated(in: &translation), in: self)
    }
}

extension PredicateExpressions.NotEqual: TranslatablePredicateExpression
where LHS: TranslatablePredicateExpression, RHS: TranslatablePredicateExpression {
    func translated(in translation: inout PredicateTranslation) throws(Realm.Error) -> TranslatedExpression {
        try translation.compare(lhs.translated(in: &translation), .notEqual, rhs.translated(in: &translation), in: self)
    }
}

extension PredicateExpressions.Comparison: TranslatablePredicateExpression
where LHS: TranslatablePredicateExpression, RHS: TranslatablePredicateExpression {
    func translated(in translation: inout PredicateTranslation) throws(Realm.Error) -> TranslatedExpression {
        let ordering: ComparisonOperator = switch op {
        case .lessThan: .less
        case .lessThanOrEqual: .lessOrEqual
        case .greaterThan: .greater
        case .greaterThanOrEqual: .greaterOrEqual
        @unknown default: throw PredicateTranslation.untranslatable(self, "this comparison operator is unknown")
        }
        return try translation.compare(lhs.translated(in: &translation), ordering, rhs.translated(in: &translation), in: self)
    }
}

extension PredicateExpressions.SequenceStartsWith: TranslatablePredicateExpression
where Base: TranslatablePredicateExpression, Prefix: TranslatablePredicateExpression {
    func translated(in translation: inout PredicateTranslation) throws(Realm.Error) -> TranslatedExpression {
        try translation.stringComparison(base.translated(in: &translation), .beginsWith, prefix.translated(in: &translation), in: self)
    }
}

extension PredicateExpressions.CollectionContainsCollection: TranslatablePredicateExpression
where Base: TranslatablePredicateExpression, Other: TranslatablePredicateExpression {
    func translated(in translation: inout PredicateTranslation) throws(Realm.Error) -> TranslatedExpression {
        try translation.stringComparison(base.translated(in: &translation), .contains, other.translated(in: &translation), in: self)
    }
}

extension PredicateExpressions.ClosedRange: TranslatablePredicateExpression
where LHS: TranslatablePredicateExpression, RHS: TranslatablePredicateExpression {
    func translated(in translation: inout PredicateTranslation) throws(Realm.Error) -> TranslatedExpression {
        guard case .value(let low) = try lower.translated(in: &translation), case .value(let high) = try upper.translated(in: &translation) else {
            throw PredicateTranslation.untranslatable(self, "the bounds of a range must be constants")
        }
        return .range(lower: low, upper: high, closed: true)
    }
}

extension PredicateExpressions.Range: TranslatablePredicateExpression
where LHS: TranslatablePredicateExpression, RHS: TranslatablePredicateExpression {
    func translated(in translation: inout PredicateTranslation) throws(Realm.Error) -> TranslatedExpression {
        guard case .value(let low) = try lower.translated(in: &translation), case .value(let high) = try upper.translated(in: &translation) else {
            throw PredicateTranslation.untranslatable(self, "the bounds of a range must be constants")
        }
        return .range(lower: low, upper: high, closed: false)
    }
}

extension PredicateExpressions.RangeExpressionContains: TranslatablePredicateExpression
where RangeExpression: TranslatablePredicateExpression, Element: TranslatablePredicateExpression {
    func translated(in translation: inout PredicateTranslation) throws(Realm.Error) -> TranslatedExpression {
        try translation.rangeContains(range.translated(in: &translation), element.translated(in: &translation), in: self)
    }
}

extension PredicateExpressions.SequenceContains: TranslatablePredicateExpression
where LHS: TranslatablePredicateExpression, RHS: TranslatablePredicateExpression {
    func translated(in translation: inout PredicateTranslation) throws(Realm.Error) -> TranslatedExpression {
        try translation.sequenceContains(sequence.translated(in: &translation), element.translated(in: &translation), in: self)
    }
}

extension PredicateExpressions.SequenceContainsWhere: TranslatablePredicateExpression
where LHS: TranslatablePredicateExpression, RHS: TranslatablePredicateExpression {
    func translated(in translation: inout PredicateTranslation) throws(Realm.Error) -> TranslatedExpression {
        try translation.quantified(sequence.translated(in: &translation), elementType: LHS.Output.Element.self,
                                   variable: variable.key, test: test, all: false, in: self)
    }
}

extension PredicateExpressions.SequenceAllSatisfy: TranslatablePredicateExpression
where LHS: TranslatablePredicateExpression, RHS: TranslatablePredicateExpression {
    func translated(in translation: inout PredicateTranslation) throws(Realm.Error) -> TranslatedExpression {
        try translation.quantified(sequence.translated(in: &translation), elementType: LHS.Output.Element.self,
                                   variable: variable.key, test: test, all: true, in: self)
    }
}

extension PredicateExpressions.SequenceMaximum: TranslatablePredicateExpression where Elements: TranslatablePredicateExpression {
    func translated(in translation: inout PredicateTranslation) throws(Realm.Error) -> TranslatedExpression {
        try translation.aggregate("@max", of: elements.translated(in: &translation), in: self)
    }
}

extension PredicateExpressions.SequenceMinimum: TranslatablePredicateExpression where Elements: TranslatablePredicateExpression {
    func translated(in translation: inout PredicateTranslation) throws(Realm.Error) -> TranslatedExpression {
        try translation.aggregate("@min", of: elements.translated(in: &translation), in: self)
    }
}
