extension Results {
    /// The results that also match `predicateFormat`, with `%@` and `%K` arguments. Trailing
    /// `SORT(…)`, `DISTINCT(…)` and `LIMIT(n)` clauses apply after the predicate.
    ///
    /// ```swift
    /// dogs.filter("age < %@ AND name BEGINSWITH[c] %@", 2, "r")
    /// dogs.filter("age > 1 SORT(name ASC) DISTINCT(name) LIMIT(20)")
    /// ```
    /// Traps on a malformed query, with the position and the reason; to have mistakes thrown,
    /// build a ``QueryPredicate`` first.
    public consuming func filter(_ predicateFormat: String, _ args: Any...) -> Results<Element> {
        do {
            return with(query.adding(try QueryCache.parse(predicateFormat, arguments: args)))
        } catch {
            burrowPreconditionFailure(Realm.Error.message(of: error))
        }
    }

    /// The results that also match `predicate`.
    public consuming func filter(_ predicate: QueryPredicate) -> Results<Element> {
        with(query.adding(predicate.parsed))
    }

    /// Checks `predicate` against the class of these results.
    ///
    /// - Throws: ``Realm/Error/Code/invalidQuery`` for an unknown property or a comparison the
    ///   property's type does not allow, with a suggestion for a misspelt name.
    public func validate(_ predicate: QueryPredicate) throws {
        if case .values(let values) = backing {
            try values.validate(predicate.parsed)
            return
        }
        let storedClass = core.bound?.layout.storedClass ?? core.info.storedClassBeforeTable
        let links = LinkResolver(catalog: core.realm.catalog)
        _ = try PredicateCompiler(storedClass: storedClass, links: links).compile(predicate.parsed.node)
        let paths = predicate.parsed.sort.map { ($0.keyPath, KeyPathReader.Use.sort) } + predicate.parsed.distinct.map { ($0, KeyPathReader.Use.distinct) }
        for (path, use) in paths {
            if case .failure(let error) = KeyPathReader.make(path, on: storedClass, catalog: links.catalog, for: use) {
                let reason = error.message.hasSuffix(".") ? String(error.message.dropLast()) : error.message
                throw QueryError.at(predicate.parsed.clausePositions[path] ?? 0, reason)
            }
        }
    }

    /// The position of the first object matching `predicateFormat`, or `nil`.
    public func index(matching predicateFormat: String, _ args: Any...) -> Int? {
        let node: PredicateNode
        do {
            node = try QueryCache.parse(predicateFormat, arguments: args).node
        } catch {
            burrowPreconditionFailure(Realm.Error.message(of: error))
        }
        return index(matchingNode: node)
    }

    /// The position of the first object matching `predicate`, or `nil`.
    public func index(matching predicate: QueryPredicate) -> Int? {
        index(matchingNode: predicate.parsed.node)
    }

}
