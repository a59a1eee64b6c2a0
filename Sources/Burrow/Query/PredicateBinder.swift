/// Resolves the names of a ``PredicateNode`` against one class, once, into a
/// ``BoundPredicate``; every mistake a name or the shape of a comparison can make is thrown here.
///
/// A key path's first name is bound; what follows it (`owner.name`, `dogs.age`) belongs to
/// another class and is bound when the compiler reaches that class.
struct PredicateBinder {
    let storedClass: StoredClass

    /// - Throws: ``Realm/Error/Code/invalidQuery`` for a predicate past ``PredicateLimits``, an
    ///   unknown property, or a comparison in a shape the language does not allow.
    func bind(_ node: PredicateNode) throws(Realm.Error) -> BoundPredicate {
        // Trees from the builder reach here without the parser's check; it bounds the recursion.
        try PredicateLimits.check(node)
        return BoundPredicate(storedClass: storedClass, root: try bindNode(node))
    }

    private func bindNode(_ node: PredicateNode) throws(Realm.Error) -> BoundNode {
        switch node {
        case .constant(let value): .constant(value)
        case .and(let lhs, let rhs): .and(try bindNode(lhs), try bindNode(rhs))
        case .or(let lhs, let rhs): .or(try bindNode(lhs), try bindNode(rhs))
        case .not(let inner): .not(try bindNode(inner))
        case .comparison(let comparison): try bind(comparison)
        }
    }

    private func bind(_ comparison: Comparison) throws(Realm.Error) -> BoundNode {
        func bound(_ subject: BoundComparison.Subject, _ form: Comparison = comparison) -> BoundNode {
            .comparison(BoundComparison(comparison: form, subject: subject))
        }
        // The common `property op value` on a property of the class that is not a collection,
        // bound as ``bindPlain(_:)`` would bind it without walking every other shape first.
        if case .keyPath(let name, _) = comparison.lhs, case .literal(let value, _) = comparison.rhs,
           comparison.quantifier == nil, comparison.op != .in, comparison.op != .geoWithin,
           let column = storedClass.properties.firstIndex(where: { $0.name == name }), storedClass.properties[column].collection == nil {
            return bound(.value(column: column, value))
        }
        var comparison = comparison
        // `location IN %@` with a shape is NSPredicate's spelling of GEOWITHIN.
        if comparison.op == .in, case .shape = comparison.rhs { comparison.op = .geoWithin }
        if comparison.op == .geoWithin || comparison.lhs.isShape || comparison.rhs.isShape {
            try Self.checkGeoWithin(comparison)
        }
        if let throughLink = try boundThroughLink(comparison) { return throughLink }
        if comparison.op == .geoWithin, case .keyPath(let name, let position) = comparison.lhs, case .shape(let shape, _) = comparison.rhs {
            return bound(.geoWithin(column: try column(named: name, at: position), region: try Self.region(of: shape, at: comparison.rhs.position),
                                    position: position), comparison)
        }
        switch comparison.lhs {
        case .subqueryCount(let collection, let predicate, let position):
            if !storedClass.properties.contains(where: { $0.name == collection }), let backlinks = linkingObjects(named: collection) {
                return bound(.backlinkSubquery(origin: backlinks.origin, property: backlinks.property, predicate: predicate, position: position))
            }
            return bound(.subquery(column: try column(named: collection, at: position), predicate: predicate, position: position))
        case .mapValue(let map, let key, let rest, let position):
            return bound(.mapValue(column: try column(named: map, at: position), key: key, rest: rest, position: position))
        case .mixedPath(let name, let steps, let position):
            return bound(.mixedMember(column: try mixedColumn(named: name, at: position), steps: steps, position: position))
        default:
            break
        }
        if case .subqueryCount(_, _, let position) = comparison.rhs {
            throw QueryError.at(position, "put SUBQUERY(…).@count on the left of the comparison")
        }
        if case .literal(let value, let valuePosition) = comparison.lhs, case .keyPath(let path, let position) = comparison.rhs,
           !storedClass.properties.contains(where: { $0.name == Self.split(path).0 }), linkingObjects(named: Self.split(path).0) != nil {
            // `obj IN linkingObjects`, `obj == linkingObjects`: the linking objects on the left.
            return try bind(Self.turnedAround(comparison, path: path, at: position, value: value, at: valuePosition))
        }
        if case .keyPath(let path, let position) = comparison.lhs {
            let (head, rest) = Self.split(path)
            let column = storedClass.properties.firstIndex { $0.name == head }
            if column == nil, let backlinks = linkingObjects(named: head) {
                return bound(.backlinks(origin: backlinks.origin, property: backlinks.property, rest: rest, position: position))
            }
            if let column, [.list, .set, .map].contains(storedClass.properties[column].collection) {
                return bound(.collection(column: column, rest: rest, position: position))
            }
        }
        if let quantifier = comparison.quantifier {
            let name = if case .keyPath(let name, _) = comparison.lhs { name } else { "a value" }
            throw QueryError.at(comparison.lhs.position,
                                "'\(quantifier.rawValue)' needs a list, set or map property, and '\(name)' on \(storedClass.name) is not one")
        }
        if case .keyPath(let path, let position) = comparison.lhs, case (let head, let rest?) = Self.split(path) {
            let column = try column(named: head, at: position)
            let property = storedClass.properties[column]
            if property.kind == .mixed && property.collection == nil {
                return bound(.mixedAggregate(column: column, name: rest, position: position))
            }
            throw QueryError.at(position, "key path '\(path)' goes through '\(head)', which is \(property.typeName), not a link")
        }
        if case .keyPath(let path, let position) = comparison.rhs, path.contains(".") {
            throw QueryError.at(position, "put the key path '\(path)' on the left of the comparison")
        }
        return try bindPlain(comparison)
    }

