import Foundation

/// Comparisons over lists, sets and maps: quantifiers, aggregates (`@count`, `@sum`, …), map values and `SUBQUERY`.
extension PredicateCompiler {
    /// A comparison on a list: `ANY`/`ALL`/`NONE list op value` (plain `list op value` is
    /// `ANY`), with `list.property` reaching into objects, and `list.@count`,
    /// `list.@min|@max|@sum|@avg` (values) or `list.@min|@max|@sum|@avg.property` (objects).
    func compileThroughList(_ comparison: Comparison, column: Int, rest: String?, at position: Int) throws(Realm.Error) -> RowPredicate {
        let property = storedClass.properties[column]
        guard let links else {
            throw QueryError.at(position, "list '\(property.name)' cannot be queried here")
        }
        guard let layout = links.catalog.layouts[storedClass.name],
              let database = layout.collectionDatabase(of: column) else {
            return { _ in false }
        }
        let kind = property.kind
        let isMap = property.collection == .map
        // The elements a comparison sees: a map's values, or its keys with @allKeys.
        var rest = rest
        var readKeys = false
        if isMap, let part = rest, part == "@allKeys" || part == "@allValues" {
            readKeys = part == "@allKeys"
            rest = nil
        } else if isMap, let part = rest, part.hasPrefix("@allValues.") {
            rest = String(part.dropFirst("@allValues.".count))  // a property of the objects held
        }
        let elements: (ObjectKey) -> [_PersistedValue] = { [readKeys] owner in
            guard isMap else { return links.listValues(of: owner, in: database, kind: kind) }
            let entries = links.mapEntries(of: owner, in: database, kind: kind)
            return readKeys ? entries.map { .string($0.key) } : entries.map(\.value)
        }
        let elementKind: _StorageKind = readKeys ? .string : kind
        let target = readKeys ? nil : property.objectClassName.flatMap { links.catalog.layouts[$0] }
        if property.objectClassName != nil && target == nil && !readKeys {
            return { _ in false }
        }
        // Aggregates: one value per list, compared once.
        if let rest, rest.hasPrefix("@") {
            guard comparison.quantifier == nil else {
                throw QueryError.at(position, "'\(comparison.quantifier!.rawValue)' cannot apply to '\(property.name).\(rest)'")
            }
            let parts = rest.split(separator: ".", maxSplits: 1).map(String.init)
            let aggregate = parts[0]
            let aggregateSource: (RowReader) -> [_PersistedValue]
            var valueKind = kind
            if aggregate == "@count" || aggregate == "@size" {
                aggregateSource = { row in elements(row.key) }
            } else if let target {
                guard parts.count == 2, let targetColumn = target.storedClass.properties.firstIndex(where: { $0.name == parts[1] }) else {
                    throw QueryError.at(position, "'\(property.name).\(aggregate)' needs a property of \(target.className) after it, as in '\(property.name).\(aggregate).age'")
                }
                valueKind = target.kinds[targetColumn]
                aggregateSource = { row in
                    elements(row.key).compactMap { value in
                        guard case .link(let key) = value, let targetRow = links.row(key, in: target) else { return nil }
                        return RowReader(targetRow).value(targetColumn, kind: valueKind)
                    }
                }
            } else {
                aggregateSource = { row in elements(row.key) }
            }
            guard case .literal(let literal, _) = comparison.rhs else {
                throw QueryError.at(comparison.rhs.position, "'\(property.name).\(rest)' compares only with a value")
            }
            let reduce = try Self.aggregate(aggregate, of: valueKind, at: position)
            let op = comparison.op
            return { row in
                // The collection of no object has no aggregate to compare.
                guard !row.isAbsent else { return false }
                let value = reduce(aggregateSource(row))
                return Self.test(op, ValueComparator.compare(value, literal), lhsNull: value.isNull, rhsNull: literal.isNull)
            }
        }
        // Element comparisons, combined by the quantifier: a property of each object, or each
        // element itself (an object compares as its link).
        let elementTest: RowPredicate
        let comparesObjects = target != nil && rest != nil
        if let target, let rest {
            var inner = comparison
            inner.quantifier = nil
            inner.lhs = .keyPath(rest, position: position + property.name.utf16.count + 1)
            elementTest = try PredicateCompiler(storedClass: target.storedClass, links: links).compile(.comparison(inner))
        } else {
            guard rest == nil else {
                throw QueryError.at(position, "'\(property.name)' is a list of \(property.typeName) values; it has no property '\(rest!)'")
            }
            if target != nil, case .keyPath(let other, let otherPosition) = comparison.rhs {
                throw QueryError.at(otherPosition, "compare the objects in '\(property.name)' with an object, not with the property '\(other)'")
            }
            // The element as a one-column row, so the ordinary comparison code applies.
            var inner = comparison
            inner.quantifier = nil
            inner.lhs = .keyPath(property.name, position: position)
            var element = property
            element.collection = nil
            element.kind = elementKind
            if readKeys { element.objectClassName = nil }
            let elementClass = StoredClass(id: 0, name: storedClass.name, properties: [element], nextPropertyID: 1)
            elementTest = try PredicateCompiler(storedClass: elementClass, links: links).compile(.comparison(inner))
        }
        let quantifier = comparison.quantifier ?? .any
        var scratch: [UInt8] = []
        return { row in
            let values = row.isAbsent ? [] : elements(row.key)
            var matches = 0
            for value in values {
                let passes: Bool
                if comparesObjects, let target {
                    guard case .link(let key) = value, let targetRow = links.row(key, in: target) else { continue }
                    passes = elementTest(RowReader(targetRow, key: ObjectKey(key)))
                } else {
                    RowCodec.encode([value], into: &scratch)
                    passes = scratch.withUnsafeBytes { elementTest(RowReader($0)) }
                }
                if passes { matches += 1 } else if quantifier == .all { return false }
                if matches > 0 && quantifier == .any { return true }
                if matches > 0 && quantifier == .none { return false }
            }
            switch quantifier {
            case .any: return false
            case .all: return true
            case .none: return true
            }
        }
    }

