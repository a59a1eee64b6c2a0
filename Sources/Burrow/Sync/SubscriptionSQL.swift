import Foundation
import PostgreSQL

/// Translates a subscription's query into a condition on its class's server table (aliased
/// `t`), so that the server picks the rows a machine downloads.
///
/// A query compares the object's own properties: scalars, links by the primary key of their
/// target (`owner == person`, `owner.id == 5`, `owner == nil`), and the elements of lists, sets
/// and maps (`ANY tags == "x"`, `tags.@count > 2`, `scores.@max > 9`, `prices["eur"] < 5`).
/// What has no SQL form here (a key path through a link to another property, a subquery, an
/// `AnyRealmValue`, a diacritic-insensitive comparison) is refused with a message that names it.
///
/// Every comparison is two-valued, as Realm's are: `age != 5` holds for an object whose age is
/// `nil`, and `!(age == 5)` too.
struct SubscriptionSQL {
    let schema: ObjectSchema
    let schemas: [String: ObjectSchema]
    /// The wire form of the primary key of a link literal's target, `nil` when there is none.
    let linkTarget: (_ value: _PersistedValue, _ className: String?) -> JSONValue?

    /// The SQL condition of `node`.
    ///
    /// - Throws: ``SyncError/Code/invalidSubscription`` naming the part that has no SQL form.
    func condition(_ node: PredicateNode) throws(SyncError) -> String {
        switch node {
        case .constant(let value): return value ? "TRUE" : "FALSE"
        case .and(let lhs, let rhs): return "(\(try condition(lhs)) AND \(try condition(rhs)))"
        case .or(let lhs, let rhs): return "(\(try condition(lhs)) OR \(try condition(rhs)))"
        case .not(let inner): return "(NOT \(try condition(inner)))"
        case .comparison(let comparison): return try self.comparison(comparison)
        }
    }

    // MARK: Subjects

    /// What a key path reads in a row.
    private enum Subject {
        /// One value: the SQL expression and the property type it has.
        case scalar(String, PropertyType, linkClass: String?)
        /// The elements of a collection: the set-returning source (`AS e(k, v)`), each
        /// element's SQL expression, and its type.
        case elements(source: String, element: String, PropertyType, linkClass: String?)
    }

    private func refuse(_ what: String, _ why: String) -> SyncError {
        SyncError(.invalidSubscription, "the subscription's query on '\(schema.className)' cannot be translated to SQL: \(what) \(why)")
    }

    private static func column(_ name: String) -> String { "t." + PostgresConnection.quoted(name) }

    /// `value` when it is a JSON array (or object, for a map), else an empty one: a row written
    /// by another program with something else there matches nothing instead of failing.
    private static func guarded(_ value: String, map: Bool) -> String {
        map ? "(CASE jsonb_typeof(\(value)) WHEN 'object' THEN \(value) ELSE '{}'::jsonb END)"
            : "(CASE jsonb_typeof(\(value)) WHEN 'array' THEN \(value) ELSE '[]'::jsonb END)"
    }

