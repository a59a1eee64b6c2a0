import LMDB

/// An observation of results of objects: after each version, the objects that left, joined
/// and changed, by position.
///
/// A version whose change log touches none of the classes the results read (their class,
/// the classes its links reach, the owner of the collection they come from) costs nothing.
/// Otherwise the new keys come from the old ones and the log when the query reads only each
/// object's own values (only the objects the log names are read), or from evaluating the query
/// again, and are compared with the keys held; which of the objects that stayed were modified
/// comes from the log (the observation's key paths filter it). When the log cannot tell, the
/// query is evaluated and every object that stayed is reported modified.
final class ResultsObservation<Element: RealmCollectionValue>: Observation {
    private let results: Results<Element>
    private let keyPaths: [[String]]?
    private let report: (ResultsUpdate) -> Void
    /// Whether updates say which objects changed whatever the key paths (``ResultsUpdate``).
    private let tellsTouched: Bool
    private var keys: [ObjectKey] = []
    private var filter: ModificationFilter?
    /// The filter of every change, when the key paths narrow `filter`.
    private var everyChange: ModificationFilter?
    private var readClasses: Set<UInt32> = []

    init(_ results: Results<Element>, keyPaths: [String]?, block: @escaping (RealmCollectionChange<Results<Element>>) -> Void) {
        self.results = results
        self.keyPaths = Self.split(keyPaths)
        tellsTouched = false
        report = { update in update.collectionChange(of: results).map(block) }
    }

    /// An observation that reports every update, for an observer built on it.
    init(_ results: Results<Element>, keyPaths: [String]?, updates: @escaping (ResultsUpdate) -> Void) {
        self.results = results
        self.keyPaths = Self.split(keyPaths)
        tellsTouched = true
        report = updates
    }

    private static func split(_ keyPaths: [String]?) -> [[String]]? {
        keyPaths.map { $0.map { $0.split(separator: ".").map(String.init) } }
    }

    private var core: ResultsCore { results.core }

    /// Results in object key order, which no change can reorder.
    private var isInKeyOrder: Bool {
        guard case .table = core.query.source else { return false }
        return core.query.steps.isEmpty
    }

    override func deliverInitial(in session: RealmSession) {
        let realm = session.core
        keys = core.keys
        prepareFilter(in: realm)
        report(.initial)
    }

    private func prepareFilter(in realm: RealmCore) {
        guard filter?.isStale(in: realm.catalog) ?? true, realm.catalog.layouts[core.info.className] != nil else { return }
        let catalog = realm.catalog
        let filter = ModificationFilter(className: core.info.className, keyPaths: keyPaths, catalog: catalog)
        self.filter = filter
        everyChange = keyPaths == nil ? nil : ModificationFilter(className: core.info.className, keyPaths: nil, catalog: catalog)
        // The key paths may reach classes no link does (through linking objects).
        readClasses = filter.classIDs.union(everyChange?.classIDs ?? [])
        if let owner = sourceOwnerClass(in: catalog) { readClasses.insert(owner) }
    }

    /// The class of the object whose collection the results come from.
    private func sourceOwnerClass(in catalog: Catalog) -> UInt32? {
        switch core.query.source {
        case .table, .linkingObjects: return nil
        case .list(let list): return list.layout.classID
        case .set(let set): return set.layout.classID
        case .map(let map): return map.layout.classID
        }
    }

    override func deliver(_ changes: [UInt32: ObjectChanges]?, in session: RealmSession, silently: Bool) {
        let realm = session.core
        prepareFilter(in: realm)
        if let changes, readClasses.isDisjoint(with: changes.keys) { return }
        let old = keys
        // Only the objects the log names are read again when the query allows it.
        let own = filter.flatMap { changes?[$0.classID] } ?? ObjectChanges()
        let new = changes.flatMap { _ in core.keys(after: own, from: old) } ?? core.keys
        keys = new
        guard !silently else {
            if tellsTouched { report(.reset) }
            return
        }
        let modified: Set<UInt64>
        var touched: Set<UInt64>?
        do {
            if let changes, let filter {
                modified = try filter.modifiedKeys(in: changes, catalog: realm.catalog, txn: realm.transaction)
                if tellsTouched {
                    touched = try everyChange?.modifiedKeys(in: changes, catalog: realm.catalog, txn: realm.transaction) ?? modified
                }
            } else {
                modified = Set(old.map(\.rawValue))
            }
        } catch {
            report(.error(Realm.Error(.fail, "Cannot read the changes of '\(realm.coordinator.path)': \(error)")))
            token?.invalidate()
            return
        }
        // A range test first: most objects are far from the few that were modified.
        let lowest = modified.min() ?? 1, highest = modified.max() ?? 0
        let isModified = { (key: ObjectKey) in key.rawValue >= lowest && key.rawValue <= highest && modified.contains(key.rawValue) }
        let diff: CollectionDiff
        if isInKeyOrder {
            diff = CollectionDiff(ascending: old, new, modified: isModified)
        } else if case .table = core.query.source {
            // A table holds each object once.
            diff = CollectionDiff(old: old, new: new, modified: isModified)
        } else {
            diff = CollectionDiff(old: Occurrence.of(old), new: Occurrence.of(new), modified: { isModified($0.value) })
        }
        // Without the log every object may have changed.
        report(.changed(diff, touched: touched.map { TouchedElements($0, positions: new) } ?? .all))
    }

}
