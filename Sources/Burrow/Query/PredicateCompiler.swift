import Foundation

/// A predicate bound to a class: tests one encoded row, reading only the columns it needs
/// straight from the row's bytes.
typealias RowPredicate = (RowReader) -> Bool

/// Binds a ``PredicateNode`` to a stored class's columns, checking names and types.
struct PredicateCompiler {
    let storedClass: StoredClass
    /// Follows key paths through to-one links; without it such key paths are refused.
    var links: LinkResolver? = nil

    /// - Throws: ``Realm/Error/Code/invalidQuery`` for an unknown property or a comparison the
    ///   property's type does not allow.
    func compile(_ node: PredicateNode) throws(Realm.Error) -> RowPredicate {
        try compile(PredicateBinder(storedClass: storedClass).bind(node))
    }

    /// The row test of a predicate bound to this compiler's class.
    ///
    /// - Throws: ``Realm/Error/Code/invalidQuery`` for a comparison the property's type does not allow.
    func compile(_ predicate: BoundPredicate) throws(Realm.Error) -> RowPredicate {
        assert(predicate.storedClass.name == storedClass.name, "A predicate bound to \(predicate.storedClass.name) compiled for \(storedClass.name)")
        return try compileNode(predicate.root)
    }

    private func compileNode(_ node: BoundNode) throws(Realm.Error) -> RowPredicate {
        switch node {
        case .constant(let value):
            return { _ in value }
        case .and(let lhs, let rhs):
            let left = try compileNode(lhs), right = try compileNode(rhs)
            return { left($0) && right($0) }
        case .or(let lhs, let rhs):
            let left = try compileNode(lhs), right = try compileNode(rhs)
            return { left($0) || right($0) }
        case .not(let inner):
            let compiled = try compileNode(inner)
            return { !compiled($0) }
        case .comparison(let bound):
            return try compile(bound)
        }
    }

    private func compile(_ bound: BoundComparison) throws(Realm.Error) -> RowPredicate {
        let comparison = bound.comparison
        switch bound.subject {
        case .value(let column, let value):
            return try compare(column: column, comparison.op, value, comparison)
        case .values(let column, let values):
            return try membership(column: column, values, comparison)
        case .columns(let left, let right):
            return try compareColumns(left, right, comparison)
        case .link(let column, let inner):
            return try compileThroughLink(comparison, column: column, inner: inner)
        case .collection(let column, let rest, let position):
            return try compileThroughList(comparison, column: column, rest: rest, at: position)
        case .backlinks(let origin, let property, let rest, let position):
            return try compileThroughBacklinks(comparison, (origin, property), rest: rest, at: position)
        case .mixedAggregate(let column, let name, let position):
            return try compileMixedAggregate(column: column, name, comparison, at: position)
        case .mixedMember(let column, let steps, let position):
            return try compileMixedMember(column: column, steps: steps, comparison, at: position)
        case .mapValue(let column, let key, let rest, let position):
            return try compileMapValue(column: column, key: key, rest: rest, comparison, at: position)
        case .subquery(let column, let predicate, let position):
            return try compileSubquery(column: column, predicate, comparison, at: position)
        case .backlinkSubquery(let origin, let property, let predicate, let position):
            return try compileBacklinkSubquery((origin, property), predicate, comparison, at: position)
        case .geoWithin(let column, let region, let position):
            return try compileGeoWithin(column: column, region: region, comparison, at: position)
        }
    }

    /// `column IN {values}`: equal to one of them.
    func membership(column: Int, _ values: [_PersistedValue], _ comparison: Comparison) throws(Realm.Error) -> RowPredicate {
        let kind = storedClass.kinds(column)
        for value in values { try check(value, against: column, comparison.with(op: .equal)) }
        if kind == .mixed {
            // A mixed value carries its own kind, and numbers match across kinds: test `==`.
            let tests = try values.map { value throws(Realm.Error) in try compare(column: column, .equal, value, comparison.with(op: .equal)) }
            return { row in tests.contains { $0(row) } }
        }
        if kind == .string && (comparison.caseInsensitive || comparison.diacriticInsensitive) {
            let fold = Self.folding(caseInsensitive: comparison.caseInsensitive, diacriticInsensitive: comparison.diacriticInsensitive)
            let wanted = Set(values.compactMap { if case .string(let text) = $0 { fold(text) } else { nil } })
            let matchesNull = values.contains(.null)
            return { row in
                row.isNull(column) ? matchesNull : wanted.contains(fold(String(decoding: row.columnBytes(column), as: UTF8.self)))
            }
        }
        // Equal values have equal index keys, once numbers are in the column's own kind.
        let wanted = Set(values.compactMap { Self.converted($0, to: kind) }.map(IndexKeyEncoder.key(for:)))
        var scratch: [UInt8] = []
        return { row in
            scratch.removeAll(keepingCapacity: true)
            IndexKeyEncoder.append(row.value(column, kind: kind), to: &scratch)
            return wanted.contains(scratch)
        }
    }