    private func subject(_ path: String) throws(SyncError) -> Subject {
        let parts = path.split(separator: ".", maxSplits: 1).map(String.init)
        guard let property = schema[parts[0]], property.type != .linkingObjects else {
            throw refuse("'\(path)'", "names no property of '\(schema.className)'")
        }
        if property.type == .any { throw refuse("'\(path)'", "is an AnyRealmValue, whose values have no one SQL type") }
        let target = property.type == .object ? property.objectClassName.flatMap { schemas[$0] } : nil
        if let target, target.isEmbedded { throw refuse("'\(path)'", "reaches into an embedded object") }
        let targetKey = target?.primaryKeyProperty
        let valueType = targetKey?.type ?? property.type
        let column = Self.column(property.name)
        let isCollection = property.isArray || property.isSet || property.isMap
        let element = "(e.v #>> '{}')::\(Self.sqlType(valueType))"
        let source = property.isMap ? "jsonb_each(\(Self.guarded(column, map: true))) AS e(k, v)"
                                    : "jsonb_array_elements(\(Self.guarded(column, map: false))) AS e(v)"
        guard parts.count == 2 else {
            return isCollection ? .elements(source: source, element: element, valueType, linkClass: target?.className)
                                : .scalar(column, valueType, linkClass: target?.className)
        }
        let rest = parts[1]
        if let targetKey, rest == targetKey.name {
            return isCollection ? .elements(source: source, element: element, valueType, linkClass: nil)
                                : .scalar(column, valueType, linkClass: nil)
        }
        if isCollection && (rest == "@count" || rest == "@size") {
            let count = property.isMap ? "(SELECT count(*) FROM \(source))" : "jsonb_array_length(\(Self.guarded(column, map: false)))"
            return .scalar(count, .int, linkClass: nil)
        }
        if target != nil {
            throw refuse("'\(path)'", "follows the link '\(property.name)' to '\(rest)', which is not its target's primary key: a subscription compares links by primary key")
        }
        guard isCollection else { throw refuse("'\(path)'", "reads into '\(property.name)', which is not a collection") }
        switch rest {
        case "@min", "@max", "@sum", "@avg":
            guard [.int, .float, .double, .decimal128].contains(valueType) || (rest != "@sum" && rest != "@avg" && valueType == .date) else {
                throw refuse("'\(path)'", "aggregates values that are not numbers")
            }
            let function = String(rest.dropFirst())
            let aggregate = "(SELECT \(function)(\(element)) FROM \(source))"
            return .scalar(rest == "@sum" ? "coalesce(\(aggregate), 0)" : aggregate, rest == "@avg" ? .double : valueType, linkClass: nil)
        case "@keys" where property.isMap:
            return .elements(source: source, element: "e.k", .string, linkClass: nil)
        case "@values" where property.isMap:
            return .elements(source: source, element: element, valueType, linkClass: target?.className)
        default:
            throw refuse("'\(path)'", "reads '\(rest)' of a collection, which a subscription cannot")
        }
    }

    private func mapValue(map: String, key: String, rest: String?) throws(SyncError) -> Subject {
        guard let property = schema[map], property.isMap else { throw refuse("'\(map)[\"\(key)\"]'", "is not a value of a map property") }
        if property.type == .any { throw refuse("'\(map)'", "holds AnyRealmValue values, which have no one SQL type") }
        let target = property.type == .object ? property.objectClassName.flatMap { schemas[$0] } : nil
        if let rest, rest != target?.primaryKeyProperty?.name {
            throw refuse("'\(map)[\"\(key)\"].\(rest)'", "follows a link to a property other than its target's primary key")
        }
        let type = target?.primaryKeyProperty?.type ?? property.type
        let value = "(\(Self.column(property.name)) ->> \(PostgresConnection.literal(key)))::\(Self.sqlType(type))"
        return .scalar(value, type, linkClass: rest == nil ? target?.className : nil)
    }

    private func subject(of operand: Operand) throws(SyncError) -> Subject? {
        switch operand {
        case .keyPath(let path, _): return try subject(path)
        case .mapValue(let map, let key, let rest, _): return try mapValue(map: map, key: key, rest: rest)
        case .subqueryCount(let collection, _, _): throw refuse("SUBQUERY(\(collection), …)", "has no SQL form in a subscription")
        case .mixedPath(let property, _, _): throw refuse("'\(property)[…]'", "reads into an AnyRealmValue")
        case .argument, .keyPathArgument, .listArgument: throw refuse("a query argument", "was never given a value")
        case .shape: throw refuse("GEOWITHIN", "has no SQL form in a subscription")
        case .literal, .list: return nil
        }
    }

    // MARK: Comparisons

    private func comparison(_ comparison: Comparison) throws(SyncError) -> String {
        if comparison.diacriticInsensitive { throw refuse("the option [d] of '\(comparison.op.rawValue)'", "has no SQL form without an extension") }
        let lhs = try subject(of: comparison.lhs), rhs = try subject(of: comparison.rhs)
        switch (lhs, rhs) {
        case (let subject?, nil):
            return try compare(subject, comparison.op, comparison.rhs, comparison)
        case (nil, let subject?):
            // `"x" IN tags` asks whether any element is "x"; `5 < age` is `age > 5`.
            let op: ComparisonOperator = comparison.op == .in ? .equal : comparison.op.mirrored
            if comparison.op.isStringOperator { throw refuse("'\(comparison.op.rawValue)' with a value on its left", "has no SQL form") }
            return try compare(subject, op, comparison.lhs, comparison)
        case (let left?, let right?):
            guard case .scalar(let leftExpression, let leftType, _) = left, case .scalar(let rightExpression, let rightType, _) = right else {
                throw refuse("a comparison of two collections", "has no SQL form in a subscription")
            }
            guard Self.family(leftType) == Self.family(rightType) else {
                throw refuse("'\(comparison.op.rawValue)'", "compares a \(leftType) with a \(rightType)")
            }
            return try scalarCondition(leftExpression, leftType, comparison.op, rightExpression, comparison, nullable: true)
        case (nil, nil):
            throw refuse("a comparison of two values", "names no property")
        }
    }

