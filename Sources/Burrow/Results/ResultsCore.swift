import LMDB

/// The shared state of a ``Results`` value: what it selects, and the object keys it found in
/// the realm's current generation.
final class ResultsCore {
    let realm: RealmCore
    /// Results keep their realm open.
    private let use: RealmUse
    let info: ClassInfo
    private(set) var query: ResultsQuery

    /// The matching keys of the last generation evaluated.
    private var cache = GenerationCache<[ObjectKey]>([])
    /// The query made ready for a layout; its `links` is `nil` when the predicate needs no row
    /// test (an index answers it), and it then stays valid whatever the catalog.
    private var compiled: (layout: TableLayout, prepared: QueryExecutor.Prepared)?
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
    private(set) var createdGeneration: UInt64

    init(realm: RealmCore, info: ClassInfo, query: ResultsQuery) {
        self.realm = realm
        createdGeneration = realm.generation
        use = RealmUse(realm)
        self.info = info
        self.query = query
    }

    /// The class resolved against the file, or `nil` while the file has no table for it.
    var bound: BoundClass? { realm.bound(info) }

    /// The table of the class, or `nil` while the file has none.
    private var layout: TableLayout? { realm.layout(of: info) }

    /// A core for `query` over the same class; traps when the query does not fit the class.
    func with(_ query: ResultsQuery) -> ResultsCore {
        var query = query
        query.source = self.query.source
        let core = ResultsCore(realm: realm, info: info, query: query)
        core.validate()
        return core
    }

    /// Makes this core select `query` over the same class, as ``with(_:)`` would make a new one
    /// do: for results nothing else holds (`realm.objects(Dog.self).filter(…)`), which need not
    /// be kept as they were.
    func select(_ query: ResultsQuery) {
        var query = query
        query.source = self.query.source
        realm.exclusively {
            self.query = query
            cache = GenerationCache([])
            compiled = nil
        }
        createdGeneration = realm.generation
        validate()
    }

    /// The stored class queries are checked against: the file's, or the model's before the
    /// file has a table for it.
    private var storedClass: StoredClass {
        layout?.storedClass ?? info.storedClassBeforeTable
    }

