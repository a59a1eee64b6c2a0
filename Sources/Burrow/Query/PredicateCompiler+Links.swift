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
    /// or `@count` of them.
    func compileThroughBacklinks(_ comparison: Comparison, _ backlinks: (origin: String, property: String),
                                 rest: String?, at position: Int) throws(Realm.Error) -> RowPredicate {
        guard let rest else {
            throw QueryError.at(position, "compare a property of the linking objects, or their @count")
        }
        guard let links, let layout = links.catalog.layouts[storedClass.name], let origin = links.catalog.layouts[backlinks.origin] else {
            // No table for the linking class: every object has no linking objects.
            if rest == "@count" || rest == "@size", case .literal(let literal, _) = comparison.rhs {
                let result = Self.test(comparison.op, ValueComparator.compare(.int(0), literal))
                return { _ in result }
            }
            let result = comparison.quantifier == Quantifier.all || comparison.quantifier == Quantifier.none
            return { _ in result }
        }
        let sources = Self.linkingKeys(backlinks, to: layout, links: links)
        if rest == "@count" || rest == "@size" {
            guard comparison.quantifier == nil, case .literal(let literal, _) = comparison.rhs else {
                throw QueryError.at(position, "@count of linking objects compares only with a value")
            }
            let op = comparison.op
            return { row in !row.isAbsent && Self.test(op, ValueComparator.compare(.int(Int64(sources(row).count)), literal)) }
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
