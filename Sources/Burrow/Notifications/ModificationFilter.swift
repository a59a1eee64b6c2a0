import LMDB

/// Which changes count as modifications of an observed class's objects: changes of its own
/// properties (every one, or those the observation's key paths name) and, through its links,
/// lists, sets and maps of objects, modifications of the objects it links to (every linked
/// property up to four links deep, or the key paths' next components).
///
/// `["name", "dogs.age"]` on `Person`: `name` and `dogs` of the person, and `age` of the dogs
/// in its `dogs`. With no key paths: every property, and every property of linked objects up to
/// four links away, as RealmSwift reports.
final class ModificationFilter {
    let classID: UInt32
    let className: String
    /// The property ids that count; `nil`: all.
    let ownProperties: Set<UInt32>?
    /// Links to follow: the property, and what counts in the objects it links to.
    let links: [(name: String, target: ModificationFilter)]
    /// Linking objects the key paths name (`owners`, `owners.name`): their set counts, and what
    /// counts in them when the key path goes on (a default observation follows none).
    let backlinks: [Backlink]
    /// The classes whose changes this filter reads: its own and those its links reach.
    let classIDs: Set<UInt32>
    /// Whether a link it would follow goes to a class with no table yet (none of its objects
    /// was ever written): the filter is then made again once the file has more classes.
    let missesLinkTargets: Bool
    /// How many classes the file had when the filter was made.
    let catalogClassCount: Int

    /// How many links a default observation follows.
    static let defaultDepth = 4

    /// A `LinkingObjects` property named by a key path: the objects of `origin` whose `property`
    /// links to the observed object.
    struct Backlink {
        let name: String
        let origin: String
        let property: String
        /// What counts in the linking objects: `nil` when the key path ends at the property.
        let target: ModificationFilter?
        let originClassID: UInt32
    }

    /// The filter of `className` for `keyPaths` (each a list of property names), or every
    /// property when `keyPaths` is `nil`; traps for a key path that names no property.
    init(className: String, keyPaths: [[String]]?, catalog: Catalog, depth: Int = 0) {
        guard let layout = catalog.layouts[className] else {
            burrowPreconditionFailure("Object type '\(className)' is not managed by the Realm.")
        }
        let storedClass = layout.storedClass
        classID = layout.classID
        self.className = className
        catalogClassCount = catalog.layouts.count
        let allLinks = storedClass.properties.filter { $0.kind == .link && $0.objectClassName != nil }
        // A class with no table has no objects to modify: its links are followed once it has one.
        let linkProperties = allLinks.filter { catalog.layouts[$0.objectClassName!] != nil }
        guard let keyPaths else {
            ownProperties = nil
            backlinks = []
            links = depth + 1 >= Self.defaultDepth ? [] : linkProperties.map { property in
                (property.name, ModificationFilter(className: property.objectClassName!, keyPaths: nil, catalog: catalog, depth: depth + 1))
            }
            classIDs = Self.classIDs(classID, links)
            missesLinkTargets = depth + 1 < Self.defaultDepth && (linkProperties.count < allLinks.count || links.contains { $0.target.missesLinkTargets })
            return
        }
        var own = Set<UInt32>()
        var nested: [String: [[String]]] = [:]
        var linking: [String: (property: Property, paths: [[String]])] = [:]
        let computed = ClassInfo.type(named: className).map { ClassInfo.of($0).objectSchema.computedProperties } ?? []
        for path in keyPaths {
            if let first = path.first, let property = computed.first(where: { $0.name == first }) {
                linking[first, default: (property, [])].paths.append(Array(path.dropFirst()))
                continue
            }
            guard let first = path.first, let property = storedClass.properties.first(where: { $0.name == first }) else {
                burrowPreconditionFailure("property '\(path.first ?? "")' not found in object of type '\(className)'")
            }
            own.insert(property.id)
            guard path.count > 1 else { continue }
            burrowPrecondition(property.kind == .link, "Property '\(className).\(first)' is not a link: key path '\(path.joined(separator: "."))' cannot go through it.")
            nested[first, default: []].append(Array(path.dropFirst()))
        }
        ownProperties = own
        links = linkProperties.compactMap { property in
            nested[property.name].map { (property.name, ModificationFilter(className: property.objectClassName!, keyPaths: $0, catalog: catalog, depth: depth + 1)) }
        }
        // Linking objects of a class with no table yet: none, until it has one.
        backlinks = linking.sorted { $0.key < $1.key }.compactMap { name, linked in
            guard let origin = linked.property.objectClassName, let originProperty = linked.property.linkOriginPropertyName,
                  let originLayout = catalog.layouts[origin] else { return nil }
            let deeper = linked.paths.filter { !$0.isEmpty }
            return Backlink(name: name, origin: origin, property: originProperty,
                            target: deeper.isEmpty ? nil : ModificationFilter(className: origin, keyPaths: deeper, catalog: catalog, depth: depth + 1),
                            originClassID: originLayout.classID)
        }
        classIDs = backlinks.reduce(into: Self.classIDs(classID, links)) { ids, backlink in
            ids.insert(backlink.originClassID)
            ids.formUnion(backlink.target?.classIDs ?? [])
        }
        missesLinkTargets = allLinks.contains { nested[$0.name] != nil && catalog.layouts[$0.objectClassName!] == nil }
            || links.contains { $0.target.missesLinkTargets }
            || linking.values.contains { $0.property.objectClassName.map { catalog.layouts[$0] == nil } ?? false }
            || backlinks.contains { $0.target?.missesLinkTargets ?? false }
    }

