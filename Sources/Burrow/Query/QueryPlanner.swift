import Foundation
import LMDB

/// Chooses how to find the candidates of a predicate: through the primary key, through a
/// secondary index, or by scanning the table.
///
/// Only the top-level `AND` terms are considered. Primary-key equality and `IN` come first, then
/// indexed equality and `IN`, then an indexed range or `BEGINSWITH`. Candidates are then checked
/// against the whole predicate, unless the chosen term is the whole predicate and the index
/// answers it exactly ("covered").
struct QueryPlanner {
    let layout: TableLayout

    /// One way to reach candidates.
    enum AccessPath {
        /// Object keys known outright (integer primary keys).
        case objectKeys([ObjectKey], covered: Bool)
        /// A range of object keys (a range of integer primary keys).
        case objectKeyRange(lower: ObjectKey, upper: ObjectKey, covered: Bool)
        /// Exact index keys in an index database.
        case indexPoints(IndexAccess, keys: [[UInt8]], covered: Bool)
        /// One exact index key whose entries are the matches: a lone `==` the index answers.
        case indexPoint(IndexAccess, key: [UInt8])
        /// Index keys in any of the ranges `[lower, upper)`.
        case indexRanges(IndexAccess, [(lower: [UInt8], upper: [UInt8])], covered: Bool)
        /// Every object.
        case scan

        /// Whether every object is a candidate.
        var isScan: Bool {
            if case .scan = self { return true }
            return false
        }

        var isCovered: Bool {
            switch self {
            case .objectKeys(_, let covered), .objectKeyRange(_, _, let covered), .indexPoints(_, _, let covered),
                 .indexRanges(_, _, let covered): covered
            case .indexPoint: true
            case .scan: false
            }
        }
    }

    /// An index database and how its entries name objects.
    struct IndexAccess {
        let database: Database
        /// Secondary indexes end each key with the object key; the primary-key database stores
        /// the object key as the value.
        let objectKeyIsSuffix: Bool
        /// The column whose values the index holds.
        let column: Int
    }

    /// The access path for `predicate`, bound to this layout's class.
    func plan(_ predicate: BoundPredicate?) -> AccessPath {
        guard let predicate else { return .scan }
        if let path = planSingleEquality(predicate.root) { return path }
        let terms = predicate.conjuncts
        let single = terms.count == 1
        var best: (rank: Int, path: AccessPath)?
        func consider(_ rank: Int, _ path: AccessPath) {
            if best == nil || rank < best!.rank { best = (rank, path) }
        }
        var lowerBounds: [Int: (value: _PersistedValue, inclusive: Bool)] = [:]
        var upperBounds: [Int: (value: _PersistedValue, inclusive: Bool)] = [:]
        for term in terms {
            guard case .comparison(let comparison) = term, let (column, op, values) = comparison.indexable else { continue }
            let kind = layout.kinds[column]
            let isPrimary = column == layout.primaryKeyColumn
            guard isPrimary || layout.secondaryIndexes.contains(where: { $0.column == column }) else { continue }
            switch (op, values.first) {
            case (.equal, _), (.in, _):
                consider(isPrimary ? 0 : 1, points(column, values, covered: single))
            case _ where layout.cipher != nil:
                // An encrypted file's index keys are hashes: they answer equality, not order.
                continue
            case (.beginsWith, .string(let prefix)?) where kind == .string:
                if let access = access(column), prefix.utf8.count <= IndexKeyEncoder.maximumInlineLength {
                    var inline = IndexKeyEncoder.key(for: .string(prefix))
                    inline.removeLast(2)  // the terminator: keep a pure prefix
                    // Long values live under tag 2 with the same escaped prefix.
                    var long = inline
                    long[0] = 2
                    consider(3, .indexRanges(access, [(inline, Self.successor(of: inline)), (long, Self.successor(of: long))],
                                             covered: false))
                }
            case (_, let value?) where op.isOrdering && !value.isNull:
                guard let (converted, exact) = QueryPlanner.rangeValue(value, for: kind, op: op) else { continue }
                let inclusive = op == .lessOrEqual || op == .greaterOrEqual || !exact
                if op == .greater || op == .greaterOrEqual {
                    // A second bound on the same side is left to the row test.
                    if lowerBounds[column] == nil { lowerBounds[column] = (converted, inclusive) }
                } else if upperBounds[column] == nil {
                    upperBounds[column] = (converted, inclusive)
                }
            default:
                continue
            }
        }
        for column in Set(lowerBounds.keys).union(upperBounds.keys) {
            // The range answers the query alone only when its bounds are all of the query's terms.
            let bounds = (lowerBounds[column] == nil ? 0 : 1) + (upperBounds[column] == nil ? 0 : 1)
            let covered = terms.count == bounds && [.int, .bool, .date, .uuid, .objectId].contains(layout.kinds[column])
            if let path = range(column, lower: lowerBounds[column], upper: upperBounds[column], covered: covered) {
                consider(column == layout.primaryKeyColumn ? 2 : 3, path)
            }
        }
        return best?.path ?? .scan
    }

