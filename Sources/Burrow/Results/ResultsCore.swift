import LMDB

/// The shared state of a ``Results`` value: what it selects, and the object keys it found in
/// the realm's current generation.
final class ResultsCore {
    let realm: RealmCore
    /// Results keep their realm open.
    private let use: RealmUse
    let info: ClassInfo
    let query: ResultsQuery

    private var cachedKeys: [ObjectKey] = []
    private var cachedGeneration: UInt64 = 0
    /// The plan for a layout; `links` is `nil` when the predicate needs no row test (an index
    /// answers it) and so stays valid whatever the catalog.
    private var compiled: (layout: TableLayout, links: LinkResolver?, test: RowPredicate?, path: QueryPlanner.AccessPath)?
    private var resolver: (revision: UInt64, links: LinkResolver)?

    /// Follows links for the predicate, over the catalog as it is now: a class or backlink
    /// index created since the last evaluation makes a new one (and a new compiled predicate).
    /// Its transaction is set at each evaluation.
    private var links: LinkResolver {
        let revision = realm.catalogRevision
        if let resolver, resolver.revision == revision { return resolver.links }
        let links = LinkResolver(catalog: realm.catalog)
        resolver = (revision, links)
        return links
    }

    /// The realm generation the core was made in, which ``Realm/invalidate()`` compares.
    let createdGeneration: UInt64

    init(realm: RealmCore, info: ClassInfo, query: ResultsQuery) {
        self.realm = realm
        createdGeneration = realm.generation
        use = RealmUse(realm)
        self.info = info
        self.query = query
    }

    /// The class resolved against the file, or `nil` while the file has no table for it.
    var bound: BoundClass? { realm.bound(info) }

    /// A core for `query` over the same class; traps when the query does not fit the class.
    func with(_ query: ResultsQuery) -> ResultsCore {
        var query = query
        query.source = self.query.source
        let core = ResultsCore(realm: realm, info: info, query: query)
        core.validate()
        return core
    }

    /// The stored class queries are checked against: the file's, or the model's before the
    /// file has a table for it.
    private var storedClass: StoredClass {
        bound?.layout.storedClass ?? StoredClass(id: 0, info: info)
    }

    /// Checks the predicate and the steps' property names now, so that a bad query traps where
    /// it is written.
    private func validate() {
        let layout = bound?.layout
        let storedClass = layout?.storedClass ?? StoredClass(id: 0, info: info)
        if let predicate = query.predicate {
            if let layout {
                _ = prepared(for: layout)
            } else {
                do {
                    _ = try PredicateCompiler(storedClass: storedClass, links: links).compile(predicate)
                } catch {
                    burrowPreconditionFailure(Realm.Error.message(of: error))
                }
            }
        }
        let stepKeyPaths = query.stepKeyPaths
        guard !stepKeyPaths.isEmpty else { return }
        let catalog = realm.catalog
        for name in stepKeyPaths {
            if case .failure(let error) = KeyPathReader.make(name, on: storedClass, catalog: catalog) {
                burrowPreconditionFailure(error.message)
            }
        }
    }

    // MARK: Evaluation

    /// The matching object keys in the realm's current generation, in the query's order.
    var keys: [ObjectKey] {
        realm.verifyThread()
        return realm.exclusively { currentKeys }
    }

    /// Makes `keys` the results' keys in the realm's current generation: what an observation
    /// derived from the previous keys and the change log, so that reading the results does not
    /// evaluate the query again.
    func adopt(_ keys: [ObjectKey]) {
        realm.exclusively {
            cachedKeys = keys
            cachedGeneration = realm.generation
        }
    }

    private var currentKeys: [ObjectKey] {
        if cachedGeneration == realm.generation { return cachedKeys }
        do {
            cachedKeys = try evaluate()
        } catch {
            burrowPreconditionFailure(TrapMessage.cannotRead(realm.coordinator.path, error))
        }
        cachedGeneration = realm.generation
        return cachedKeys
    }

    private func prepared(for layout: TableLayout) -> (links: LinkResolver?, test: RowPredicate?, path: QueryPlanner.AccessPath) {
        if let compiled, compiled.layout === layout, compiled.links == nil || compiled.links === links {
            return (compiled.links, compiled.test, compiled.path)
        }
        guard let predicate = query.predicate else {
            compiled = (layout, nil, nil, .scan)
            return (nil, nil, .scan)
        }
        let planner = QueryPlanner(layout: layout)
        let links = self.links
        let bound: BoundPredicate
        let test: RowPredicate
        do {
            bound = try PredicateBinder(storedClass: layout.storedClass).bind(predicate)
            // `key == value` answered exactly by an index needs no row test: planning it is enough
            // (for a whole table: the members of a collection are tested row by row).
            if case .table = query.source, let path = planner.exactEqualityPath(bound) {
                compiled = (layout, nil, nil, path)
                return (nil, nil, path)
            }
            test = try PredicateCompiler(storedClass: layout.storedClass, links: links).compile(bound)
        } catch {
            burrowPreconditionFailure(Realm.Error.message(of: error))
        }
        let path = planner.plan(bound)
        compiled = (layout, links, test, path)
        return (links, test, path)
    }

