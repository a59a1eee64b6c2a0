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

    private func compileNode(_ node: PredicateNode) throws(Realm.Error) -> RowPredicate {
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

    private func compile(_ comparison: Comparison) throws(Realm.Error) -> RowPredicate {
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

    /// `link.rest op value`: the comparison evaluated on the linked object's row; with no linked
    /// object, every property on the path reads as `nil`.
    private func compileThroughLink(_ comparison: Comparison, head: String, rest: String, at position: Int) throws(Realm.Error) -> RowPredicate {
        let column = try column(named: head, at: position)
        let property = storedClass.properties[column]
        guard property.kind == .link, let targetName = property.objectClassName else {
            throw QueryError.at(position, "key path '\(head).\(rest)' goes through '\(head)', which is \(typeName(of: property)), not a link")
        }
        var inner = comparison
        inner.lhs = .keyPath(rest, position: position + head.utf16.count + 1)
        guard let links, let target = links.catalog.layouts[targetName] else {
            // With no table for the target class no object links anywhere: every path reads nil.
            guard let type = ClassInfo.type(named: targetName) else {
                throw QueryError.at(position, "key path '\(head).\(rest)' goes to class '\(targetName)', which this process does not know")
            }
            let test = try PredicateCompiler(storedClass: StoredClass(id: 0, info: ClassInfo.of(type)), links: nil).compile(.comparison(inner))
            let whenUnlinked = Self.emptyRow.withUnsafeBytes { test(RowReader($0)) }
            return { _ in whenUnlinked }
        }
        let test = try PredicateCompiler(storedClass: target.storedClass, links: links).compile(.comparison(inner))
        let whenUnlinked = Self.emptyRow.withUnsafeBytes { test(RowReader($0)) }
        return { row in
            guard case .link(let key) = row.value(column, kind: .link), let targetRow = links.row(key, in: target) else {
                return whenUnlinked
            }
            return test(RowReader(targetRow, key: ObjectKey(key)))
        }
    }

    /// A comparison on a list: `ANY`/`ALL`/`NONE list op value` (plain `list op value` is
    /// `ANY`), with `list.property` reaching into objects, and `list.@count`,
    /// `list.@min|@max|@sum|@avg` (values) or `list.@min|@max|@sum|@avg.property` (objects).
    private func compileThroughList(_ comparison: Comparison, column: Int, rest: String?, at position: Int) throws(Realm.Error) -> RowPredicate {
        let property = storedClass.properties[column]
        guard let links else {
            throw QueryError.at(position, "list '\(property.name)' cannot be queried here")
        }
        guard let layout = links.catalog.layouts[storedClass.name],
              let database = layout.lists.first(where: { $0.column == column })?.database else {
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
            if aggregate == "@count" {
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
                throw QueryError.at(position, "'\(property.name)' is a list of \(typeName(of: property)) values; it has no property '\(rest!)'")
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
            let values = elements(row.key)
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
    private func compileMapValue(map: String, key: String, rest: String?, _ comparison: Comparison,
                                 at position: Int) throws(Realm.Error) -> RowPredicate {
        let column = try column(named: map, at: position)
        var property = storedClass.properties[column]
        if property.kind == .mixed, property.collection == nil, rest == nil {
            return try compileMixedMember(column: column, steps: [.key(key)], comparison, at: position)
        }
        guard property.collection == .map else {
            throw QueryError.at(position, "'\(map)[…]' needs a map or an AnyRealmValue, and '\(map)' is \(typeName(of: property))")
        }
        guard let links, let layout = links.catalog.layouts[storedClass.name],
              let database = layout.lists.first(where: { $0.column == column })?.database else { return { _ in false } }
        let kind = property.kind
        guard let rest else {
            property.collection = nil
            property.objectClassName = nil
            return try compileDerived(property, comparison, describing: "\(map)['\(key)']", at: position) { row in
                links.mapValue(of: row.key, key: key, in: database, kind: kind) ?? .null
            }
        }
        guard let targetName = property.objectClassName, let targetLayout = links.catalog.layouts[targetName] else {
            throw QueryError.at(position, "'\(map)[…].\(rest)' needs a map of objects")
        }
        var inner = comparison
        inner.lhs = .keyPath(rest, position: position)
        let test = try PredicateCompiler(storedClass: targetLayout.storedClass, links: links).compile(.comparison(inner))
        let whenMissing = Self.emptyRow.withUnsafeBytes { test(RowReader($0)) }
        return { row in
            guard case .link(let target)? = links.mapValue(of: row.key, key: key, in: database, kind: kind),
                  let targetRow = links.row(target, in: targetLayout) else { return whenMissing }
            return test(RowReader(targetRow, key: ObjectKey(target)))
        }
    }

    /// The `LinkingObjects` property `name` of the class: its origin class and property.
    private func linkingObjects(named name: String) -> (origin: String, property: String)? {
        guard let type = ClassInfo.type(named: storedClass.name) else { return nil }
        let info = ClassInfo.of(type)
        guard let index = info.fieldIndex[name], info.fields[index].isComputed,
              let origin = info.fields[index].linkedType, let property = info.fields[index].originProperty else { return nil }
        return (ClassInfo.storedName(of: origin), property)
    }

    /// A comparison through `LinkingObjects`: ANY (unless ALL or NONE) of the linking objects,
    /// or `@count` of them.
    private func compileThroughBacklinks(_ comparison: Comparison, _ backlinks: (origin: String, property: String),
                                         rest: String?, at position: Int) throws(Realm.Error) -> RowPredicate {
        guard let rest else {
            throw QueryError.at(position, "compare a property of the linking objects, or their @count")
        }
        guard let links, let layout = links.catalog.layouts[storedClass.name], let origin = links.catalog.layouts[backlinks.origin] else {
            // No table for the linking class: every object has no linking objects.
            if rest == "@count", case .literal(let literal, _) = comparison.rhs {
                let result = Self.test(comparison.op, ValueComparator.compare(.int(0), literal))
                return { _ in result }
            }
            let result = comparison.quantifier == Quantifier.all || comparison.quantifier == Quantifier.none
            return { _ in result }
        }
        let classID = layout.classID
        let sources: (RowReader) -> [ObjectKey] = { row in
            links.reading([]) { txn in
                try LinkingObjectsKeys.keys(linkingTo: row.key, classID: classID, from: backlinks.origin,
                                            through: backlinks.property, catalog: links.catalog, txn: txn)
            }
        }
        if rest == "@count" {
            guard comparison.quantifier == nil, case .literal(let literal, _) = comparison.rhs else {
                throw QueryError.at(position, "@count of linking objects compares only with a value")
            }
            let op = comparison.op
            return { row in Self.test(op, ValueComparator.compare(.int(Int64(sources(row).count)), literal)) }
        }
        var inner = comparison
        inner.quantifier = nil
        inner.lhs = .keyPath(rest, position: position)
        let test = try PredicateCompiler(storedClass: origin.storedClass, links: links).compile(.comparison(inner))
        let quantifier = comparison.quantifier ?? .any
        return { row in
            var matches = 0, total = 0
            for key in sources(row) {
                guard let sourceRow = links.row(key.rawValue, in: origin) else { continue }
                total += 1
                if test(RowReader(sourceRow, key: key)) { matches += 1 }
            }
            switch quantifier {
            case .any: return matches > 0
            case .all: return matches == total
            case .none: return matches == 0
            }
        }
    }

    /// `SUBQUERY(collection, $x, predicate).@count op value`.
    private func compileSubquery(_ collection: String, _ predicate: PredicateNode, _ comparison: Comparison,
                                 at position: Int) throws(Realm.Error) -> RowPredicate {
        let column = try column(named: collection, at: position)
        let property = storedClass.properties[column]
        guard [.list, .set, .map].contains(property.collection), property.kind == .link, let targetName = property.objectClassName else {
            throw QueryError.at(position, "SUBQUERY needs a list, set or map of objects, and '\(collection)' is \(typeName(of: property))")
        }
        guard case .literal(let literal, _) = comparison.rhs, case .int = literal else {
            throw QueryError.at(comparison.rhs.position, "SUBQUERY(…).@count compares only with a whole number")
        }
        guard let links, let layout = links.catalog.layouts[storedClass.name],
              let database = layout.lists.first(where: { $0.column == column })?.database,
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
    private static func aggregate(_ name: String, of kind: _StorageKind, at position: Int) throws(Realm.Error) -> ([_PersistedValue]) -> _PersistedValue {
        let numeric: Set<_StorageKind> = [.int, .float, .double, .decimal]
        switch name {
        case "@count":
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
                    case .decimal(let v): NSDecimalNumber(decimal: v).doubleValue
                    default: nil
                    }
                }
                if average { return numbers.isEmpty ? .null : .double(numbers.reduce(0, +) / Double(numbers.count)) }
                return .double(numbers.reduce(0, +))
            }
        default:
            throw QueryError.at(position, "unknown collection operator '\(name)'; use @count, @min, @max, @sum or @avg")
        }
    }

    /// A row with no columns: every property reads as `nil`.
    private static let emptyRow: [UInt8] = [0, 0]

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
    private func membership(column: Int, _ values: [_PersistedValue], _ comparison: Comparison) throws(Realm.Error) -> RowPredicate {
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

    private func closestName(to name: String) -> String? {
        let scored = storedClass.properties.map { ($0.name, editDistance($0.name.lowercased(), name.lowercased())) }
        guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= max(2, name.count / 3) else { return nil }
        return best.0
    }

    private func typeName(_ column: Int) -> String {
        typeName(of: storedClass.properties[column])
    }

    func typeName(of property: StoredProperty) -> String {
        let base: String = switch property.kind {
        case .bool: "Bool"
        case .int: "Int"
        case .float: "Float"
        case .double: "Double"
        case .string: "String"
        case .data: "Data"
        case .date: "Date"
        case .uuid: "UUID"
        case .objectId: "ObjectId"
        case .decimal: "Decimal"
        case .link: property.objectClassName ?? "Object"
        case .mixed: "AnyRealmValue"
        }
        return property.isOptional ? base + "?" : base
    }

    /// Whether a literal of this value can be compared with a column of `kind` using `op`.
    private func check(_ value: _PersistedValue, against column: Int, _ comparison: Comparison) throws(Realm.Error) {
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
    private func checkClass(_ classID: UInt32, against column: Int, _ comparison: Comparison) throws(Realm.Error) {
        let property = storedClass.properties[column]
        // Without a class name (map keys read as values) or a catalog there is nothing to check against.
        guard let target = property.objectClassName, let catalog = links?.catalog else { return }
        guard catalog.layouts[target]?.classID != classID else { return }
        let given = catalog.layouts.values.first { $0.classID == classID }?.className ?? "another class"
        throw QueryError.at(comparison.position, "'\(property.name)' links to \(target) objects; it cannot be compared with an object of \(given)")
    }

    private func compare(column: Int, _ op: ComparisonOperator, _ value: _PersistedValue, _ comparison: Comparison) throws(Realm.Error) -> RowPredicate {
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

    private func stringPredicate(column: Int, _ op: ComparisonOperator, _ constant: [UInt8], nullResult: Bool) -> RowPredicate {
        { row in
            guard !row.isNull(column) else { return nullResult }
            return constant.withUnsafeBytes { Self.testBytes(op, row.columnBytes(column), $0) }
        }
    }

    private func compareColumns(_ left: Int, _ right: Int, _ comparison: Comparison) throws(Realm.Error) -> RowPredicate {
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

    @inline(__always)
    static func testBytes(_ op: ComparisonOperator, _ value: UnsafeRawBufferPointer, _ constant: UnsafeRawBufferPointer) -> Bool {
        switch op {
        case .beginsWith:
            return value.count >= constant.count
                && ValueComparator.bytes(UnsafeRawBufferPointer(rebasing: value[0..<constant.count]), constant) == 0
        case .endsWith:
            return value.count >= constant.count
                && ValueComparator.bytes(UnsafeRawBufferPointer(rebasing: value[(value.count - constant.count)...]), constant) == 0
        case .contains:
            if constant.isEmpty { return true }
            guard value.count >= constant.count else { return false }
            for start in 0...(value.count - constant.count)
            where memcmp(value.baseAddress! + start, constant.baseAddress!, constant.count) == 0 {
                return true
            }
            return false
        case .like:
            return like(value, pattern: constant)
        default:
            return test(op, ValueComparator.bytes(value, constant))
        }
    }

    /// Whether UTF-8 `value` matches `pattern`, where `*` stands for any run of characters and
    /// `?` for exactly one (one Unicode scalar).
    static func like(_ value: UnsafeRawBufferPointer, pattern: UnsafeRawBufferPointer) -> Bool {
        @inline(__always) func scalarEnd(_ bytes: UnsafeRawBufferPointer, _ start: Int) -> Int {
            var end = start + 1
            while end < bytes.count, bytes[end] & 0xC0 == 0x80 { end += 1 }
            return end
        }
        var v = 0, p = 0
        var starPattern = -1, starValue = 0
        while v < value.count {
            if p < pattern.count, pattern[p] == UInt8(ascii: "?") {
                v = scalarEnd(value, v); p += 1
            } else if p < pattern.count, pattern[p] == UInt8(ascii: "*") {
                starPattern = p; starValue = v; p += 1
            } else if p < pattern.count, pattern[p] == value[v] {
                v += 1; p += 1
            } else if starPattern >= 0 {
                starValue = scalarEnd(value, starValue)
                v = starValue; p = starPattern + 1
            } else {
                return false
            }
        }
        while p < pattern.count, pattern[p] == UInt8(ascii: "*") { p += 1 }
        return p == pattern.count
    }

    private static func double(_ value: _PersistedValue) -> Double {
        switch value {
        case .int(let v): Double(v)
        case .double(let v): v
        case .float(let v): Double(v)
        default: .nan
        }
    }

    /// Folds case and diacritics (Unicode-aware: "Ä" becomes "a").
    static func folding(caseInsensitive: Bool, diacriticInsensitive: Bool) -> @Sendable (String) -> String {
        var flags: String.CompareOptions = []
        if caseInsensitive { flags.insert(.caseInsensitive) }
        if diacriticInsensitive { flags.insert(.diacriticInsensitive) }
        let options = flags
        return { $0.folding(options: options, locale: nil) }
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

/// Levenshtein distance, for "did you mean" suggestions.
func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a), b = Array(b)
    guard !a.isEmpty else { return b.count }
    guard !b.isEmpty else { return a.count }
    var previous = Array(0...b.count)
    for i in 1...a.count {
        var current = [i] + [Int](repeating: 0, count: b.count)
        for j in 1...b.count {
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
        }
        previous = current
    }
    return previous[b.count]
}