    /// The path of a lone `property == value` on a key or an index whose value has the
    /// property's own kind, which the index answers exactly, so that no row test is needed (and
    /// nothing is left to check); `nil` for anything else.
    func exactEqualityPath(_ predicate: BoundPredicate) -> AccessPath? {
        guard let (column, value) = loneEquality(predicate) else { return nil }
        return exactEqualityPath(column: column, value: value)
    }

    /// ``exactEqualityPath(_:)`` read from the parsed tree, before binding: the common
    /// `property == value` on a stored property of the class, made ready without the binder.
    /// `nil` for anything else, which the binder then takes.
    func exactEqualityPath(_ node: PredicateNode) -> AccessPath? {
        guard case .comparison(let comparison) = node, comparison.op == .equal, comparison.quantifier == nil,
              !comparison.caseInsensitive, !comparison.diacriticInsensitive,
              case .keyPath(let name, _) = comparison.lhs, case .literal(let value, _) = comparison.rhs,
              let column = layout.storedClass.properties.firstIndex(where: { $0.name == name }),
              layout.storedClass.properties[column].collection == nil, isExact(value, for: column) else {
            return nil
        }
        return exactEqualityPath(column: column, value: value)
    }

    /// The path of `property == value` for the property at `column`, `value` of its own kind.
    private func exactEqualityPath(column: Int, value: _PersistedValue) -> AccessPath? {
        // The value has the column's kind: no conversion, one key.
        if column == layout.primaryKeyColumn && layout.usesPrimaryKeyAsObjectKey {
            guard case .int(let integer) = value else { return nil }
            return .objectKeys([ObjectKey(primaryKey: integer)], covered: true)
        }
        guard let access = access(column) else { return nil }
        let key = IndexKeyEncoder.key(for: value, hashingWith: layout.cipher)
        return IndexKeyEncoder.isTruncated(key) ? nil : .indexPoint(access, key: key)
    }

    /// On an encrypted file, the path of a lone `property == value` on an index whose value has
    /// the property's own kind and is stored whole before it is hashed: its entries are exactly
    /// the matches (a 16-byte keyed hash, whose collisions between distinct values are not a
    /// practical concern), so they can be counted without reading rows. `nil` for anything else,
    /// and for long strings and data, whose keys hash a truncated value.
    func hashedEqualityPath(_ predicate: BoundPredicate) -> AccessPath? {
        guard let cipher = layout.cipher, let (column, value) = loneEquality(predicate),
              !(column == layout.primaryKeyColumn && layout.usesPrimaryKeyAsObjectKey),
              !IndexKeyEncoder.isTruncated(IndexKeyEncoder.key(for: value)), let access = access(column) else {
            return nil
        }
        return .indexPoint(access, key: IndexKeyEncoder.key(for: value, hashingWith: cipher))
    }