    /// `value` as a value of `kind` (numbers across widths), or `nil` when no value of that kind
    /// can equal it.
    static func converted(_ value: _PersistedValue, to kind: _StorageKind) -> _PersistedValue? {
        switch (kind, value) {
        case (_, .null): return .null
        case (.int, .double(let v)): return Int64(exactly: v).map { .int($0) }
        case (.int, .float(let v)): return Int64(exactly: v).map { .int($0) }
        case (.double, .int(let v)): return .double(Double(v))
        case (.double, .float(let v)): return .double(Double(v))
        case (.float, .int(let v)): return .float(Float(v))
        case (.float, .double(let v)): return Float(exactly: v).map { .float($0) }
        case (.decimal, .int(let v)): return .decimal(Decimal128(number: v))
        case (.decimal, .double(let v)): return .decimal(Decimal128(number: v))
        case (.decimal, .float(let v)): return .decimal(Decimal128(number: v))
        case (.data, .string(let v)): return .data(Data(v.utf8))
        case (.link, QueryParser.objectNotInRealm): return nil
        case (.link, .typedLink(_, let key)): return .link(key)
        default: return value
        }
    }

    /// Whether a literal of this value can be compared with a column of `kind` using `op`.
    func check(_ value: _PersistedValue, against column: Int, _ comparison: Comparison) throws(Realm.Error) {
        let kind = storedClass.kinds(column)
        let name = storedClass.properties[column].name
        if comparison.op.isStringOperator {
            guard kind == .string || kind == .data || kind == .mixed else {
                throw QueryError.at(comparison.position, "'\(comparison.op.rawValue)' needs a string, '\(name)' is \(storedClass.properties[column].typeName)")
            }
        }
        if value.isNull { return }
        if kind == .link, value != QueryParser.objectNotInRealm, case .typedLink(let classID, _) = value {
            try checkClass(classID, against: column, comparison)
        }
        let fits: Bool = switch (kind, value) {
        case (.int, .int), (.int, .double), (.double, .int), (.double, .double), (.float, .int), (.float, .double),
             (.float, .float), (.double, .float), (.int, .float),
             (.decimal, .int), (.decimal, .double), (.decimal, .decimal),
             (.bool, .bool), (.string, .string), (.data, .data), (.data, .string), (.date, .date),
             (.uuid, .uuid), (.objectId, .objectId), (.link, .link), (.link, .typedLink): true
        case (.mixed, _): true
        default: false
        }
        guard fits else {
            throw QueryError.at(comparison.position, "'\(name)' is \(storedClass.properties[column].typeName), it cannot be compared with \(value.displayText)")
        }
        if kind == .bool || kind == .uuid || kind == .objectId || kind == .link, ![.equal, .notEqual].contains(comparison.op) {
            throw QueryError.at(comparison.position, "'\(comparison.op.rawValue)' cannot compare \(storedClass.properties[column].typeName) property '\(name)'; use == or !=")
        }
    }

    /// Refuses an object argument of another class than the one `column` links to.
    func checkClass(_ classID: UInt32, against column: Int, _ comparison: Comparison) throws(Realm.Error) {
        let property = storedClass.properties[column]
        // Without a class name (map keys read as values) or a catalog there is nothing to check against.
        guard let target = property.objectClassName, let catalog = links?.catalog else { return }
        guard catalog.layouts[target]?.classID != classID else { return }
        let given = catalog.layouts.values.first { $0.classID == classID }?.className ?? "another class"
        throw QueryError.at(comparison.position, "'\(property.name)' links to \(target) objects; it cannot be compared with an object of \(given)")
    }

    func compare(column: Int, _ op: ComparisonOperator, _ value: _PersistedValue, _ comparison: Comparison) throws(Realm.Error) -> RowPredicate {
        try check(value, against: column, comparison)
        let kind = storedClass.kinds(column)
        if value.isNull {
            let result = Self.test(op, nil, lhsNull: false, rhsNull: true)
            let bothNull = Self.test(op, nil, lhsNull: true, rhsNull: true)
            return { $0.isNull(column) ? bothNull : result }
        }
        if value == QueryParser.objectNotInRealm {
            let result = op == .notEqual
            return { _ in result }
        }
        let nullResult = Self.test(op, nil, lhsNull: true, rhsNull: false)
        switch (kind, value) {
        case (.int, .int(let constant)):
            return { row in row.isNull(column) ? nullResult : Self.test(op, ValueComparator.sign(row.int(column), constant)) }
        case (.int, .double(let constant)):
            return { row in row.isNull(column) ? nullResult : Self.test(op, ValueComparator.sign(Double(row.int(column)), constant)) }
        case (.double, .int), (.double, .double), (.double, .float):
            let constant = Self.double(value)
            return { row in row.isNull(column) ? nullResult : Self.test(op, ValueComparator.sign(row.double(column), constant)) }
        case (.date, .date(let date)):
            let constant = date.timeIntervalSinceReferenceDate
            return { row in row.isNull(column) ? nullResult : Self.test(op, ValueComparator.sign(row.double(column), constant)) }
        case (.string, .string(let text)) where !comparison.caseInsensitive && !comparison.diacriticInsensitive:
            return stringPredicate(column: column, op, Array(text.utf8), nullResult: nullResult)
        case (.data, .string(let text)):
            return stringPredicate(column: column, op, Array(text.utf8), nullResult: nullResult)
        case (.data, .data(let bytes)):
            return stringPredicate(column: column, op, Array(bytes), nullResult: nullResult)
        case (.mixed, .string(let text)) where op.isStringOperator:
            let fold = Self.folding(caseInsensitive: comparison.caseInsensitive, diacriticInsensitive: comparison.diacriticInsensitive)
            let constant = Array(fold(text).utf8)
            return { row in
                guard case .mixed(.string(let held)) = row.value(column, kind: .mixed) else { return false }
                let folded = Array(fold(held).utf8)
                return folded.withUnsafeBytes { bytes in constant.withUnsafeBytes { Self.testBytes(op, bytes, $0) } }
            }
        case (.string, .string(let text)):
            let fold = Self.folding(caseInsensitive: comparison.caseInsensitive, diacriticInsensitive: comparison.diacriticInsensitive)
            let constant = Array(fold(text).utf8)
            return { row in
                guard !row.isNull(column) else { return nullResult }
                let folded = Array(fold(String(decoding: row.columnBytes(column), as: UTF8.self)).utf8)
                return folded.withUnsafeBytes { bytes in constant.withUnsafeBytes { Self.testBytes(op, bytes, $0) } }
            }
        default:
            return { row in
                guard !row.isNull(column) else { return nullResult }
                return Self.test(op, ValueComparator.compare(row.value(column, kind: kind), value))
            }
        }
    }