    /// Whether the filter must be made again for `catalog`: a link target it could not follow
    /// may have a table now.
    func isStale(in catalog: Catalog) -> Bool {
        missesLinkTargets && catalog.layouts.count != catalogClassCount
    }

    private static func classIDs(_ own: UInt32, _ links: [(name: String, target: ModificationFilter)]) -> Set<UInt32> {
        links.reduce(into: [own]) { $0.formUnion($1.target.classIDs) }
    }

    /// Whether a change of properties `properties` counts.
    func counts(_ properties: [UInt32]) -> Bool {
        guard let ownProperties else { return true }
        return properties.contains { ownProperties.contains($0) }
    }

    /// The keys of this class's objects that `changes` modified as this filter counts, finding
    /// the owners of modified linked objects through the backlinks `txn` sees. Filters are
    /// finitely deep (four links by default), so links that form cycles end.
    func modifiedKeys(in changes: [UInt32: ObjectChanges], catalog: Catalog, txn: Transaction) throws -> Set<UInt64> {
        var keys = Set<UInt64>()
        if let own = changes[classID] {
            for (key, properties) in own.modifications where counts(properties) { keys.insert(key) }
        }
        for link in links {
            let targets = try link.target.modifiedKeys(in: changes, catalog: catalog, txn: txn)
            for target in targets {
                for owner in try LinkingObjectsKeys.keys(linkingTo: ObjectKey(target), classID: link.target.classID, from: className,
                                                         through: link.name, catalog: catalog, txn: txn) {
                    keys.insert(owner.rawValue)
                }
            }
        }
        for backlink in backlinks {
            keys.formUnion(try linkedKeys(of: backlink, changedIn: changes, catalog: catalog, txn: txn))
        }
        return keys
    }

    /// The objects of this class that objects of `backlink`'s origin class link to now and that
    /// changed as the backlink counts: they were inserted or linked anew, or they changed as its
    /// key path counts. (An object that stopped linking, or was deleted, is not read back: an
    /// object observation compares the linking objects of its object instead.)
    private func linkedKeys(of backlink: Backlink, changedIn changes: [UInt32: ObjectChanges], catalog: Catalog,
                            txn: Transaction) throws -> Set<UInt64> {
        guard let originLayout = catalog.layouts[backlink.origin],
              let column = originLayout.storedClass.properties.firstIndex(where: { $0.name == backlink.property }) else { return [] }
        let propertyID = originLayout.propertyIDs[column]
        var origins = Set<UInt64>()
        if let originChanges = changes[backlink.originClassID] {
            origins.formUnion(originChanges.insertions)
            for (key, properties) in originChanges.modifications where properties.contains(propertyID) { origins.insert(key) }
        }
        if let target = backlink.target { origins.formUnion(try target.modifiedKeys(in: changes, catalog: catalog, txn: txn)) }
        var keys = Set<UInt64>()
        for origin in origins {
            for value in try Self.linkValues(of: ObjectKey(origin), column: column, in: originLayout, txn: txn) {
                if case .link(let target) = value { keys.insert(target) }
            }
        }
        return keys
    }

    /// What `owner`'s property in `column` holds: its link, or its list's, set's or map's values.
    private static func linkValues(of owner: ObjectKey, column: Int, in layout: TableLayout, txn: Transaction) throws -> [_PersistedValue] {
        let kind = layout.kinds[column]
        switch layout.storedClass.properties[column].collection {
        case nil:
            guard let row = try layout.row(owner, in: txn) else { return [] }
            return [try RowReader(row, key: owner).checkedValue(column, kind: kind)]
        case .some(let collection):
            guard let database = layout.collectionDatabase(of: column) else { return [] }
            switch collection {
            case .list: return try ListEntries.values(of: owner, in: database, kind: kind, txn: txn)
            case .set: return try SetEntries.values(of: owner, in: database, kind: kind, txn: txn)
            case .map: return try MapEntries.entries(of: owner, in: database, kind: kind, txn: txn).map(\.value)
            case .linkingObjects: return []
            }
        }
    }
}