    /// The column and value of a predicate that is a lone exact `property == value`, the value of
    /// the property's own kind (or `nil` for an optional property); `nil` for anything else.
    private func loneEquality(_ predicate: BoundPredicate) -> (column: Int, value: _PersistedValue)? {
        guard case .comparison(let comparison) = predicate.root, case .value(let column, let value) = comparison.subject,
              comparison.comparison.op == .equal, comparison.isIndexable, isExact(value, for: column) else {
            return nil
        }
        return (column, value)
    }

    /// Whether `value` has the kind of the property at `column`, or is `nil` for an optional one.
    private func isExact(_ value: _PersistedValue, for column: Int) -> Bool {
        value.isNull ? layout.storedClass.properties[column].isOptional : value.kind == layout.kinds[column]
    }

    /// The common `property == value` on a key or an index, planned without the general
    /// machinery; `nil` when `node` is anything else.
    private func planSingleEquality(_ node: BoundNode) -> AccessPath? {
        guard case .comparison(let comparison) = node, case .value(let column, let value) = comparison.subject,
              comparison.comparison.op == .equal, comparison.isIndexable,
              column == layout.primaryKeyColumn || layout.secondaryIndexes.contains(where: { $0.column == column }) else {
            return nil
        }
        return points(column, [value], covered: true)
    }

    /// The candidate object keys of `path`, in object key order; `nil` for a scan.
    func candidates(_ path: AccessPath, in txn: Transaction) throws -> [ObjectKey]? {
        switch path {
        case .scan:
            return nil
        case .objectKeys(let keys, _):
            return try Set(keys).filter { try exists($0, in: txn) }.sorted()
        case .objectKeyRange(let lower, let upper, _):
            var keys: [ObjectKey] = []
            let cursor = try txn.openCursor(layout.rows)
            var entry = try lower.withBytes { try cursor.seek(atLeast: $0) }
            while let (key, _) = entry {
                let objectKey = try ObjectKey(checking: key, in: layout.className)
                guard objectKey <= upper else { break }
                keys.append(objectKey)
                entry = try cursor.next()
            }
            return keys
        case .indexPoints(let access, let points, _):
            let cursor = try txn.openCursor(access.database)
            var keys: [ObjectKey] = []
            keys.reserveCapacity(16)  // room for a typical match without regrowing
            for point in points.count == 1 ? points : Array(Set(points)) {
                try visitEntries(of: point, in: access, with: cursor) { key in
                    keys.append(key)
                    return true
                }
            }
            // One point's entries come in object key order already: they share the value prefix.
            return points.count == 1 ? keys : keys.sorted()
        case .indexPoint(let access, let point):
            var keys: [ObjectKey] = []
            keys.reserveCapacity(16)
            try visitEntries(of: point, in: access, with: txn.openCursor(access.database)) { key in
                keys.append(key)
                return true
            }
            return keys
        case .indexRanges(let access, let ranges, _):
            let cursor = try txn.openCursor(access.database)
            var keys: [ObjectKey] = []
            for (lower, upper) in ranges {
                var entry = try cursor.seek(atLeast: lower)
                while let (key, value) = entry {
                    let objectKey = access.objectKeyIsSuffix ? try ObjectKey(suffixOf: key, in: layout.className) : nil
                    let indexPart = objectKey == nil ? key : UnsafeRawBufferPointer(rebasing: key[..<(key.count - 8)])
                    guard upper.withUnsafeBytes({ ValueComparator.bytes(indexPart, $0) }) < 0 else { break }
                    keys.append(try objectKey ?? ObjectKey(checking: value, in: layout.className))
                    entry = try cursor.next()
                }
            }
            return keys.sorted()
        }
    }

    /// Calls `visit` with the candidates of a path of one point (one object key, or one index
    /// key) in object key order until it returns `false`, collecting nothing; returns `false`
    /// without visiting for any other path.
    func visitSinglePoint(_ path: AccessPath, in txn: Transaction, _ visit: (ObjectKey) -> Bool) throws -> Bool {
        switch path {
        case .objectKeys(let keys, _) where keys.count <= 1:
            if let key = keys.first, try exists(key, in: txn) { _ = visit(key) }
            return true
        case .indexPoint(let access, let point):
            try visitEntries(of: point, in: access, with: txn.openCursor(access.database), visit)
            return true
        default:
            return false
        }
    }

