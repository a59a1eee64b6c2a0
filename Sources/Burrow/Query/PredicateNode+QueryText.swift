import Foundation

extension PredicateNode {
    /// The predicate in the query language, as a person reads it: what a sync subscription
    /// shows as its ``SyncSubscription/queryString``. An object is written `O` and its key.
    var queryText: String {
        switch self {
        case .constant(let value): value ? "TRUEPREDICATE" : "FALSEPREDICATE"
        case .and(let lhs, let rhs): "(\(lhs.queryText) AND \(rhs.queryText))"
        case .or(let lhs, let rhs): "(\(lhs.queryText) OR \(rhs.queryText))"
        case .not(let inner): "NOT \(inner.queryText)"
        case .comparison(let comparison): comparison.queryText
        }
    }
}

extension Comparison {
    var queryText: String {
        var options = ""
        if caseInsensitive || diacriticInsensitive { options = "[\(caseInsensitive ? "c" : "")\(diacriticInsensitive ? "d" : "")]" }
        let prefix = quantifier.map { $0.rawValue + " " } ?? ""
        return "\(prefix)\(lhs.queryText) \(op.rawValue)\(options) \(rhs.queryText)"
    }
}

extension Operand {
    var queryText: String {
        switch self {
        case .keyPath(let path, _): path
        case .literal(let value, _): value.queryText
        case .list(let values, _): "{" + values.map(\.queryText).joined(separator: ", ") + "}"
        case .argument(let index, _), .listArgument(let index, _): "$\(index)"
        case .keyPathArgument(let index, _): "%K\(index)"
        case .subqueryCount(let collection, let predicate, _): "SUBQUERY(\(collection), $x, \(predicate.queryText)).@count"
        case .mapValue(let map, let key, let rest, _): "\(map)[\(_PersistedValue.string(key).queryText)]" + (rest.map { "." + $0 } ?? "")
        case .mixedPath(let property, let steps, _): property + steps.map(\.queryText).joined()
        case .shape(let shape, _): shape.queryText
        }
    }
}

extension _PersistedValue {
    /// The value as a literal of the query language.
    var queryText: String {
        switch self {
        case .null: "nil"
        case .bool(let value): value ? "true" : "false"
        case .int(let value): String(value)
        case .float(let value): "\(value)"
        case .double(let value): "\(value)"
        case .string(let value): "\"" + value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
        case .data(let value): "B64\"\(value.base64EncodedString())\""
        case .date(let value): Self.dateText(value)
        case .uuid(let value): "uuid(\(value.uuidString))"
        case .objectId(let value): "oid(\(value.stringValue))"
        // The description, but a wide coefficient without its signed form, which the query
        // language does not read.
        case .decimal(let value): value.hasWideCoefficient ? value.coefficientAndExponentText : value.stringValue
        case .link(let key): "O\(key)"
        case .typedLink(_, let key): "O\(key)"
        case .mixed(let inner): inner.queryText
        case .list(let values): "{" + values.map(\.queryText).joined(separator: ", ") + "}"
        case .dictionary(let keys, let values): "{" + zip(keys, values).map { "\"\($0)\": \($1.queryText)" }.joined(separator: ", ") + "}"
        }
    }

    /// `Tseconds:nanoseconds`.
    private static func dateText(_ date: Date) -> String {
        let seconds = date.timeIntervalSince1970.rounded(.down)
        return "T\(Int64(seconds)):\(Int64(((date.timeIntervalSince1970 - seconds) * 1e9).rounded()))"
    }
}