    private func evaluate() throws -> [ObjectKey] {
        guard let layout = bound?.layout else { return [] }
        let txn = realm.transaction
        guard layout.isVisible(to: txn) else { return [] }
        let (links, test, path) = prepared(for: layout)
        links?.transaction = txn
        defer { links?.transaction = nil }
        var steps = query.steps[...]
        var keys: [ObjectKey]
        if let members = try sourceKeys() {
            keys = try members.filter { key in
                guard let test else { return true }
                return try layout.row(key, in: txn).map { test(RowReader($0, key: key)) } ?? false
            }
        } else if case .sort(let descriptors)? = steps.first,
                  // A predicate an index answers exactly has no row test: its path names the keys.
                  test != nil || query.predicate == nil,
                  let walk = IndexOrderWalk(layout: layout, descriptors: descriptors),
                  case let page = Self.page(after: steps.dropFirst()),
                  let walked = try walk.keys(in: txn, matching: test, skipping: page?.offset ?? 0, stopAfter: page?.limit) {
            // The walk has sorted, and cut the page that follows, if any.
            keys = walked
            steps = steps.dropFirst(page == nil ? 1 : 2)
        } else {
            keys = try matchingKeys(layout, test: test, path: path, in: txn)
        }
        for step in steps {
            keys = try apply(step, to: keys, layout: layout, in: txn)
        }
        try links?.throwFailure()
        return keys
    }

    /// The candidates of a list or backlink source, in its order; `nil` for a whole table.
    private func sourceKeys() throws -> [ObjectKey]? {
        switch query.source {
        case .table:
            return nil
        case .list(let list):
            return list.positions.indices.compactMap { index in
                if case .link(let key) = list.value(at: index) { return ObjectKey(key) }
                return nil
            }
        case .set(let set):
            return set.values.compactMap { value in
                if case .link(let key) = value { return ObjectKey(key) }
                return nil
            }
        case .map(let map):
            return map.entries.compactMap { entry in
                if case .link(let key) = entry.value { return ObjectKey(key) }
                return nil
            }
        case .linkingObjects(let owner, let originProperty):
            guard let management = owner.management else { return [] }
            return try LinkingObjectsKeys.keys(linkingTo: management.key, of: management.bound.layout, from: info.type,
                                              through: originProperty, in: realm)
        }
    }

    /// The page the next step cuts, when it is a slice.
    private static func page(after steps: ArraySlice<ResultsQuery.Step>) -> (offset: Int, limit: Int?)? {
        guard case .slice(let offset, let limit)? = steps.first else { return nil }
        return (offset, limit)
    }

    /// The keys matching the predicate, in object key order.
    private func matchingKeys(_ layout: TableLayout, test: RowPredicate?, path: QueryPlanner.AccessPath,
                              in txn: Transaction) throws -> [ObjectKey] {
        if let candidates = try QueryPlanner(layout: layout).candidates(path, in: txn) {
            guard let test, !path.isCovered else { return candidates }
            return try candidates.filter { key in try layout.row(key, in: txn).map { test(RowReader($0, key: key)) } ?? false }
        }
        var keys: [ObjectKey] = []
        if test == nil { keys.reserveCapacity(try layout.count(in: txn)) }
        let cursor = try txn.openCursor(layout.rows)
        do {
            var entry = try cursor.first()
            while let (key, row) = entry {
                let objectKey = try ObjectKey(checking: key, in: layout.className)
                if test?(RowReader(row, key: objectKey)) ?? true { keys.append(objectKey) }
                entry = try cursor.next()
            }
        } catch LMDBError.sealBroken {
            throw layout.brokenSeal(at: cursor)
        }
        return keys
    }

    private func apply(_ step: ResultsQuery.Step, to keys: [ObjectKey], layout: TableLayout, in txn: Transaction) throws -> [ObjectKey] {
        switch step {
        case .slice(let offset, let limit):
            let start = min(offset, keys.count)
            let end = limit.map { start + min(keys.count - start, $0) } ?? keys.count
            return Array(keys[start..<end])
        case .sort(let descriptors):
            let values = try keyPathValues(keys, paths: descriptors.map(\.keyPath), layout: layout, in: txn)
            let order = keys.indices.sorted { a, b in
                for (position, descriptor) in descriptors.enumerated() {
                    let result = Self.sortOrder(values[a][position], values[b][position])
                    if result != 0 { return descriptor.ascending ? result < 0 : result > 0 }
                }
                return a < b
            }
            return order.map { keys[$0] }
        case .distinct(let names):
            let values = try keyPathValues(keys, paths: names, layout: layout, in: txn)
            var seen = Set<[_PersistedValue]>()
            return keys.indices.filter { seen.insert(values[$0]).inserted }.map { keys[$0] }
        }
    }