    /// `map['key'] op value`, or `map['key'].property op value` for a map of objects; a
    /// missing key reads as `nil`.
    func compileMapValue(column: Int, key: String, rest: String?, _ comparison: Comparison,
                         at position: Int) throws(Realm.Error) -> RowPredicate {
        var property = storedClass.properties[column]
        let map = property.name
        if property.kind == .mixed, property.collection == nil, rest == nil {
            return try compileMixedMember(column: column, steps: [.key(key)], comparison, at: position)
        }
        guard property.collection == .map else {
            throw QueryError.at(position, "'\(map)[…]' needs a map or an AnyRealmValue, and '\(map)' is \(property.typeName)")
        }
        guard let links, let layout = links.catalog.layouts[storedClass.name],
              let database = layout.collectionDatabase(of: column) else { return { _ in false } }
        let kind = property.kind
        guard let rest else {
            property.collection = nil
            property.objectClassName = nil
            return try compileDerived(property, comparison, describing: "\(map)['\(key)']", at: position) { row in
                row.isAbsent ? .null : links.mapValue(of: row.key, key: key, in: database, kind: kind) ?? .null
            }
        }
        guard let targetName = property.objectClassName, let targetLayout = links.catalog.layouts[targetName] else {
            throw QueryError.at(position, "'\(map)[…].\(rest)' needs a map of objects")
        }
        var inner = comparison
        inner.lhs = .keyPath(rest, position: position)
        let test = try PredicateCompiler(storedClass: targetLayout.storedClass, links: links).compile(.comparison(inner))
        let whenMissing = RowReader.withAbsentObject(test)
        return { row in
            guard !row.isAbsent, case .link(let target)? = links.mapValue(of: row.key, key: key, in: database, kind: kind),
                  let targetRow = links.row(target, in: targetLayout) else { return whenMissing }
            return test(RowReader(targetRow, key: ObjectKey(target)))
        }
    }