    /// A comparison whose left side starts with a to-one link (`owner.name`, `owner.tags.@count`,
    /// `ANY owner.tags`, `owner.attrs['k']`, `SUBQUERY(owner.dogs, …)`), bound to go on in the
    /// linked class; `'x' IN owner.tags` is turned around first. `nil` when the comparison does
    /// not start with a link.
    private func boundThroughLink(_ comparison: Comparison) throws(Realm.Error) -> BoundNode? {
        func linkHead(_ path: String, at position: Int) -> (column: Int, rest: String, position: Int)? {
            // UTF-8 search: a scan by Character would cost a grapheme break test per letter.
            guard let dot = path.utf8.firstIndex(of: UInt8(ascii: ".")) else { return nil }
            let head = path[..<dot]
            guard let column = storedClass.properties.firstIndex(where: { $0.name == head }) else { return nil }
            let property = storedClass.properties[column]
            guard property.kind == .link, property.collection == nil, property.objectClassName != nil else { return nil }
            return (column, String(path[path.utf8.index(after: dot)...]), position + head.utf16.count + 1)
        }
        let inner: (column: Int, operand: Operand)
        switch comparison.lhs {
        case .keyPath(let path, let position):
            guard let link = linkHead(path, at: position) else { return nil }
            inner = (link.column, .keyPath(link.rest, position: link.position))
        case .mapValue(let map, let key, let rest, let position):
            guard let link = linkHead(map, at: position) else { return nil }
            inner = (link.column, .mapValue(map: link.rest, key: key, rest: rest, position: link.position))
        case .mixedPath(let name, let steps, let position):
            guard let link = linkHead(name, at: position) else { return nil }
            inner = (link.column, .mixedPath(property: link.rest, steps: steps, position: link.position))
        case .subqueryCount(let collection, let predicate, let position):
            guard let link = linkHead(collection, at: position) else { return nil }
            inner = (link.column, .subqueryCount(collection: link.rest, predicate: predicate, position: link.position))
        case .literal(let value, let valuePosition):
            // `'x' IN owner.tags`, `5 < owner.age`: the same comparison with the key path on the left.
            guard case .keyPath(let path, let position) = comparison.rhs, linkHead(path, at: position) != nil else { return nil }
            return try boundThroughLink(Self.turnedAround(comparison, path: path, at: position, value: value, at: valuePosition))
        default:
            return nil
        }
        return .comparison(BoundComparison(comparison: comparison, subject: .link(column: inner.column, inner: inner.operand)))
    }