    private func compare(_ subject: Subject, _ op: ComparisonOperator, _ operand: Operand, _ comparison: Comparison) throws(SyncError) -> String {
        switch subject {
        case .scalar(let expression, let type, let linkClass):
            if comparison.quantifier != nil { throw refuse("'\(comparison.quantifier!.rawValue)'", "needs a collection") }
            return try condition(expression, type, linkClass, op, operand, comparison)
        case .elements(let source, let element, let type, let linkClass):
            let test = try condition(element, type, linkClass, op, operand, comparison)
            switch comparison.quantifier ?? .any {
            case .any: return "EXISTS (SELECT 1 FROM \(source) WHERE \(test))"
            case .all: return "NOT EXISTS (SELECT 1 FROM \(source) WHERE NOT \(test))"
            case .none: return "NOT EXISTS (SELECT 1 FROM \(source) WHERE \(test))"
            }
        }
    }

    /// `expression op operand`, where the operand is a value or a list of values.
    private func condition(_ expression: String, _ type: PropertyType, _ linkClass: String?, _ op: ComparisonOperator,
                           _ operand: Operand, _ comparison: Comparison) throws(SyncError) -> String {
        switch operand {
        case .literal(let value, _):
            if value.isNull {
                switch op {
                case .equal: return "(\(expression) IS NULL)"
                case .notEqual: return "(\(expression) IS NOT NULL)"
                default: throw refuse("'\(op.rawValue) nil'", "compares with nothing")
                }
            }
            if op == .like, case .string(let pattern) = value, type == .string {
                let like = comparison.caseInsensitive ? "ILIKE" : "LIKE"
                return "coalesce(\(expression) \(like) \(PostgresConnection.literal(Self.likePattern(pattern))), FALSE)"
            }
            let literal = try sqlLiteral(value, for: type, linkClass: linkClass)
            return try scalarCondition(expression, type, op, literal, comparison, nullable: false)
        case .list(let values, _):
            guard op == .in else { throw refuse("a list of values", "goes only after IN") }
            let nonNull = values.filter { !$0.isNull }
            var alternatives: [String] = []
            if !nonNull.isEmpty {
                var literals: [String] = []
                for value in nonNull { literals.append(try sqlLiteral(value, for: type, linkClass: linkClass)) }
                let subject = comparison.caseInsensitive && type == .string ? "lower(\(expression))" : expression
                let list = comparison.caseInsensitive && type == .string ? literals.map { "lower(\($0))" } : literals
                alternatives.append("coalesce(\(subject) IN (\(list.joined(separator: ", "))), FALSE)")
            }
            if nonNull.count < values.count { alternatives.append("(\(expression) IS NULL)") }
            return alternatives.isEmpty ? "FALSE" : "(" + alternatives.joined(separator: " OR ") + ")"
        default:
            throw refuse("'\(op.rawValue)'", "needs a value on its other side")
        }
    }