    /// Calls `visit` with the object keys of the entries of index key `point`, in object key
    /// order, until it returns `false`. Finding none, checks the entries beside where they
    /// would be: damage there can hide them.
    private func visitEntries(of point: [UInt8], in access: IndexAccess, with cursor: Cursor, _ visit: (ObjectKey) throws -> Bool) throws {
        var found = false
        do {
            var entry = try cursor.seek(atLeast: point)
            while let (key, value) = entry, Self.matches(point, key, access) {
                found = true
                guard try visit(access.objectKeyIsSuffix ? Self.suffixKey(key) : try ObjectKey(checking: value, in: layout.className)) else { return }
                entry = try cursor.next()
            }
        } catch LMDBError.damagedPage {
            throw layout.damagedPage(holding: layout.indexName(access.column))
        }
        if !found { try layout.verifyIndexEntriesBeside(point, in: access.database, column: access.column, txn: cursor.transaction) }
    }

    /// Checks a candidate that an index point of `path` led to and whose row the query's test
    /// rejected: the row's own value must have that point's key (it shares a truncated or
    /// hashed key with the value asked for), or the index entry is damaged.
    func verifyRejected(_ key: ObjectKey, row: UnsafeRawBufferPointer, of path: AccessPath) throws {
        switch path {
        case .indexPoints(let access, let points, _): try layout.verifyRejectedCandidate(key, row: row, column: access.column, points: points)
        case .indexPoint(let access, let point): try layout.verifyRejectedCandidate(key, row: row, column: access.column, points: [point])
        default: return
        }
    }

    /// Checks a candidate that `path` led to and that has no row: an index holds entries of
    /// existing objects only (deleting an object removes its entries), so an index entry that
    /// leads nowhere is damage, which is thrown rather than the candidate left out. Candidates
    /// named by object keys were checked to exist already.
    func verifyMissing(_ key: ObjectKey, of path: AccessPath) throws {
        switch path {
        case .indexPoints(let access, _, _), .indexPoint(let access, _), .indexRanges(let access, _, _):
            throw layout.danglingEntry(in: access.column, to: key)
        default:
            return
        }
    }

    /// Whether the table holds a row for `key`; when it does not, checks the rows beside its
    /// place (see ``TableLayout/verifyRowsBeside(_:in:)``).
    private func exists(_ key: ObjectKey, in txn: Transaction) throws -> Bool {
        if try layout.row(key, in: txn) != nil { return true }
        try layout.verifyRowsBeside(key, in: txn)
        return false
    }

    // MARK: Building paths

    private func access(_ column: Int) -> IndexAccess? {
        if column == layout.primaryKeyColumn, let primaryKeys = layout.primaryKeys {
            return IndexAccess(database: primaryKeys, objectKeyIsSuffix: false, column: column)
        }
        return layout.secondaryIndexes.first { $0.column == column }.map { IndexAccess(database: $0.database, objectKeyIsSuffix: true, column: column) }
    }

    private func points(_ column: Int, _ values: [_PersistedValue], covered: Bool) -> AccessPath {
        let kind = layout.kinds[column]
        let converted = values.compactMap { PredicateCompiler.converted($0, to: kind) }
        if column == layout.primaryKeyColumn && layout.usesPrimaryKeyAsObjectKey {
            let keys = converted.compactMap { value -> ObjectKey? in
                if case .int(let integer) = value { return ObjectKey(primaryKey: integer) }
                return nil
            }
            return .objectKeys(keys, covered: covered)
        }
        guard let access = access(column) else { return .scan }
        let keys = converted.map { IndexKeyEncoder.key(for: $0, hashingWith: layout.cipher) }
        return .indexPoints(access, keys: keys, covered: covered && !keys.contains(where: IndexKeyEncoder.isTruncated))
    }