    /// A comparison of properties of the class with values or with each other.
    private func bindPlain(_ comparison: Comparison) throws(Realm.Error) -> BoundNode {
        func bound(_ subject: BoundComparison.Subject, _ form: Comparison = comparison) -> BoundNode {
            .comparison(BoundComparison(comparison: form, subject: subject))
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
        case (.shape(_, let position), _), (_, .shape(_, let position)):
            // Bound before: a shape reaches here only through a link that ends elsewhere.
            throw QueryError.at(position, Self.geoWithinNeedsALink)
        case (.keyPath(let name, let position), .list(let values, _)) where comparison.op == .in:
            return bound(.values(column: try column(named: name, at: position), values))
        case (.literal(let value, let valuePosition), .keyPath(let name, let position))
            where storedClass.properties.first(where: { $0.name == name })?.collection != nil:
            // `5 IN scores` and `5 == scores`: any element of the collection.
            guard !comparison.op.isStringOperator else {
                throw QueryError.at(comparison.position, "'\(comparison.op.rawValue)' needs the property on its left")
            }
            var mirrored = comparison
            (mirrored.lhs, mirrored.rhs) = (.keyPath(name, position: position), .literal(value, position: valuePosition))
            mirrored.op = comparison.op == .in ? .equal : comparison.op.mirrored
            return bound(.collection(column: try column(named: name, at: position), rest: nil, position: position), mirrored)
        case (_, .list), (.list, _):
            throw QueryError.at(comparison.position, "a list of values goes only on the right of IN")
        case (_, _) where comparison.op == .in:
            throw QueryError.at(comparison.rhs.position, "IN needs a list such as {1, 2} or an array argument")
        case (.keyPath(let name, let position), .literal(let value, _)):
            return bound(.value(column: try column(named: name, at: position), value))
        case (.literal(let value, let valuePosition), .keyPath(let name, let position)):
            guard !comparison.op.isStringOperator else {
                throw QueryError.at(comparison.position, "'\(comparison.op.rawValue)' needs the property on its left")
            }
            var mirrored = comparison
            (mirrored.lhs, mirrored.rhs, mirrored.op) = (.keyPath(name, position: position), .literal(value, position: valuePosition), comparison.op.mirrored)
            return bound(.value(column: try column(named: name, at: position), value), mirrored)
        case (.keyPath(let leftName, let leftPosition), .keyPath(let rightName, let rightPosition)):
            let left = try column(named: leftName, at: leftPosition)
            return bound(.columns(left: left, right: try column(named: rightName, at: rightPosition)))
        case (.literal(let left, _), .literal(let right, _)):
            guard !comparison.op.isStringOperator else {
                throw QueryError.at(comparison.position, "'\(comparison.op.rawValue)' needs a property on its left")
            }
            return .constant(PredicateCompiler.test(comparison.op, ValueComparator.compare(left, right),
                                                    lhsNull: left.isNull, rhsNull: right.isNull))
        }
    }

    // MARK: Geospatial

    private static let geoWithinNeedsALink = "GEOWITHIN needs a property on its left that links to an embedded object holding a point"