    /// The values `paths` name for each object of `keys`.
    private func keyPathValues(_ keys: [ObjectKey], paths: [String], layout: TableLayout, in txn: Transaction) throws -> [[_PersistedValue]] {
        let catalog = realm.catalog
        let readers = paths.map { path -> KeyPathReader in
            switch KeyPathReader.make(path, on: layout.storedClass, catalog: catalog) {
            case .success(let reader): return reader
            case .failure(let error): burrowPreconditionFailure(error.message)
            }
        }
        return try keys.map { key in
            guard let row = try layout.row(key, in: txn) else { return paths.map { _ in .null } }
            let reader = RowReader(row, key: key)
            return try readers.map { try $0.value(of: reader, in: txn) }
        }
    }

    private func rowValues(_ keys: [ObjectKey], columns: [Int], layout: TableLayout, in txn: Transaction) throws -> [[_PersistedValue]] {
        try keys.map { key in
            guard let row = try layout.row(key, in: txn) else { return columns.map { _ in .null } }
            let reader = RowReader(row)
            return columns.map { reader.value($0, kind: layout.kinds[$0]) }
        }
    }

    /// Sort order: null first, then by value (strings by their UTF-8 bytes).
    static func sortOrder(_ a: _PersistedValue, _ b: _PersistedValue) -> Int {
        switch (a.isNull, b.isNull) {
        case (true, true): 0
        case (true, false): -1
        case (false, true): 1
        case (false, false): ValueComparator.compare(a, b) ?? 0
        }
    }

    // MARK: Reading

    /// How many objects match: O(1) for a whole class.
    var count: Int {
        realm.verifyThread()
        guard query.isWholeTable else { return keys.count }
        guard let layout = bound?.layout else { return 0 }
        do {
            return try layout.count(in: realm.transaction)
        } catch {
            burrowPreconditionFailure(TrapMessage.cannotRead(realm.coordinator.path, error))
        }
    }

    /// The first (or last) matching object's key, without evaluating a whole class.
    func edgeKey(last: Bool) -> ObjectKey? {
        realm.verifyThread()
        guard query.isWholeTable else { return last ? keys.last : keys.first }
        guard let layout = bound?.layout, layout.isVisible(to: realm.transaction) else { return nil }
        do {
            let cursor = try realm.transaction.openCursor(layout.rows)
            return try (last ? cursor.last() : cursor.first()).map { entry throws in try ObjectKey(checking: entry.key, in: layout.className) }
        } catch {
            burrowPreconditionFailure(TrapMessage.cannotRead(realm.coordinator.path, error))
        }
    }

    /// A managed accessor for `key`.
    func object(for key: ObjectKey) -> ObjectBase {
        guard let bound else { burrowPreconditionFailure(TrapMessage.objectInvalidated) }
        return realm.makeObject(bound, key: key)
    }

    /// The value of property `name` of each matching object, in order.
    func values(of name: String) -> (kind: _StorageKind, values: [_PersistedValue]) {
        let storedClass = self.storedClass
        guard let column = storedClass.properties.firstIndex(where: { $0.name == name }) else {
            burrowPreconditionFailure("Invalid property name '\(name)' for class '\(storedClass.name)'.")
        }
        let kind = storedClass.properties[column].kind
        guard let layout = bound?.layout else { return (kind, []) }
        do {
            return (kind, try rowValues(keys, columns: [column], layout: layout, in: realm.transaction).map { $0[0] })
        } catch {
            burrowPreconditionFailure(TrapMessage.cannotRead(realm.coordinator.path, error))
        }
    }

    /// The position of the first object that also matches `node`.
    func firstIndex(matching node: PredicateNode) -> Int? {
        guard let layout = bound?.layout else { return nil }
        let links = self.links
        let test: RowPredicate
        do {
            test = try PredicateCompiler(storedClass: layout.storedClass, links: links).compile(node)
        } catch {
            burrowPreconditionFailure(Realm.Error.message(of: error))
        }
        let txn = realm.transaction
        let keys = self.keys
        links.transaction = txn
        defer { links.transaction = nil }
        do {
            let found = try keys.firstIndex { key in
                try layout.row(key, in: txn).map { test(RowReader($0, key: key)) } ?? false
            }
            try links.throwFailure()
            return found
        } catch {
            burrowPreconditionFailure(TrapMessage.cannotRead(realm.coordinator.path, error))
        }
    }

    /// Deletes every matching object inside `write`.
    func deleteAll(in write: WriteState) {
        guard let layout = bound?.layout else { return }
        if query.isWholeTable && write.tables.canEmptyAtOnce(layout) {
            realm.perform(in: write) { try write.tables.removeAll(in: layout) }
        } else {
            for key in keys {
                realm.perform(in: write) { try write.tables.delete(key, in: layout) }
            }
        }
    }
}
