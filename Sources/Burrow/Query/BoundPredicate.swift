/// A predicate whose names are resolved against one class: what the planner reads to choose an
/// index, and what the compiler turns into a row test. ``PredicateBinder`` makes it.
struct BoundPredicate {
    let storedClass: StoredClass
    let root: BoundNode

    /// The top-level `AND` terms.
    var conjuncts: [BoundNode] {
        var terms: [BoundNode] = []
        var pending = [root]
        // Left to right, without recursion: a chain of terms may be long.
        while let node = pending.popLast() {
            if case .and(let lhs, let rhs) = node {
                pending.append(rhs)
                pending.append(lhs)
            } else {
                terms.append(node)
            }
        }
        return terms
    }
}

/// A node of a ``BoundPredicate``.
indirect enum BoundNode {
    case constant(Bool)
    case comparison(BoundComparison)
    case and(BoundNode, BoundNode)
    case or(BoundNode, BoundNode)
    case not(BoundNode)
}

/// One comparison and what its left side names in the class.
///
/// A property compared with values is put on the left (`5 < age` is bound as `age > 5`).
struct BoundComparison {
    let comparison: Comparison
    let subject: Subject

    /// What the left side of a comparison reads.
    enum Subject {
        /// A property of the class against one value (`age > 5`).
        case value(column: Int, _PersistedValue)
        /// A property of the class against a list of values (`age IN {1, 2}`).
        case values(column: Int, [_PersistedValue])
        /// Two properties of the class (`low < high`).
        case columns(left: Int, right: Int)
        /// `link.…`: a comparison through a to-one link, whose left side continues in the
        /// linked class with `inner` (a key path, `map['key']`, a nested value or a `SUBQUERY`).
        case link(column: Int, inner: Operand)
        /// A list, set or map property, with what follows it (`dogs.age`, `tags.@count`).
        case collection(column: Int, rest: String?, position: Int)
        /// A `LinkingObjects` property, with what follows it.
        case backlinks(origin: String, property: String, rest: String?, position: Int)
        /// `value.@size` of an `AnyRealmValue` property.
        case mixedAggregate(column: Int, name: String, position: Int)
        /// `value['key'][0]…` of an `AnyRealmValue` property.
        case mixedMember(column: Int, steps: [MixedPathStep], position: Int)
        /// `map['key']`, then perhaps a key path into the object it holds.
        case mapValue(column: Int, key: String, rest: String?, position: Int)
        /// `SUBQUERY(collection, $x, predicate).@count`.
        case subquery(column: Int, predicate: PredicateNode, position: Int)
        /// `SUBQUERY(linkingObjects, $x, predicate).@count`.
        case backlinkSubquery(origin: String, property: String, predicate: PredicateNode, position: Int)
        /// `location GEOWITHIN shape`: the point an embedded object holds, in a region.
        case geoWithin(column: Int, region: GeoRegion, position: Int)
    }

    /// Whether the comparison compares values as stored, without folding case or diacritics,
    /// as an index does (the subject decides the rest).
    var isIndexable: Bool { !comparison.caseInsensitive && !comparison.diacriticInsensitive }

    /// `column op value` when the comparison is a property against values, compared exactly
    /// (not case or diacritic insensitive): the terms an index can answer.
    var indexable: (column: Int, op: ComparisonOperator, values: [_PersistedValue])? {
        guard isIndexable else { return nil }
        switch subject {
        case .value(let column, let value): return (column, comparison.op, [value])
        case .values(let column, let values): return (column, comparison.op, values)
        default: return nil
        }
    }
}