    /// Refuses a shape anywhere but on the right of `GEOWITHIN`, and anything but a key path
    /// on its left.
    private static func checkGeoWithin(_ comparison: Comparison) throws(Realm.Error) {
        guard comparison.op == .geoWithin, comparison.rhs.isShape else {
            let position = comparison.rhs.isShape ? comparison.rhs.position : comparison.lhs.isShape ? comparison.lhs.position : comparison.rhs.position
            throw QueryError.at(position, comparison.op == .geoWithin
                                ? "GEOWITHIN needs a shape on its right: geoBox(…), geoCircle(…), geoPolygon(…) or a GeoBox, GeoCircle or GeoPolygon argument"
                                : "a geospatial shape goes only on the right of GEOWITHIN (or of IN)")
        }
        guard case .keyPath = comparison.lhs, comparison.quantifier == nil, !comparison.caseInsensitive, !comparison.diacriticInsensitive else {
            throw QueryError.at(comparison.lhs.position, Self.geoWithinNeedsALink)
        }
    }

    /// The region of `shape`; throws realm-core's message for a shape it refuses.
    static func region(of shape: GeoShape, at position: Int) throws(Realm.Error) -> GeoRegion {
        do {
            return try GeoRegion(shape)
        } catch {
            throw QueryError.at(position, "Invalid region in GEOWITHIN query for parameter '\(shape)': '\(error.reason)'")
        }
    }

    // MARK: Names

    /// The column of property `name`; throws a message with a suggestion.
    func column(named name: String, at position: Int) throws(Realm.Error) -> Int {
        if let index = storedClass.properties.firstIndex(where: { $0.name == name }) { return index }
        if let dot = name.firstIndex(of: "."), let first = storedClass.properties.first(where: { $0.name == name[..<dot] }) {
            throw QueryError.at(position, "key path '\(name)' goes through '\(first.name)', which is \(first.typeName), not a link")
        }
        var message = "unknown property '\(name)' on \(storedClass.name)"
        if let suggestion = storedClass.closestName(to: name) { message += "; did you mean '\(suggestion)'?" }
        throw QueryError.at(position, message)
    }

    /// The column of the `AnyRealmValue` property `name`.
    func mixedColumn(named name: String, at position: Int) throws(Realm.Error) -> Int {
        let column = try column(named: name, at: position)
        let property = storedClass.properties[column]
        guard property.kind == .mixed, property.collection == nil else {
            throw QueryError.at(position, "'\(name)[…][…]' needs an AnyRealmValue, and '\(name)' is \(property.typeName)")
        }
        return column
    }

    /// The `LinkingObjects` property `name` of the class: its origin class and property.
    func linkingObjects(named name: String) -> (origin: String, property: String)? {
        guard let type = ClassInfo.type(named: storedClass.name) else { return nil }
        let info = ClassInfo.of(type)
        guard let index = info.fieldIndex[name], info.fields[index].isComputed,
              let origin = info.fields[index].linkedType, let property = info.fields[index].originProperty else { return nil }
        return (ClassInfo.storedName(of: origin), property)
    }

    /// A key path's first name and the rest after its first dot.
    /// `value op path` (`'x' IN tags`, `5 < age`) as `path op' value`: `IN` becomes `==` (any
    /// element), an ordering its mirror. Text operators need the property on their left.
    private static func turnedAround(_ comparison: Comparison, path: String, at position: Int,
                                     value: _PersistedValue, at valuePosition: Int) throws(Realm.Error) -> Comparison {
        guard !comparison.op.isStringOperator else {
            throw QueryError.at(comparison.position, "'\(comparison.op.rawValue)' needs the property on its left")
        }
        var mirrored = comparison
        (mirrored.lhs, mirrored.rhs) = (.keyPath(path, position: position), .literal(value, position: valuePosition))
        mirrored.op = comparison.op == .in ? .equal : comparison.op.mirrored
        return mirrored
    }

    private static func split(_ path: String) -> (head: String, rest: String?) {
        guard let dot = path.utf8.firstIndex(of: UInt8(ascii: ".")) else { return (path, nil) }
        return (String(path[..<dot]), String(path[path.utf8.index(after: dot)...]))
    }
}
