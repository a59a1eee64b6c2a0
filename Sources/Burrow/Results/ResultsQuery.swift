/// What a ``Results`` selects: a predicate over one class, then ordering steps applied in turn.
struct ResultsQuery {
    /// Where the candidate objects come from.
    enum Source {
        /// Every object of the class, in table order.
        case table
        /// The objects of a managed list, in list order.
        case list(ManagedList)
        /// The objects of a managed set, in set order.
        case set(ManagedSet)
        /// The objects of a managed map's non-nil values, in key order.
        case map(ManagedMap)
        /// The objects linking to an object through a property, in key order.
        case linkingObjects(owner: ObjectBase, originProperty: String)
    }

    var source: Source = .table
    /// One step applied to the matching objects, in the order the calls were made.
    enum Step: Sendable {
        /// Stable sort: earlier order breaks ties.
        case sort([SortDescriptor])
        /// Keeps the first object of each combination of these properties' values.
        case distinct([String])
        /// Skips `offset` objects, then keeps at most `limit` (`nil`: all the rest).
        case slice(offset: Int, limit: Int?)
    }

    var predicate: PredicateNode?
    var steps: [Step] = []

    /// Whether the candidates are every object of the class, not a collection's members.
    var readsTable: Bool {
        if case .table = source { return true }
        return false
    }

    /// Whether every object of the class is selected, in table order.
    var isWholeTable: Bool { readsTable && predicate == nil && steps.isEmpty }

    /// The query with `node` ANDed to its predicate (the steps still apply after it).
    func filtered(by node: PredicateNode) -> ResultsQuery {
        var copy = self
        copy.predicate = predicate.map { .and($0, node) } ?? node
        return copy
    }

    /// The query with one more step.
    func adding(_ step: Step) -> ResultsQuery {
        var copy = self
        copy.steps.append(step)
        return copy
    }

    /// The query with a parsed query's predicate and clauses added.
    func adding(_ parsed: ParsedQuery) -> ResultsQuery {
        var query = filtered(by: parsed.node)
        if !parsed.sort.isEmpty { query = query.adding(.sort(parsed.sort)) }
        if !parsed.distinct.isEmpty { query = query.adding(.distinct(parsed.distinct)) }
        if let limit = parsed.limit { query = query.adding(.slice(offset: 0, limit: limit)) }
        return query
    }

    /// Every property name the steps mention, for validation.
    var stepKeyPaths: [(path: String, use: KeyPathReader.Use)] {
        steps.flatMap { step -> [(path: String, use: KeyPathReader.Use)] in
            switch step {
            case .sort(let descriptors): descriptors.map { ($0.keyPath, .sort) }
            case .distinct(let names): names.map { ($0, .distinct) }
            case .slice: []
            }
        }
    }
}

extension ResultsQuery.Source {
    /// Results over this collection's elements: its objects for a collection of objects,
    /// otherwise its values.
    func results<Element: RealmCollectionValue>(of type: Element.Type, from collection: any ValueResultsSource) -> Results<Element> {
        let realm = collection.realm
        if let objectType = Element._linkedType {
            let info = (collection as? ManagedCollection)?.targetInfo ?? realm.info(objectType)
            return Results(core: ResultsCore(realm: realm, info: info, query: ResultsQuery(source: self)))
        }
        return Results(values: ValueResultsCore(source: collection, isOptional: Element._isOptional, query: ResultsQuery()))
    }
}
