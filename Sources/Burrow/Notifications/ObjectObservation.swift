import LMDB

/// An observation of one object: after each version that changed it, which of its properties
/// changed and from what, or that it was deleted (after which it reports nothing more).
///
/// The old values are the ones the observation read at the previous version, so they are known
/// whichever thread or process wrote. A link reports the object it linked to before (read at
/// the new version: it may have been deleted since); a list, set or map reports neither value.
final class ObjectObservation<T: ObjectBase>: Observation {
    private let object: T
    private let keyPaths: [[String]]?
    private let block: (ObjectChange<T>) -> Void
    private var filter: ModificationFilter?
    /// The stored value of each property at the last version, by column.
    private var values: [_PersistedValue] = []
    /// The objects linking to the object at the last version, for each linking-objects property
    /// the key paths name.
    private var linking: [String: [ObjectKey]] = [:]

    init(_ object: T, keyPaths: [String]?, block: @escaping (ObjectChange<T>) -> Void) {
        self.object = object
        self.keyPaths = keyPaths.map { $0.map { $0.split(separator: ".").map(String.init) } }
        self.block = block
    }

    private var management: ObjectBase.Management { object.management! }

    /// Objects report no initial state, as in RealmSwift: this takes the values in.
    override func deliverInitial(in session: RealmSession) {
        let realm = session.core
        let layout = management.bound.layout
        let filter = ModificationFilter(className: layout.className, keyPaths: keyPaths, catalog: realm.catalog)
        self.filter = filter
        values = currentValues(in: realm) ?? []
        linking = (try? currentLinking(filter, in: realm)) ?? [:]
    }

    /// The objects linking to the object now, for each of `filter`'s linking-objects properties.
    private func currentLinking(_ filter: ModificationFilter, in realm: RealmCore) throws -> [String: [ObjectKey]] {
        var linking: [String: [ObjectKey]] = [:]
        for backlink in filter.backlinks {
            linking[backlink.name] = try LinkingObjectsKeys.keys(linkingTo: management.key, classID: management.bound.layout.classID,
                                                                 from: backlink.origin, through: backlink.property,
                                                                 catalog: realm.catalog, txn: realm.transaction)
        }
        return linking
    }

    /// The linking-objects properties that changed: their objects, or those objects as the key
    /// path counts them (when the log can tell).
    private func changedBacklinks(_ changes: [UInt32: ObjectChanges]?, now: [String: [ObjectKey]], filter: ModificationFilter,
                                  in realm: RealmCore) throws -> [String] {
        try filter.backlinks.compactMap { backlink in
            let current = now[backlink.name] ?? []
            if current != linking[backlink.name] ?? [] { return backlink.name }
            guard let target = backlink.target, let changes else { return nil }
            let modified = try target.modifiedKeys(in: changes, catalog: realm.catalog, txn: realm.transaction)
            return current.contains { modified.contains($0.rawValue) } ? backlink.name : nil
        }
    }

    /// The object's stored values at the realm's version, or `nil` when it is gone.
    private func currentValues(in realm: RealmCore) -> [_PersistedValue]? {
        let layout = management.bound.layout
        guard let row = try? layout.row(management.key, in: realm.transaction) else { return nil }
        let reader = RowReader(row, key: management.key)
        return layout.kinds.indices.map { column in (try? reader.checkedValue(column, kind: layout.kinds[column])) ?? .null }
    }

