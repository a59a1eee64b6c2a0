import Foundation

/// The shared state of a ``Results`` of values: the elements of a managed list, set or map of
/// values that match a predicate on `self`, in the order its steps give, read once per
/// generation.
///
/// The results hold the positions of the matching elements in the collection, so that an
/// element is read from the collection itself (a nested `AnyRealmValue` collection stays live).
final class ValueResultsCore {
    let realm: RealmCore
    /// Results keep their realm open.
    private let use: RealmUse
    let source: any ValueResultsSource
    /// The predicate and steps; the query's source is unused.
    let query: ResultsQuery
    /// Whether `nil` is an element's value.
    let isOptional: Bool
    private let test: RowPredicate?
    private var cache = GenerationCache<[Int]>([])

    /// - Parameter isOptional: whether `nil` is an element's value (a predicate `self == nil`).
    init(source: any ValueResultsSource, isOptional: Bool, query: ResultsQuery) {
        realm = source.realm
        use = RealmUse(source.realm)
        self.source = source
        self.query = query
        self.isOptional = isOptional
        do {
            test = try query.predicate.map { try Self.compile($0, source: source, isOptional: isOptional) }
        } catch {
            burrowPreconditionFailure(Realm.Error.message(of: error))
        }
        for (name, _) in query.stepKeyPaths where name != "self" {
            burrowPreconditionFailure(Self.onlySelf(name, in: source))
        }
    }

    /// Checks a parsed query against the elements.
    ///
    /// - Throws: ``Realm/Error/Code/invalidQuery`` for a name other than `self` or a comparison
    ///   the elements' type does not allow.
    func validate(_ parsed: ParsedQuery) throws(Realm.Error) {
        _ = try Self.compile(parsed.node, source: source, isOptional: isOptional)
        for name in parsed.sort.map(\.keyPath) + parsed.distinct where name != "self" {
            throw QueryError.at(parsed.clausePositions[name] ?? 0, Self.onlySelf(name, in: source))
        }
    }

    private static func compile(_ node: PredicateNode, source: any ValueResultsSource, isOptional: Bool) throws(Realm.Error) -> RowPredicate {
        try PredicateCompiler(storedClass: elementClass(kind: source.kind, isOptional: isOptional, describing: source.propertyPath)).compile(node)
    }

    private static func onlySelf(_ name: String, in source: any ValueResultsSource) -> String {
        "Invalid key path '\(name)' for a collection of values in '\(source.propertyPath)': only 'self' names its elements."
    }

    /// The elements seen as rows of one column named `self`, as the predicate reads them.
    private static func elementClass(kind: _StorageKind, isOptional: Bool, describing path: String) -> StoredClass {
        let element = StoredProperty(id: 0, name: "self", kind: kind, isOptional: isOptional, isIndexed: false, isPrimary: false)
        return StoredClass(id: 0, name: path, properties: [element], nextPropertyID: 1)
    }

    /// A core over the same collection with another predicate and steps.
    func with(_ query: ResultsQuery) -> ValueResultsCore {
        ValueResultsCore(source: source, isOptional: isOptional, query: query)
    }

    // MARK: Evaluation

    /// The positions in the collection of the matching elements, in the results' order.
    var positions: [Int] {
        realm.verifyThread()
        burrowPrecondition(!source.isInvalidated, TrapMessage.objectInvalidated)
        return realm.exclusively {
            if cache.generation == realm.generation { return cache.value }
            cache.value = evaluate(source.storedValues)
            cache.generation = realm.generation
            return cache.value
        }
    }

    private func evaluate(_ values: [_PersistedValue]) -> [Int] {
        var positions = Array(values.indices)
        if let test {
            var scratch: [UInt8] = []
            positions = positions.filter { position in
                RowCodec.encode([values[position]], into: &scratch)
                return scratch.withUnsafeBytes { test(RowReader($0)) }
            }
        }
        var steps = query.steps[...]
        while let step = steps.popFirst() {
            switch step {
            case .sort(let descriptors):
                // Every descriptor names `self`: the first decides. Ties keep the order they had.
                let ascending = descriptors.first?.ascending ?? true
                let current = positions
                var entries = current.indices.map { SortEntry(values[current[$0]], index: $0) }
                func precedes(_ a: SortEntry, _ b: SortEntry) -> Bool {
                    let order = SortEntry.order(a, b) ?? QueryExecutor.sortOrder(values[current[a.index]], values[current[b.index]])
                    if order != 0 { return ascending ? order < 0 : order > 0 }
                    return a.index < b.index
                }
                // Only a page that follows is put in order.
                var page: Range<Int>?
                if case .slice(let offset, let limit?)? = steps.first {
                    page = PageSelection.page(offset: offset, limit: limit)
                    steps = steps.dropFirst()
                }
                let kept = PageSelection.order(&entries, page: page, by: precedes)
                positions = entries[kept].map { current[$0.index] }
            case .distinct:
                var seen = Set<_PersistedValue>()
                positions = positions.filter { seen.insert(values[$0]).inserted }
            case .slice(let offset, let limit):
                let start = min(offset, positions.count)
                let end = limit.map { start + min(positions.count - start, $0) } ?? positions.count
                positions = Array(positions[start..<end])
            }
        }
        return positions
    }

    var count: Int { positions.count }

    /// The element at `index` of the results.
    func element<E: RealmCollectionValue>(at index: Int, as type: E.Type) -> E {
        let positions = self.positions
        IndexBounds.check(index, count: positions.count)
        return source.element(at: positions[index], as: type)
    }

    /// The stored values of the results, in order, as aggregates read them: only `self` names them.
    func values(of name: String) -> (kind: _StorageKind, values: [_PersistedValue]) {
        burrowPrecondition(name == "self", "Invalid property name '\(name)' for a collection of values in '\(source.propertyPath)': use 'self'.")
        let values = source.storedValues
        return (source.kind, positions.map { values[$0] })
    }

    /// The position of the first element that also matches `node`.
    func firstIndex(matching node: PredicateNode) -> Int? {
        let narrowed = ValueResultsCore(source: source, isOptional: isOptional, query: ResultsQuery(predicate: node))
        let values = source.storedValues
        let matching = Set(narrowed.evaluate(values))
        return positions.firstIndex { matching.contains($0) }
    }
}