    /// `SUBQUERY(collection, $x, predicate).@count op value`.
    func compileSubquery(column: Int, _ predicate: PredicateNode, _ comparison: Comparison,
                         at position: Int) throws(Realm.Error) -> RowPredicate {
        let property = storedClass.properties[column]
        let collection = property.name
        guard [.list, .set, .map].contains(property.collection), property.kind == .link, let targetName = property.objectClassName else {
            throw QueryError.at(position, "SUBQUERY needs a list, set or map of objects, and '\(collection)' is \(property.typeName)")
        }
        guard case .literal(let literal, _) = comparison.rhs, case .int = literal else {
            throw QueryError.at(comparison.rhs.position, "SUBQUERY(…).@count compares only with a whole number")
        }
        guard let links, let layout = links.catalog.layouts[storedClass.name],
              let database = layout.collectionDatabase(of: column),
              let target = links.catalog.layouts[targetName] else {
            let result = Self.test(comparison.op, ValueComparator.compare(.int(0), literal))
            return { _ in result }
        }
        let test = try PredicateCompiler(storedClass: target.storedClass, links: links).compile(predicate)
        let op = comparison.op
        let isMap = property.collection == .map
        // The inner predicate reads only the object it tests, so its answer for one object holds
        // for the whole evaluation: remembering it keeps nested subqueries from multiplying
        // their cost by the size of every list on the way down.
        var answers: [UInt64: Bool] = [:]
        var answersEvaluation: UInt64 = .max
        return { row in
            // The collection of no object has no count to compare.
            guard !row.isAbsent else { return false }
            if answersEvaluation != links.evaluation {
                answers.removeAll(keepingCapacity: true)
                answersEvaluation = links.evaluation
            }
            var count: Int64 = 0
            // A map's entries hold their key before the value; its nil values count for nothing.
            let values = isMap ? links.mapEntries(of: row.key, in: database, kind: .link).map(\.value)
                               : links.listValues(of: row.key, in: database, kind: .link)
            for value in values {
                guard case .link(let key) = value else { continue }
                if let known = answers[key] {
                    if known { count += 1 }
                    continue
                }
                guard let targetRow = links.row(key, in: target) else { continue }
                let passes = test(RowReader(targetRow, key: ObjectKey(key)))
                answers[key] = passes
                if passes { count += 1 }
            }
            return Self.test(op, ValueComparator.compare(.int(count), literal))
        }
    }

    /// The aggregate `name` of a list of `kind` values.
    static func aggregate(_ name: String, of kind: _StorageKind, at position: Int) throws(Realm.Error) -> ([_PersistedValue]) -> _PersistedValue {
        let numeric: Set<_StorageKind> = [.int, .float, .double, .decimal]
        switch name {
        case "@count", "@size":
            return { .int(Int64($0.count)) }
        case "@min", "@max":
            guard numeric.contains(kind) || kind == .date else {
                throw QueryError.at(position, "'\(name)' needs numbers or dates")
            }
            let wanted = name == "@min" ? -1 : 1
            return { values in
                values.filter { !$0.isNull }.reduce(nil as _PersistedValue?) { best, value in
                    guard let best else { return value }
                    return ValueComparator.compare(value, best) == wanted ? value : best
                } ?? .null
            }
        case "@sum", "@avg":
            guard numeric.contains(kind) else { throw QueryError.at(position, "'\(name)' needs numbers") }
            let average = name == "@avg"
            return { values in
                let numbers = values.compactMap { value -> Double? in
                    switch value {
                    case .int(let v): Double(v)
                    case .float(let v): Double(v)
                    case .double(let v): v
                    case .decimal(let v): v.doubleValue
                    default: nil
                    }
                }
                if average { return numbers.isEmpty ? .null : .double(numbers.reduce(0, +) / Double(numbers.count)) }
                return .double(numbers.reduce(0, +))
            }
        default:
            throw QueryError.at(position, "unknown collection operator '\(name)'; use @count (or @size), @min, @max, @sum or @avg")
        }
    }
}