    override func deliver(_ changes: [UInt32: ObjectChanges]?, in session: RealmSession, silently: Bool) {
        let realm = session.core
        guard var filter else { return }
        let layout = management.bound.layout
        if filter.isStale(in: realm.catalog) {
            filter = ModificationFilter(className: layout.className, keyPaths: keyPaths, catalog: realm.catalog)
            self.filter = filter
        }
        let key = management.key.rawValue
        if let changes, filter.classIDs.isDisjoint(with: changes.keys) { return }
        let own = changes?[layout.classID]
        let replaced = own.map { $0.cleared || $0.deletions.contains(key) } ?? false
        guard !replaced, let new = currentValues(in: realm) else {
            token?.invalidate()
            if !silently { block(.deleted) }
            return
        }
        let changed: [Int]
        let nowLinking: [String: [ObjectKey]]
        let backlinks: [String]
        do {
            changed = try changedColumns(changes, new: new, filter: filter, in: realm)
            nowLinking = try currentLinking(filter, in: realm)
            backlinks = try changedBacklinks(changes, now: nowLinking, filter: filter, in: realm)
        } catch {
            token?.invalidate()
            block(.error(Realm.Error(.fail, "Cannot read the changes of '\(realm.coordinator.path)': \(error)")))
            return
        }
        let old = values
        values = new
        linking = nowLinking
        guard !silently, !changed.isEmpty || !backlinks.isEmpty else { return }
        let properties = layout.storedClass.properties
        // Linking objects report no values, as RealmSwift reports them; nor does the realm's
        // own write report old values (RealmSwift gives them only for other threads' writes).
        let ownCommit = session.observers?.isDeliveringOwnCommit ?? false
        block(.change(object, changed.map { column in
            PropertyChange(name: properties[column].name, oldValue: ownCommit ? nil : oldValue(old[column], column: column, in: realm),
                           newValue: properties[column].collection == nil ? (object as? Object)?[properties[column].name] : nil)
        } + backlinks.map { PropertyChange(name: $0, oldValue: nil, newValue: nil) }))
    }

    /// The columns that changed as the filter counts them: from the log (links through the
    /// objects they reach), or, when the log cannot tell, every column whose value differs.
    private func changedColumns(_ changes: [UInt32: ObjectChanges]?, new: [_PersistedValue], filter: ModificationFilter,
                                in realm: RealmCore) throws -> [Int] {
        let layout = management.bound.layout
        guard let changes else {
            return layout.kinds.indices.filter { column in
                (column < values.count ? values[column] : .null) != new[column] && filter.counts([layout.propertyIDs[column]])
            }
        }
        var columns = Set<Int>()
        if let own = changes[layout.classID], let index = Self.position(of: management.key.rawValue, in: own.modifications) {
            for property in own.modifications[index].properties where filter.counts([property]) {
                if let column = layout.propertyIDs.firstIndex(of: property) { columns.insert(column) }
            }
        }
        for link in filter.links {
            guard let column = layout.storedClass.properties.firstIndex(where: { $0.name == link.name }), !columns.contains(column) else { continue }
            let targets = try link.target.modifiedKeys(in: changes, catalog: realm.catalog, txn: realm.transaction)
            for target in targets {
                let owners = try LinkingObjectsKeys.keys(linkingTo: ObjectKey(target), classID: link.target.classID, from: layout.className,
                                                         through: link.name, catalog: realm.catalog, txn: realm.transaction)
                if owners.contains(management.key) {
                    columns.insert(column)
                    break
                }
            }
        }
        return columns.sorted()
    }

    /// The position of `key` in modifications ordered by key.
    private static func position(of key: UInt64, in modifications: [(key: UInt64, properties: [UInt32])]) -> Int? {
        var low = 0, high = modifications.count
        while low < high {
            let middle = (low + high) / 2
            if modifications[middle].key < key { low = middle + 1 } else { high = middle }
        }
        return low < modifications.count && modifications[low].key == key ? low : nil
    }

    /// The Swift value the property in `column` held before, as the object reads it.
    private func oldValue(_ value: _PersistedValue, column: Int, in realm: RealmCore) -> Any? {
        let layout = management.bound.layout
        let property = layout.storedClass.properties[column]
        guard property.collection == nil else { return nil }
        switch value {
        case .null: return nil
        case .link(let key):
            if let type = management.bound.info.isDynamic ? nil : management.bound.info.fields[management.bound.info.field(named: property.name)].linkedType {
                return realm.linkTarget(ObjectKey(key), of: type)
            }
            return realm.dynamicObject(ObjectKey(key), of: property.objectClassName ?? "")
        case .mixed:
            return AnyRealmValue(scalar: value).heldValue
        default:
            let info = management.bound.info
            guard !info.isDynamic, let field = info.fieldIndex[property.name] else { return value.anyValue }
            return info.fields[field].accessor.swiftValue(value)
        }
    }
}
