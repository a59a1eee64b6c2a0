import Foundation

/// Comparisons through to-one links (`owner.name`) and through linking objects (`LinkingObjects` properties).
extension PredicateCompiler {
    /// `link.rest op value`: the comparison evaluated on the linked object's row, with `inner`
    /// (what follows the link) on its left.
    ///
    /// With no linked object there is nothing to read: every property on the path reads as
    /// `nil`, a collection holds no elements (so `ANY` matches nothing, `ALL` and `NONE` match),
    /// and an aggregate such as `@count` has no value to match.
    func compileThroughLink(_ comparison: Comparison, column: Int, inner: Operand) throws(Realm.Error) -> RowPredicate {
        let property = storedClass.properties[column]
        // The binder let through only links with a target class.
        let targetName = property.objectClassName!
        var innerComparison = comparison
        innerComparison.lhs = inner
        guard let links, let target = links.catalog.layouts[targetName] else {
            // With no table for the target class no object links anywhere.
            guard let type = ClassInfo.type(named: targetName) else {
                throw QueryError.at(comparison.lhs.position, "'\(property.name)' goes to class '\(targetName)', which this process does not know")
            }
            let test = try PredicateCompiler(storedClass: StoredClass(id: 0, info: ClassInfo.of(type)), links: links).compile(.comparison(innerComparison))
            let whenUnlinked = RowReader.withAbsentObject(test)
            return { _ in whenUnlinked }
        }
        let test = try PredicateCompiler(storedClass: target.storedClass, links: links).compile(.comparison(innerComparison))
        let whenUnlinked = RowReader.withAbsentObject(test)
        return { row in
            guard case .link(let key) = row.value(column, kind: .link), let targetRow = links.row(key, in: target) else {
                return whenUnlinked
            }
            return test(RowReader(targetRow, key: ObjectKey(key)))
        }
    }

    /// A comparison through `LinkingObjects`: ANY (unless ALL or NONE) of the linking objects,
    /// `@count` of them, or the linking objects themselves compared with objects
    /// (`linkingObjects == obj`, `ANY linkingObjects IN {…}`).
    func compileThroughBacklinks(_ comparison: Comparison, _ backlinks: (origin: String, property: String),
                                 rest: String?, at position: Int) throws(Realm.Error) -> RowPredicate {
        let identity = rest == nil ? try Self.objectIdentity(comparison, at: position) : nil
        let quantifier = comparison.quantifier ?? .any
        guard let links, let layout = links.catalog.layouts[storedClass.name], let origin = links.catalog.layouts[backlinks.origin] else {
            // No table for the linking class: every object has no linking objects.
            if rest == "@count" || rest == "@size", case .literal(let literal, _) = comparison.rhs {
                let result = Self.test(comparison.op, ValueComparator.compare(.int(0), literal))
                return { _ in result }
            }
            let result = quantifier == .all || quantifier == .none
            return { _ in result }
        }
        let sources = Self.linkingKeys(backlinks, to: layout, links: links)
        guard let rest else {
            // The binder let through only objects: compared by class and key.
            let (keys, matchesWhenFound) = identity!
            let classID = origin.classID
            return Self.quantified(quantifier, over: sources) { key in
                keys.contains(TypedKey(classID: classID, key: key.rawValue)) == matchesWhenFound
            }
        }
        if rest == "@count" || rest == "@size" {
            guard comparison.quantifier == nil, case .literal(let literal, _) = comparison.rhs else {
                throw QueryError.at(position, "@count of linking objects compares only with a value")
            }
            let op = comparison.op
            return { row in !row.isAbsent && Self.test(op, ValueComparator.compare(.int(Int64(sources(row).count)), literal)) }
        }
        if rest.hasPrefix("@") {
            return try compileBacklinkAggregate(comparison, rest, sources: sources, origin: origin, links: links, at: position)
        }
        var inner = comparison
        inner.quantifier = nil
        inner.lhs = .keyPath(rest, position: position)
        let test = try PredicateCompiler(storedClass: origin.storedClass, links: links).compile(.comparison(inner))
        return Self.quantified(quantifier, over: sources) { key in
            guard let sourceRow = links.row(key.rawValue, in: origin) else { return nil }
            return test(RowReader(sourceRow, key: key))
        }
    }

