extension PredicateCompiler {
    /// `value['key'][0]… op x` on an `AnyRealmValue` property: the value those steps reach in
    /// the lists and dictionaries it holds, compared as an `AnyRealmValue`; a missing key or
    /// index, or a step into something that is not a collection, reads as `nil`.
    ///
    /// With `[*]` among the steps, the comparison matches when it matches any of the values the
    /// steps reach (none for a value that holds no collection there).
    func compileMixedMember(column: Int, steps: [MixedPathStep], _ comparison: Comparison, at position: Int) throws(Realm.Error) -> RowPredicate {
        let exact = steps.compactMap { step -> NestedStep? in
            switch step {
            case .index(let index): .index(index)
            case .key(let key): .key(key)
            case .all: nil
            }
        }
        guard exact.count < steps.count else {
            return try compileDerived(from: column, kind: .mixed, comparison, at: position) { held in
                NestedLocation.member(of: held, along: exact).map { $0.isNull ? .null : .mixed($0) } ?? .null
            }
        }
        var property = storedClass.properties[column]
        property.kind = .mixed
        property.isOptional = true
        let test = try compileDerivedTest(property, comparison, describing: "a value held by '\(property.name)'", at: position)
        var scratch: [UInt8] = []
        return { row in
            guard case .mixed(let held) = row.value(column, kind: .mixed) else { return false }
            return Self.members(of: held, along: steps[...]).contains { member in
                RowCodec.encode([member.isNull ? .null : .mixed(member)], into: &scratch)
                return scratch.withUnsafeBytes { test(RowReader($0)) }
            }
        }
    }

    /// Every value `steps` reach from `value`, `[*]` standing for each element or entry.
    private static func members(of value: _PersistedValue, along steps: ArraySlice<MixedPathStep>) -> [_PersistedValue] {
        guard let step = steps.first else { return [value] }
        let rest = steps.dropFirst()
        switch (step, value) {
        case (.all, .list(let elements)): return elements.flatMap { members(of: $0, along: rest) }
        case (.all, .dictionary(_, let values)): return values.flatMap { members(of: $0, along: rest) }
        case (.index(let index), _): return NestedLocation.member(of: value, along: [.index(index)]).map { members(of: $0, along: rest) } ?? []
        case (.key(let key), _): return NestedLocation.member(of: value, along: [.key(key)]).map { members(of: $0, along: rest) } ?? []
        default: return []
        }
    }

    /// `value.@size op n` (or `@count`): how many elements or entries the list or dictionary an
    /// `AnyRealmValue` property holds has; `nil` when it holds no collection.
    func compileMixedAggregate(column: Int, _ name: String, _ comparison: Comparison, at position: Int) throws(Realm.Error) -> RowPredicate {
        guard name == "@size" || name == "@count" else {
            throw QueryError.at(position, "an AnyRealmValue offers '@size' of the collection it holds, not '\(name)'")
        }
        return try compileDerived(from: column, kind: .int, comparison, at: position) { held in
            switch held {
            case .list(let elements): .int(Int64(elements.count))
            case .dictionary(let keys, _): .int(Int64(keys.count))
            default: .null
            }
        }
    }

    /// The property `column` whose row value is replaced by `derive` of its held value (of
    /// `kind`), compared with `comparison` as a column of its own.
    private func compileDerived(from column: Int, kind: _StorageKind, _ comparison: Comparison, at position: Int,
                                derive: @escaping (_PersistedValue) -> _PersistedValue) throws(Realm.Error) -> RowPredicate {
        var property = storedClass.properties[column]
        property.kind = kind
        property.isOptional = true
        return try compileDerived(property, comparison, describing: "a value held by '\(property.name)'", at: position) { row in
            guard case .mixed(let inner) = row.value(column, kind: .mixed) else { return derive(.null) }
            return derive(inner)
        }
    }

    /// `comparison` applied to a value derived from each row (a map entry, a nested value, a
    /// size), seen as the only column of a row of its own, described by `property`.
    func compileDerived(_ property: StoredProperty, _ comparison: Comparison, describing left: String, at position: Int,
                        derive: @escaping (RowReader) -> _PersistedValue) throws(Realm.Error) -> RowPredicate {
        let test = try compileDerivedTest(property, comparison, describing: left, at: position)
        var scratch: [UInt8] = []
        return { row in
            RowCodec.encode([derive(row)], into: &scratch)
            return scratch.withUnsafeBytes { test(RowReader($0)) }
        }
    }

    /// `comparison` compiled for a row of one column, described by `property`, that holds a
    /// value derived from a row of this class.
    private func compileDerivedTest(_ property: StoredProperty, _ comparison: Comparison, describing left: String,
                                    at position: Int) throws(Realm.Error) -> RowPredicate {
        try Self.verifyValueOnRight(of: comparison, describing: left)
        var member = comparison
        member.lhs = .keyPath(property.name, position: position)
        let memberClass = StoredClass(id: 0, name: storedClass.name, properties: [property], nextPropertyID: 1)
        return try PredicateCompiler(storedClass: memberClass, links: links).compile(.comparison(member))
    }

    /// Throws when a comparison of a derived value has a property on its right, which that
    /// value's own row cannot read.
    private static func verifyValueOnRight(of comparison: Comparison, describing left: String) throws(Realm.Error) {
        if case .keyPath(let other, let position) = comparison.rhs {
            throw QueryError.at(position, "compare \(left) with a value, not with the property '\(other)'")
        }
    }
}
