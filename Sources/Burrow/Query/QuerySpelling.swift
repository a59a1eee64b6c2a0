import Foundation

/// A `where { }` query written out as RealmSwift's query builder writes it, with `%@` for each
/// value and the values apart: `((age > %@) && (ANY dogs.name == %@))`. Only a query built
/// from ``Query/_constructForTesting()`` keeps one (``Query/_constructPredicate()`` reads it);
/// the queries a realm runs never pay for it.
struct QuerySpelling {
    enum Shape {
        /// A property, a key path or a value in a collection; `ANY ` before it when it goes
        /// through a collection.
        case path(requiresAny: Bool)
        /// One comparison: `body` in parentheses (`NOT` goes inside them).
        case comparison(body: String)
        /// Conditions joined by `&&` or `||`, or negated, already in parentheses.
        case compound
    }

    var format: String
    var arguments: [Any]
    var shape: Shape

    static func path(_ format: String, arguments: [Any] = [], requiresAny: Bool) -> QuerySpelling {
        QuerySpelling(format: format, arguments: arguments, shape: .path(requiresAny: requiresAny))
    }

    var requiresAny: Bool {
        if case .path(let requiresAny) = shape { requiresAny } else { false }
    }

    /// The expression on one side of a comparison.
    var operand: String { requiresAny ? "ANY " + format : format }

    /// The expression as a whole condition: a `Bool` property reads `name == true`.
    var condition: String {
        switch shape {
        case .path: format + " == true"
        case .comparison(let body): "(" + body + ")"
        case .compound: format
        }
    }

    /// The same path one step further: `rest` after a dot, with `arguments` of its own.
    func appending(_ rest: String, arguments more: [Any] = [], requiresAny: Bool) -> QuerySpelling {
        .path(format.isEmpty ? rest : format + "." + rest, arguments: arguments + more, requiresAny: requiresAny)
    }

    /// `self op value`.
    func comparing(_ op: String, options: StringOptions = [], value: Any) -> QuerySpelling {
        QuerySpelling(format: "", arguments: arguments + [value],
                      shape: .comparison(body: operand + " " + op + Self.text(of: options) + " %@"))
    }

    /// `self op other`, two expressions.
    func comparing(_ op: String, options: StringOptions = [], _ other: QuerySpelling) -> QuerySpelling {
        QuerySpelling(format: "", arguments: arguments + other.arguments,
                      shape: .comparison(body: operand + " " + op + Self.text(of: options) + " " + other.operand))
    }

    /// A comparison whose text is `body`, with `arguments` after this expression's own.
    func comparison(_ body: String, arguments more: [Any]) -> QuerySpelling {
        QuerySpelling(format: "", arguments: more + arguments, shape: .comparison(body: body))
    }

    /// The same, with `more` values after its own.
    func adding(_ more: [Any]) -> QuerySpelling {
        QuerySpelling(format: format, arguments: arguments + more, shape: shape)
    }

    static func joining(_ lhs: QuerySpelling, _ op: String, _ rhs: QuerySpelling) -> QuerySpelling {
        QuerySpelling(format: "(" + lhs.condition + " " + op + " " + rhs.condition + ")",
                      arguments: lhs.arguments + rhs.arguments, shape: .compound)
    }

    var negated: QuerySpelling {
        switch shape {
        case .path: QuerySpelling(format: format + " == false", arguments: arguments, shape: .compound)
        case .comparison(let body): QuerySpelling(format: "", arguments: arguments, shape: .comparison(body: "NOT " + body))
        case .compound: QuerySpelling(format: "NOT " + format, arguments: arguments, shape: .compound)
        }
    }

    /// `[c]`, `[d]` or `[cd]`.
    private static func text(of options: StringOptions) -> String {
        options.isEmpty ? "" : "[" + (options.contains(.caseInsensitive) ? "c" : "") + (options.contains(.diacriticInsensitive) ? "d" : "") + "]"
    }
}

extension Query {
    /// A query for code that checks how queries are written (RealmSwift's test suite): it is
    /// not bound to a realm, and ``_constructPredicate()`` gives its text.
    ///
    /// ```swift
    /// let (text, values) = (Query<Dog>._constructForTesting().age > 3)._constructPredicate()
    /// // "(age > %@)", [3]
    /// ```
    /// Traps unless `T` is a model class.
    public static func _constructForTesting() -> Query<T> {
        guard let type = T.self as? ObjectBase.Type else {
            burrowPreconditionFailure("A query for testing is a query on a model class, not on \(T.self).")
        }
        return Query(.root(ClassInfo.of(type)), spelling: .path("", requiresAny: false))
    }

    /// The query as RealmSwift's query builder writes it (`%@` for each value) and its values,
    /// for a query built from ``_constructForTesting()``; any other query gives its text in the
    /// query language, with its values written in.
    ///
    /// ```swift
    /// let (text, values) = (Query<Dog>._constructForTesting().name == "Rex")._constructPredicate()
    /// // "(name == %@)", ["Rex"]
    /// ```
    public func _constructPredicate() -> (String, [Any]) {
        guard let spelling else { return (node.queryText, []) }
        return (spelling.condition, spelling.arguments)
    }

    /// `query` with the spelling `make` gives from this query's, when this one has one.
    func spelled<U>(_ query: Query<U>, _ make: (QuerySpelling) -> QuerySpelling) -> Query<U> {
        guard let spelling else { return query }
        var spelled = query
        spelled.spelling = make(spelling)
        return spelled
    }
}

/// Whether `type` is a list, set, map or linking objects: RealmSwift writes `ANY` before a key
/// path through one.
func isCollection(_ type: Any.Type) -> Bool {
    type is any RealmCollection.Type || type is any RealmKeyedCollection.Type
}