    /// `linkingObjects.@min|@max|@sum|@avg.property op value`: an aggregate of a property of
    /// the linking objects, compared once.
    private func compileBacklinkAggregate(_ comparison: Comparison, _ rest: String, sources: @escaping (RowReader) -> [ObjectKey],
                                          origin: TableLayout, links: LinkResolver, at position: Int) throws(Realm.Error) -> RowPredicate {
        let parts = rest.split(separator: ".", maxSplits: 1).map(String.init)
        guard comparison.quantifier == nil else {
            throw QueryError.at(position, "'\(comparison.quantifier!.rawValue)' cannot apply to '\(rest)' of linking objects")
        }
        guard parts.count == 2, let column = origin.storedClass.properties.firstIndex(where: { $0.name == parts[1] }) else {
            throw QueryError.at(position, "'\(parts[0])' of linking objects needs a property of \(origin.className) after it, as in '\(parts[0]).age'")
        }
        guard case .literal(let literal, _) = comparison.rhs else {
            throw QueryError.at(comparison.rhs.position, "'\(rest)' of linking objects compares only with a value")
        }
        let kind = origin.kinds[column]
        let reduce = try Self.aggregate(parts[0], of: kind, at: position)
        let op = comparison.op
        return { row in
            guard !row.isAbsent else { return false }
            let values = sources(row).compactMap { key in links.row(key.rawValue, in: origin).map { RowReader($0).value(column, kind: kind) } }
            let value = reduce(values)
            return Self.test(op, ValueComparator.compare(value, literal), lhsNull: value.isNull, rhsNull: literal.isNull)
        }
    }

    /// Whether ANY, ALL or NONE of the linking objects pass `test` (`nil`: an object that is
    /// gone, not counted).
    private static func quantified(_ quantifier: Quantifier, over sources: @escaping (RowReader) -> [ObjectKey],
                                   _ test: @escaping (ObjectKey) -> Bool?) -> RowPredicate {
        { row in
            var matches = 0, total = 0
            for key in sources(row) {
                guard let passed = test(key) else { continue }
                total += 1
                if passed { matches += 1 }
            }
            switch quantifier {
            case .any: return matches > 0
            case .all: return matches == total
            case .none: return matches == 0
            }
        }
    }

    /// A class and key: an object, as a comparison with objects names it.
    struct TypedKey: Hashable {
        let classID: UInt32
        let key: UInt64
    }

    /// The objects a comparison of linking objects themselves names, and whether a linking
    /// object matches by being one of them (`==`, `IN`) or by not being one (`!=`).
    private static func objectIdentity(_ comparison: Comparison, at position: Int) throws(Realm.Error) -> (Set<TypedKey>, Bool) {
        func keys(_ values: [_PersistedValue]) throws(Realm.Error) -> Set<TypedKey> {
            var keys = Set<TypedKey>()
            for value in values {
                switch value {
                case .typedLink(let classID, let key): keys.insert(TypedKey(classID: classID, key: key))
                case .null: continue
                default: throw QueryError.at(position, "linking objects compare with objects, not with \(value.displayText)")
                }
            }
            return keys
        }
        switch (comparison.op, comparison.rhs) {
        case (.equal, .literal(let value, _)): return (try keys([value]), true)
        case (.notEqual, .literal(let value, _)): return (try keys([value]), false)
        case (.in, .list(let values, _)): return (try keys(values), true)
        default: throw QueryError.at(position, "compare a property of the linking objects, their @count, or the objects themselves with ==, != or IN")
        }
    }

    /// `SUBQUERY(linkingObjects, $x, predicate).@count op value`: how many of the objects
    /// linking to a row match `predicate`.
    func compileBacklinkSubquery(_ backlinks: (origin: String, property: String), _ predicate: PredicateNode,
                                 _ comparison: Comparison, at position: Int) throws(Realm.Error) -> RowPredicate {
        guard case .literal(let literal, _) = comparison.rhs, case .int = literal else {
            throw QueryError.at(comparison.rhs.position, "SUBQUERY(…).@count compares only with a whole number")
        }
        let op = comparison.op
        guard let links, let layout = links.catalog.layouts[storedClass.name], let origin = links.catalog.layouts[backlinks.origin] else {
            // No table for the linking class: every object has no linking objects.
            let result = Self.test(op, ValueComparator.compare(.int(0), literal))
            return { _ in result }
        }
        let test = try PredicateCompiler(storedClass: origin.storedClass, links: links).compile(predicate)
        let sources = Self.linkingKeys(backlinks, to: layout, links: links)
        return { row in
            guard !row.isAbsent else { return false }
            var count: Int64 = 0
            for key in sources(row) {
                if let sourceRow = links.row(key.rawValue, in: origin), test(RowReader(sourceRow, key: key)) { count += 1 }
            }
            return Self.test(op, ValueComparator.compare(.int(count), literal))
        }
    }

    /// The keys of the objects of `backlinks.origin` linking to a row of `layout` through
    /// `backlinks.property`; none for an absent object.
    private static func linkingKeys(_ backlinks: (origin: String, property: String), to layout: TableLayout,
                                    links: LinkResolver) -> (RowReader) -> [ObjectKey] {
        let classID = layout.classID
        return { row in
            if row.isAbsent { return [] }
            return links.reading([]) { txn in
                try LinkingObjectsKeys.keys(linkingTo: row.key, classID: classID, from: backlinks.origin,
                                            through: backlinks.property, catalog: links.catalog, txn: txn)
            }
        }
    }
}