    /// Checks the predicate and the steps' property names now, so that a bad query traps where
    /// it is written.
    private func validate() {
        let layout = self.layout
        if let predicate = query.predicate {
            if let layout {
                _ = prepared(for: layout)
            } else {
                do {
                    _ = try PredicateCompiler(storedClass: info.storedClassBeforeTable, links: links).compile(predicate)
                } catch {
                    burrowPreconditionFailure(Realm.Error.message(of: error))
                }
            }
        }
        guard !query.steps.isEmpty else { return }
        let storedClass = layout?.storedClass ?? info.storedClassBeforeTable
        let stepKeyPaths = query.stepKeyPaths
        let catalog = realm.catalog
        for (name, use) in stepKeyPaths {
            if case .failure(let error) = KeyPathReader.make(name, on: storedClass, catalog: catalog, for: use) {
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
            cache = GenerationCache(keys, generation: realm.generation)
        }
    }

    private var currentKeys: [ObjectKey] {
        if cache.generation == realm.generation { return cache.value }
        do {
            cache = GenerationCache(try evaluate(), generation: realm.generation)
        } catch {
            burrowPreconditionFailure(TrapMessage.cannotRead(realm.coordinator.path, error))
        }
        return cache.value
    }

    private func prepared(for layout: TableLayout) -> QueryExecutor.Prepared {
        if let compiled, compiled.layout === layout, compiled.prepared.links == nil || compiled.prepared.links === links {
            return compiled.prepared
        }
        let prepared: QueryExecutor.Prepared
        if let predicate = query.predicate {
            do {
                prepared = try QueryExecutor.prepare(predicate, for: layout, links: { links }, readsTable: query.readsTable)
            } catch {
                burrowPreconditionFailure(Realm.Error.message(of: error))
            }
        } else {
            prepared = .everything
        }
        compiled = (layout, prepared)
        return prepared
    }

    /// Runs the query over the realm's current version.
    private func evaluate() throws -> [ObjectKey] {
        guard let layout else { return [] }
        return try executor(for: layout).keys(prepared(for: layout), members: try sourceKeys(), steps: query.steps)
    }

    private func executor(for layout: TableLayout) -> QueryExecutor {
        QueryExecutor(layout: layout, transaction: realm.transaction, catalog: realm.catalog)
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

    // MARK: Reading

    /// How many objects match: O(1) for a whole class; a walk of the index entries, with no
    /// keys collected, for a lone indexed equality.
    var count: Int {
        realm.verifyThread()
        if !query.isWholeTable {
            var counted = 0
            let walked = walkSinglePoint(counting: true) { _ in
                counted += 1
                return true
            }
            return walked ? counted : keys.count
        }
        guard let layout else { return 0 }
        do {
            return try layout.count(in: realm.transaction)
        } catch {
            burrowPreconditionFailure(TrapMessage.cannotRead(realm.coordinator.path, error))
        }
    }

    /// Calls `visit` with the matching keys in order until it returns `false`, straight from
    /// the index, when an index answers the query alone with one point (a lone `==` on an
    /// indexed property or a primary key, with no steps); returns whether it could. Results
    /// whose keys were evaluated for this generation already read those instead. With
    /// `counting`, the keys are only counted, and an encrypted file's index answers too.
    private func walkSinglePoint(counting: Bool = false, _ visit: (ObjectKey) -> Bool) -> Bool {
        guard query.steps.isEmpty, query.readsTable, let layout else { return false }
        return realm.exclusively {
            guard cache.generation != realm.generation else { return false }
            let transaction = realm.transaction
            guard layout.isVisible(to: transaction) else { return false }
            let prepared = prepared(for: layout)
            // Objects are read through the row test; only a count may take the entries alone.
            guard let path = prepared.test == nil ? prepared.path : counting ? prepared.countablePath : nil else { return false }
            do {
                return try QueryPlanner(layout: layout).visitSinglePoint(path, in: transaction, visit)
            } catch {
                burrowPreconditionFailure(TrapMessage.cannotRead(realm.coordinator.path, error))
            }
        }
    }

    /// The first (or last) matching object's key, without evaluating a whole class, a lone
    /// indexed equality, or (for the first) a sort.
    func edgeKey(last: Bool) -> ObjectKey? {
        realm.verifyThread()
        if !query.isWholeTable, !last {
            var first: ObjectKey?
            let walked = walkSinglePoint { key in
                first = key
                return false
            }
            if walked { return first }
            if let first = firstOfSort() { return first }
        }
        guard query.isWholeTable else { return last ? keys.last : keys.first }
        guard let layout, layout.isVisible(to: realm.transaction) else { return nil }
        do {
            let cursor = try realm.transaction.openCursor(layout.rows)
            return try (last ? cursor.last() : cursor.first()).map { entry throws in try ObjectKey(checking: entry.key, in: layout.className) }
        } catch {
            burrowPreconditionFailure(TrapMessage.cannotRead(realm.coordinator.path, error))
        }
    }

    /// The first matching key of results that sort, evaluated as their page of one: a sort an
    /// index answers walks to it and stops, another selects the least instead of ordering all.
    /// `nil` (nothing to say) when there is no sort, or the keys of this generation are known.
    private func firstOfSort() -> ObjectKey?? {
        guard query.steps.contains(where: { if case .sort = $0 { true } else { false } }), let layout else { return nil }
        return realm.exclusively {
            guard cache.generation != realm.generation else { return nil }
            do {
                let page = try executor(for: layout).keys(prepared(for: layout), members: try sourceKeys(),
                                                          steps: query.steps + [.slice(offset: 0, limit: 1)])
                return .some(page.first)
            } catch {
                burrowPreconditionFailure(TrapMessage.cannotRead(realm.coordinator.path, error))
            }
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
        guard let layout else { return (kind, []) }
        do {
            return (kind, try executor(for: layout).values(of: column, for: keys))
        } catch {
            burrowPreconditionFailure(TrapMessage.cannotRead(realm.coordinator.path, error))
        }
    }

    /// The position of the first object that also matches `node`.
    func firstIndex(matching node: PredicateNode) -> Int? {
        guard let layout else { return nil }
        let links = self.links
        let test: RowPredicate
        do {
            test = try PredicateCompiler(storedClass: layout.storedClass, links: links).compile(node)
        } catch {
            burrowPreconditionFailure(Realm.Error.message(of: error))
        }
        let keys = self.keys
        do {
            return try executor(for: layout).firstIndex(in: keys, matching: test, links: links)
        } catch {
            burrowPreconditionFailure(TrapMessage.cannotRead(realm.coordinator.path, error))
        }
    }

    /// Deletes every matching object inside `write`.
    func deleteAll(in write: WriteState) {
        guard let layout else { return }
        if query.isWholeTable && write.tables.canEmptyAtOnce(layout) {
            realm.perform(in: write) { try write.tables.removeAll(in: layout) }
        } else {
            for key in keys {
                realm.perform(in: write) { try write.tables.delete(key, in: layout) }
            }
        }
    }
}
