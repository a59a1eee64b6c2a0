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
    /// The classes whose changes this filter reads: its own and those its links reach.
    let classIDs: Set<UInt32>
    /// Whether a link it would follow goes to a class with no table yet (none of its objects
    /// was ever written): the filter is then made again once the file has more classes.
    let missesLinkTargets: Bool
    /// How many classes the file had when the filter was made.
    let catalogClassCount: Int

    /// How many links a default observation follows.
    static let defaultDepth = 4

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
            links = depth + 1 >= Self.defaultDepth ? [] : linkProperties.map { property in
                (property.name, ModificationFilter(className: property.objectClassName!, keyPaths: nil, catalog: catalog, depth: depth + 1))
            }
            classIDs = Self.classIDs(classID, links)
            missesLinkTargets = depth + 1 < Self.defaultDepth && (linkProperties.count < allLinks.count || links.contains { $0.target.missesLinkTargets })
            return
        }
        var own = Set<UInt32>()
        var nested: [String: [[String]]] = [:]
        for path in keyPaths {
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
        classIDs = Self.classIDs(classID, links)
        missesLinkTargets = allLinks.contains { nested[$0.name] != nil && catalog.layouts[$0.objectClassName!] == nil }
            || links.contains { $0.target.missesLinkTargets }
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
        return keys
    }
}
