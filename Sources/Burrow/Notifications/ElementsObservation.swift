import LMDB

/// The common part of the observations of lists, sets, maps and linking objects: the elements'
/// identities and stored values at the last version, compared with the current ones.
///
/// An element is modified when it keeps its identity (its list position, its set value, its
/// map key, its object) and either holds another value or holds an object that the change log
/// says was modified (the observation's key paths filter which properties count). A version
/// whose log touches neither the owner's class nor the classes the elements reach costs one
/// set intersection.
class ElementsObservation<Identity: Hashable>: Observation {
    typealias Entry = (identity: Identity, value: _PersistedValue)

    private let keyPaths: [[String]]?
    private var elements: [Entry] = []
    private var filter: ModificationFilter?
    private var readClasses: Set<UInt32> = []
    init(keyPaths: [String]?) {
        self.keyPaths = keyPaths.map { $0.map { $0.split(separator: ".").map(String.init) } }
    }

    // What each collection says of itself.
    /// The elements now, or `nil` when the collection's owner is gone.
    func read() -> [Entry]? { nil }
    /// The class whose object holds the collection, if any.
    var ownerClass: String? { nil }
    /// The class of the objects the collection holds, if it holds objects.
    var targetClass: String? { nil }
    func reportInitial() {}
    func report(_ diff: CollectionDiff, old: [Entry], new: [Entry]) {}
    func reportError(_ error: any Error) {}

    override func deliverInitial(in session: RealmSession) {
        let realm = session.core
        prepare(in: realm)
        elements = read() ?? []
        reportInitial()
    }

    private func prepare(in realm: RealmCore) {
        guard filter?.isStale(in: realm.catalog) ?? true else { return }
        let catalog = realm.catalog
        if let owner = ownerClass, let layout = catalog.layouts[owner] { readClasses.insert(layout.classID) }
        guard let target = targetClass, catalog.layouts[target] != nil else { return }
        let filter = ModificationFilter(className: target, keyPaths: keyPaths, catalog: catalog)
        self.filter = filter
        readClasses.formUnion(filter.classIDs)
    }

    override func deliver(_ changes: [UInt32: ObjectChanges]?, in session: RealmSession, silently: Bool) {
        let realm = session.core
        prepare(in: realm)
        if let changes, readClasses.isDisjoint(with: changes.keys) { return }
        let old = elements
        let current = read()
        elements = current ?? []
        if current == nil { token?.invalidate() }
        guard !silently else { return }
        var modifiedObjects = Set<UInt64>()
        if let filter {
            do {
                modifiedObjects = try changes.map { try filter.modifiedKeys(in: $0, catalog: realm.catalog, txn: realm.transaction) }
                    ?? Set(old.compactMap { if case .link(let key) = $0.value { key } else { nil } })
            } catch {
                token?.invalidate()
                reportError(Realm.Error(.fail, "Cannot read the changes of '\(realm.coordinator.path)': \(error)"))
                return
            }
        }
        var oldValues: [Identity: _PersistedValue] = [:]
        for element in old { oldValues[element.identity] = element.value }
        var newValues: [Identity: _PersistedValue] = [:]
        for element in elements { newValues[element.identity] = element.value }
        let isModified = { (identity: Identity) -> Bool in
            let before = oldValues[identity], after = newValues[identity]
            if before != after { return true }
            if case .link(let key)? = after { return modifiedObjects.contains(key) }
            return false
        }
        let diff = CollectionDiff(old: old.map(\.identity), new: elements.map(\.identity), modified: isModified)
        guard !diff.isEmpty else { return }
        report(diff, old: old, new: elements)
    }
}
