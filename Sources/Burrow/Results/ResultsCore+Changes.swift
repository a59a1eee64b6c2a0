import LMDB

/// New keys from old ones and a change, for the observations of results (see
/// ``ResultsObservation``): when whether an object matches, and where it sorts, depends on its
/// own values alone, only the objects the change names are read again.
extension ResultsCore {
    /// The keys after `changes` (of the results' own class), derived from `old` (the keys
    /// before), or `nil` when the query must be evaluated again: its source is not the whole
    /// table, it reads linked objects, distincts or slices, sorts twice, or the change is large.
    func keys(after changes: ObjectChanges, from old: [ObjectKey]) -> [ObjectKey]? {
        guard !changes.cleared, case .table = query.source, let layout = bound?.layout, layout.isVisible(to: realm.transaction) else { return nil }
        let touched = changes.deletions.count + changes.insertions.count + changes.modifications.count
        guard touched <= max(64, old.count / 16), let descriptors = singleSort, dependsOnOwnValues(layout.storedClass) else { return nil }
        let catalog = realm.catalog
        let txn = realm.transaction
        do {
            let test = try query.predicate.map { predicate -> RowPredicate in
                let bound = try PredicateBinder(storedClass: layout.storedClass).bind(predicate)
                return try PredicateCompiler(storedClass: layout.storedClass, links: LinkResolver(catalog: catalog)).compile(bound)
            }
            let readers = try descriptors.map { try KeyPathReader.make($0.keyPath, on: layout.storedClass, catalog: catalog).get() }
            var removed = Set(changes.deletions)
            for (key, _) in changes.modifications { removed.insert(key) }
            var keys = old
            if let lowest = removed.min(), let highest = removed.max() {
                // A range test first: most keys are far from the few that changed.
                keys.removeAll { $0.rawValue >= lowest && $0.rawValue <= highest && removed.contains($0.rawValue) }
            }
            let candidates = (changes.insertions + changes.modifications.map(\.key)).sorted()
            for raw in candidates {
                let key = ObjectKey(raw)
                guard let row = try layout.row(key, in: txn) else { continue }
                let reader = RowReader(row, key: key)
                guard test?(reader) ?? true else { continue }
                let values = try readers.map { try $0.value(of: reader, in: txn) }
                let index = try insertionIndex(of: key, values: values, in: keys, descriptors: descriptors, readers: readers, layout: layout)
                keys.insert(key, at: index)
            }
            adopt(keys)
            return keys
        } catch {
            return nil
        }
    }

    /// The sort descriptors of a query whose only step is one sort (none: key order), or `nil`.
    private var singleSort: [SortDescriptor]? {
        switch query.steps.count {
        case 0: return []
        case 1: if case .sort(let descriptors) = query.steps[0] { return descriptors } else { return nil }
        default: return nil
        }
    }

    /// Where `key`, sorting by `values`, goes in `keys`: sorted by the descriptors, ties (and
    /// no descriptors) by key, as evaluating sorts them.
    private func insertionIndex(of key: ObjectKey, values: [_PersistedValue], in keys: [ObjectKey], descriptors: [SortDescriptor],
                                readers: [KeyPathReader], layout: TableLayout) throws -> Int {
        let txn = realm.transaction
        var low = 0, high = keys.count
        while low < high {
            let middle = (low + high) / 2
            var before = keys[middle] < key
            if !descriptors.isEmpty, let row = try layout.row(keys[middle], in: txn) {
                let reader = RowReader(row, key: keys[middle])
                for (position, descriptor) in descriptors.enumerated() {
                    let order = QueryExecutor.sortOrder(try readers[position].value(of: reader, in: txn), values[position])
                    if order != 0 {
                        before = descriptor.ascending ? order < 0 : order > 0
                        break
                    }
                }
            }
            if before { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// Whether the predicate and the sorts read only the object's own values (no link, no
    /// key path through one, nothing unresolved).
    private func dependsOnOwnValues(_ storedClass: StoredClass) -> Bool {
        func own(_ path: String) -> Bool {
            guard !path.contains("."), let property = storedClass.properties.first(where: { $0.name == path }) else { return false }
            return property.kind != .link && property.kind != .mixed
        }
        func own(_ operand: Operand) -> Bool {
            switch operand {
            case .keyPath(let path, _): own(path)
            case .literal, .list, .argument, .listArgument, .shape: true
            case .keyPathArgument, .subqueryCount, .mapValue, .mixedPath: false
            }
        }
        func own(_ node: PredicateNode) -> Bool {
            switch node {
            case .constant: true
            case .comparison(let comparison): own(comparison.lhs) && own(comparison.rhs)
            case .and(let lhs, let rhs), .or(let lhs, let rhs): own(lhs) && own(rhs)
            case .not(let inner): own(inner)
            }
        }
        let sortsOwn = (singleSort ?? []).allSatisfy { own($0.keyPath) }
        return sortsOwn && (query.predicate.map(own) ?? true)
    }
}
