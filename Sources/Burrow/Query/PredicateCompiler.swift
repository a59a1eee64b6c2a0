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
        // Trees from the builder reach here without the parser's check.
        try PredicateLimits.check(node)
        return try compileNode(node)
    }

    func compileNode(_ node: PredicateNode) throws(Realm.Error) -> RowPredicate {
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
        case .comparison(let comparison):
            return try compile(comparison)
        }
    }

    func compile(_ comparison: Comparison) throws(Realm.Error) -> RowPredicate {
        if case .subqueryCount(let collection, let predicate, let position) = comparison.lhs {
            return try compileSubquery(collection, predicate, comparison, at: position)
        }
        if case .mapValue(let map, let key, let rest, let position) = comparison.lhs {
            return try compileMapValue(map: map, key: key, rest: rest, comparison, at: position)
        }
        if case .mixedPath(let name, let steps, let position) = comparison.lhs {
            return try compileMixedMember(column: mixedColumn(named: name, at: position), steps: steps, comparison, at: position)
        }
        if case .subqueryCount(_, _, let position) = comparison.rhs {
            throw QueryError.at(position, "put SUBQUERY(…).@count on the left of the comparison")
        }
        if case .keyPath(let path, let position) = comparison.lhs {
            let head = path.firstIndex(of: ".").map { String(path[..<$0]) } ?? path
            if !storedClass.properties.contains(where: { $0.name == head }), let backlinks = linkingObjects(named: head) {
                let rest = path.firstIndex(of: ".").map { String(path[path.index(after: $0)...]) }
                return try compileThroughBacklinks(comparison, backlinks, rest: rest, at: position)
            }
            if let column = storedClass.properties.firstIndex(where: { $0.name == head }),
               [.list, .set, .map].contains(storedClass.properties[column].collection) {
                let rest = path.firstIndex(of: ".").map { String(path[path.index(after: $0)...]) }
                return try compileThroughList(comparison, column: column, rest: rest, at: position)
            }
        }
        if let quantifier = comparison.quantifier {
            let name = if case .keyPath(let name, _) = comparison.lhs { name } else { "a value" }
            throw QueryError.at(comparison.lhs.position,
                                "'\(quantifier.rawValue)' needs a list, set or map property, and '\(name)' on \(storedClass.name) is not one")
        }
        if case .keyPath(let path, let position) = comparison.lhs, let dot = path.firstIndex(of: "."),
           let column = storedClass.properties.firstIndex(where: { $0.name == path[..<dot] && $0.kind == .mixed && $0.collection == nil }) {
            return try compileMixedAggregate(column: column, String(path[path.index(after: dot)...]), comparison, at: position)
        }
        if case .keyPath(let path, let position) = comparison.lhs, let dot = path.firstIndex(of: ".") {
            return try compileThroughLink(comparison, head: String(path[..<dot]), rest: String(path[path.index(after: dot)...]),
                                          at: position)
        }
        if case .keyPath(let path, let position) = comparison.rhs, path.contains(".") {
            throw QueryError.at(position, "put the key path '\(path)' on the left of the comparison")
        }
        switch (comparison.lhs, comparison.rhs) {
        case (.argument(_, let position), _), (_, .argument(_, let position)), (.keyPathArgument(_, let position), _),
             (_, .keyPathArgument(_, let position)), (.listArgument(_, let position), _), (_, .listArgument(_, let position)):
            throw QueryError.at(position, "an argument was not bound")
        case (.mapValue(_, _, _, let position), _), (_, .mapValue(_, _, _, let position)),
             (.mixedPath(_, _, let position), _), (_, .mixedPath(_, _, let position)):
            throw QueryError.at(position, "put map['key'] on the left of the comparison")
        case (.subqueryCount(_, _, let position), _), (_, .subqueryCount(_, _, let position)):
            throw QueryError.at(position, "SUBQUERY(…).@count compares only with a whole number")
        case (.keyPath(let name, let position), .list(let values, _)) where comparison.op == .in:
            return try membership(column: column(named: name, at: position), values, comparison)
        case (_, .list), (.list, _):
            throw QueryError.at(comparison.position, "a list of values goes only on the right of IN")
        case (_, _) where comparison.op == .in:
            throw QueryError.at(comparison.rhs.position, "IN needs a list such as {1, 2} or an array argument")
        case (.keyPath(let name, let position), .literal(let value, _)):
            return try compare(column: column(named: name, at: position), comparison.op, value, comparison)
        case (.literal(let value, _), .keyPath(let name, let position)):
            guard !comparison.op.isStringOperator else {
                throw QueryError.at(comparison.position, "'\(comparison.op.rawValue)' needs the property on its left")
            }
            return try compare(column: column(named: name, at: position), comparison.op.mirrored, value, comparison)
        case (.keyPath(let leftName, let leftPosition), .keyPath(let rightName, let rightPosition)):
            let left = try column(named: leftName, at: leftPosition)
            let right = try column(named: rightName, at: rightPosition)
            return try compareColumns(left, right, comparison)
        case (.literal(let left, _), .literal(let right, _)):
            guard !comparison.op.isStringOperator else {
                throw QueryError.at(comparison.position, "'\(comparison.op.rawValue)' needs a property on its left")
            }
            let result = Self.test(comparison.op, ValueComparator.compare(left, right), lhsNull: left.isNull, rhsNull: right.isNull)
            return { _ in result }
        }
    }

    /// A row with no columns: every property reads as `nil`.
    static let emptyRow: [UInt8] = [0, 0]

    /// The column of property `name`; traps nothing, throws a message with a suggestion.
    func column(named name: String, at position: Int) throws(Realm.Error) -> Int {
        if let index = storedClass.properties.firstIndex(where: { $0.name == name }) { return index }
        if let dot = name.firstIndex(of: "."), let first = storedClass.properties.first(where: { $0.name == name[..<dot] }) {
            throw QueryError.at(position, "key path '\(name)' goes through '\(first.name)', which is \(typeName(of: first)), not a link")
        }
        var message = "unknown property '\(name)' on \(storedClass.name)"
        if let suggestion = closestName(to: name) { message += "; did you mean '\(suggestion)'?" }
        throw QueryError.at(position, message)
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
        case (.decimal, .int(let v)): return .decimal(Decimal(v))
        case (.decimal, .double(let v)):
            // Through its shortest text: `Decimal(Double)` traps on infinities. A double no
            // decimal can hold equals no stored decimal.
            return v.isFinite ? Decimal(string: String(v), locale: Locale(identifier: "en_US_POSIX")).map { .decimal($0) } : nil
        case (.data, .string(let v)): return .data(Data(v.utf8))
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
                throw QueryError.at(comparison.position, "'\(comparison.op.rawValue)' needs a string, '\(name)' is \(typeName(column))")
            }
        }
        if value.isNull { return }
        if kind == .link, case .typedLink(let classID, _) = value { try checkClass(classID, against: column, comparison) }
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
            throw QueryError.at(comparison.position, "'\(name)' is \(typeName(column)), it cannot be compared with \(value.displayText)")
        }
        if kind == .bool || kind == .uuid || kind == .objectId || kind == .link, ![.equal, .notEqual].contains(comparison.op) {
            throw QueryError.at(comparison.position, "'\(comparison.op.rawValue)' cannot compare \(typeName(column)) property '\(name)'; use == or !=")
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
        case .decimal: .decimal(0)
        case .link: .link(0)
        case .mixed: .mixed(.null)
        }
        try check(probe, against: left, comparison)
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
        case .beginsWith, .endsWith, .contains, .like, .in: return false
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