    func compareColumns(_ left: Int, _ right: Int, _ comparison: Comparison) throws(Realm.Error) -> RowPredicate {
        let leftKind = storedClass.kinds(left), rightKind = storedClass.kinds(right)
        let op = comparison.op
        let probe: _PersistedValue = switch rightKind {
        case .int: .int(0)
        case .double: .double(0)
        case .float: .float(0)
        case .string: .string("")
        case .data: .data(Data())
        case .bool: .bool(false)
        case .date: .date(Date())
        case .uuid: .uuid(UUID())
        case .objectId: .objectId(ObjectId())
        case .decimal: .decimal(Decimal128())
        case .link: .link(0)
        case .mixed: .mixed(.null)
        }
        try check(probe, against: left, comparison)
        let textual: Set<_StorageKind> = [.string, .data]
        if textual.contains(leftKind), textual.contains(rightKind),
           op.isStringOperator || comparison.caseInsensitive || comparison.diacriticInsensitive {
            // Text against text: the operator on the (folded) bytes of both columns.
            let fold = Self.folding(caseInsensitive: comparison.caseInsensitive, diacriticInsensitive: comparison.diacriticInsensitive)
            let folds = comparison.caseInsensitive || comparison.diacriticInsensitive
            return { row in
                if row.isNull(left) || row.isNull(right) {
                    return Self.test(op, nil, lhsNull: row.isNull(left), rhsNull: row.isNull(right))
                }
                guard folds else { return Self.testBytes(op, row.columnBytes(left), row.columnBytes(right)) }
                let lhs = Array(fold(String(decoding: row.columnBytes(left), as: UTF8.self)).utf8)
                let rhs = Array(fold(String(decoding: row.columnBytes(right), as: UTF8.self)).utf8)
                return lhs.withUnsafeBytes { l in rhs.withUnsafeBytes { Self.testBytes(op, l, $0) } }
            }
        }
        return { row in
            let lhs = row.value(left, kind: leftKind), rhs = row.value(right, kind: rightKind)
            return Self.test(op, ValueComparator.compare(lhs, rhs), lhsNull: lhs.isNull, rhsNull: rhs.isNull)
        }
    }

    // MARK: Tests

    /// The outcome of `op` given the order of the two sides (`nil`: incomparable or null).
    @inline(__always)
    static func test(_ op: ComparisonOperator, _ order: Int?, lhsNull: Bool = false, rhsNull: Bool = false) -> Bool {
        if lhsNull || rhsNull {
            let bothNull = lhsNull && rhsNull
            switch op {
            case .equal: return bothNull
            case .notEqual: return !bothNull
            case .lessOrEqual, .greaterOrEqual: return bothNull
            default: return false
            }
        }
        guard let order else { return op == .notEqual }
        switch op {
        case .equal: return order == 0
        case .notEqual: return order != 0
        case .less: return order < 0
        case .lessOrEqual: return order <= 0
        case .greater: return order > 0
        case .greaterOrEqual: return order >= 0
        case .beginsWith, .endsWith, .contains, .like, .in, .geoWithin: return false
        }
    }

    static func double(_ value: _PersistedValue) -> Double {
        switch value {
        case .int(let v): Double(v)
        case .double(let v): v
        case .float(let v): Double(v)
        default: .nan
        }
    }

}

extension StoredClass {
    func kinds(_ column: Int) -> _StorageKind { properties[column].kind }
}

extension Comparison {
    /// The same comparison with another operator.
    func with(op: ComparisonOperator) -> Comparison {
        var copy = self
        copy.op = op
        return copy
    }
}