    /// `lhs op rhs` of two SQL expressions of `type`, never `NULL`; `nullable` when `rhs` may
    /// be `NULL` (another property), where `==` holds for two `nil`s as in Realm.
    private func scalarCondition(_ lhs: String, _ type: PropertyType, _ op: ComparisonOperator, _ rhs: String,
                                 _ comparison: Comparison, nullable: Bool) throws(SyncError) -> String {
        let folded = comparison.caseInsensitive && type == .string
        if comparison.caseInsensitive && type != .string { throw refuse("the option [c]", "applies to strings only") }
        let (left, right) = folded ? ("lower(\(lhs))", "lower(\(rhs))") : (lhs, rhs)
        if op.isStringOperator {
            guard type == .string else { throw refuse("'\(op.rawValue)'", "applies to strings, not to \(type)") }
            switch op {
            case .beginsWith: return "coalesce(starts_with(\(left), \(right)), FALSE)"
            case .endsWith: return "coalesce(right(\(left), length(\(right))) = \(right), FALSE)"
            case .contains: return "coalesce(strpos(\(left), \(right)) > 0, FALSE)"
            default:
                throw refuse("'LIKE'", "needs a string value on its right")
            }
        }
        // Strings order by their UTF-8 bytes, as Realm's do, whatever the database's collation.
        let ordered = type == .string ? ("\(left) COLLATE \"C\"", "\(right) COLLATE \"C\"") : (left, right)
        switch op {
        case .equal: return nullable ? "(\(left) IS NOT DISTINCT FROM \(right))" : "coalesce(\(left) = \(right), FALSE)"
        case .notEqual: return "(\(left) IS DISTINCT FROM \(right))"
        case .less: return "coalesce(\(ordered.0) < \(ordered.1), FALSE)"
        case .lessOrEqual: return "coalesce(\(ordered.0) <= \(ordered.1), FALSE)"
        case .greater: return "coalesce(\(ordered.0) > \(ordered.1), FALSE)"
        case .greaterOrEqual: return "coalesce(\(ordered.0) >= \(ordered.1), FALSE)"
        case .in: return "coalesce(\(left) = \(right), FALSE)"
        default: throw refuse("'\(op.rawValue)'", "has no SQL form")
        }
    }

    // MARK: Values

    /// Realm's `LIKE` pattern (`*` any run, `?` one character) as SQL's, where `%`, `_` and
    /// the escape `\\` match themselves.
    static func likePattern(_ pattern: String) -> String {
        var sql = ""
        for character in pattern {
            switch character {
            case "*": sql.append("%")
            case "?": sql.append("_")
            case "%", "_", "\\": sql.append("\\"); sql.append(character)
            default: sql.append(character)
            }
        }
        return sql
    }

    /// Which values compare with which: numbers with numbers, and each other kind with itself.
    private static func family(_ type: PropertyType) -> String {
        switch type {
        case .int, .float, .double, .decimal128: "number"
        default: "\(type)"
        }
    }

    /// The PostgreSQL type of a value of `type`, as ``ServerSchema`` stores it.
    static func sqlType(_ type: PropertyType) -> String {
        ServerSchema.scalarType(type)
    }

    private static func literalType(_ value: _PersistedValue) -> PropertyType? {
        switch value {
        case .bool: .bool
        case .int: .int
        case .float: .float
        case .double: .double
        case .string: .string
        case .data: .data
        case .date: .date
        case .uuid: .UUID
        case .objectId: .objectId
        case .decimal: .decimal128
        case .mixed(let inner): literalType(inner)
        case .null, .link, .typedLink, .list, .dictionary: nil
        }
    }

    /// `value` as an SQL literal for a comparison with a value of `type`.
    private func sqlLiteral(_ value: _PersistedValue, for type: PropertyType, linkClass: String?) throws(SyncError) -> String {
        var value = value
        if case .mixed(let inner) = value { value = inner }
        switch value {
        case .link, .typedLink:
            guard let linkClass else { throw refuse("an object", "is compared with a property that is not a link") }
            guard let key = linkTarget(value, linkClass), let keyType = schemas[linkClass]?.primaryKeyProperty?.type else {
                throw refuse("an object", "is not a managed object of '\(linkClass)' with a primary key")
            }
            return Self.sqlLiteral(wire: key, type: keyType)
        default:
            guard let valueType = Self.literalType(value), Self.family(valueType) == Self.family(type) else {
                throw refuse("the value \(String(describing: value.anyValue ?? "nil"))", "does not compare with a \(linkClass.map { "link to \($0)" } ?? "\(type)")")
            }
            guard let swiftValue = value.anyValue else { throw refuse("a value", "has no SQL form") }
            return Self.sqlLiteral(wire: SyncValueCodec.scalar(swiftValue), type: valueType)
        }
    }

    /// A wire value as an SQL literal of `type`'s column type: PostgreSQL reads it with the
    /// same input function as `jsonb_populate_record` does a row's.
    static func sqlLiteral(wire: JSONValue, type: PropertyType) -> String {
        let text: String
        switch wire {
        case .string(let string): text = string
        case .bool(let bool): text = bool ? "true" : "false"
        default: text = wire.text
        }
        return PostgresConnection.literal(text) + "::" + sqlType(type)
    }
}