    private func range(_ column: Int, lower: (value: _PersistedValue, inclusive: Bool)?,
                       upper: (value: _PersistedValue, inclusive: Bool)?, covered: Bool) -> AccessPath? {
        if column == layout.primaryKeyColumn && layout.usesPrimaryKeyAsObjectKey {
            guard case .int(let low)? = lower?.value ?? .int(.min), case .int(let high)? = upper?.value ?? .int(.max) else { return nil }
            var first = ObjectKey(primaryKey: low), last = ObjectKey(primaryKey: high)
            if lower?.inclusive == false {
                guard first.rawValue < .max else { return .objectKeys([], covered: true) }
                first = ObjectKey(first.rawValue + 1)
            }
            if upper?.inclusive == false {
                guard last.rawValue > 0 else { return .objectKeys([], covered: true) }
                last = ObjectKey(last.rawValue - 1)
            }
            return .objectKeyRange(lower: first, upper: last, covered: covered)
        }
        guard let access = access(column) else { return nil }
        // Non-null values have tag 1; strings too long to store whole have tag 2 and are
        // always candidates, since their keys hold only a prefix.
        var lowerKey: [UInt8] = [1]
        var upperKey: [UInt8] = [2]
        if let lower {
            let key = IndexKeyEncoder.key(for: lower.value)
            if !IndexKeyEncoder.isTruncated(key) { lowerKey = lower.inclusive ? key : Self.successor(of: key) }
        }
        if let upper {
            let key = IndexKeyEncoder.key(for: upper.value)
            if !IndexKeyEncoder.isTruncated(key) { upperKey = upper.inclusive ? Self.successor(of: key) : key }
        }
        var ranges = [(lower: lowerKey, upper: upperKey)]
        if layout.kinds[column] == .string { ranges.append(([2], [3])) }
        return .indexRanges(access, ranges, covered: covered)
    }

    /// A range bound in the column's own kind, and whether it is the literal itself (`false`:
    /// rounded inwards, and then inclusive); `nil` when it cannot bound an index range.
    private static func rangeValue(_ value: _PersistedValue, for kind: _StorageKind, op: ComparisonOperator) -> (_PersistedValue, Bool)? {
        switch (kind, value) {
        case (.int, .int), (.date, .date), (.string, .string), (.bool, .bool):
            return (value, true)
        case (.int, .double(let v)) where v.isFinite:
            if let exact = Int64(exactly: v) { return (.int(exact), true) }
            // age > 1.5 is age >= 2; age < 1.5 is age <= 1.
            let rounded = op == .greater || op == .greaterOrEqual ? v.rounded(.up) : v.rounded(.down)
            guard let bound = Int64(exactly: rounded) else { return nil }
            return (.int(bound), false)
        default:
            return nil
        }
    }

    /// The smallest byte string greater than every string that starts with `key`.
    static func successor(of key: [UInt8]) -> [UInt8] {
        var next = key
        while let last = next.last {
            if last < 0xFF {
                next[next.count - 1] = last + 1
                return next
            }
            next.removeLast()
        }
        return [0xFF, 0xFF]
    }

    /// Whether index entry `key` is one of `point`'s. Secondary index keys end with the object
    /// key; so do primary keys whose value is too long to store whole (see `TableLayout`).
    private static func matches(_ point: [UInt8], _ key: UnsafeRawBufferPointer, _ access: IndexAccess) -> Bool {
        let expected = point.count + (access.objectKeyIsSuffix || IndexKeyEncoder.isTruncated(point) ? 8 : 0)
        guard key.count == expected else { return false }
        return point.withUnsafeBytes { memcmp($0.baseAddress!, key.baseAddress!, point.count) == 0 }
    }

    @inline(__always)
    private static func suffixKey(_ key: UnsafeRawBufferPointer) -> ObjectKey {
        ObjectKey(bytes: UnsafeRawBufferPointer(rebasing: key[(key.count - 8)...]))
    }
}
