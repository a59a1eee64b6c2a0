/// ``Results``, ``List``, ``MutableSet`` and ``LinkingObjects`` as ``RealmCollection``s. Their
/// queries come from ``_QueryableCollection``; equality follows RealmSwift: results are equal
/// to their own copies, managed collections when they are the same property of the same
/// object, unmanaged ones only to themselves.
extension Results: RealmCollection {
    public static func == (lhs: Results<Element>, rhs: Results<Element>) -> Bool {
        switch (lhs.backing, rhs.backing) {
        case (.objects(let left), .objects(let right)): left === right
        case (.values(let left), .values(let right)): left === right
        default: false
        }
    }
}

extension List: RealmCollection {
    /// Whether the list is a frozen snapshot. Always `false` until frozen data exists.
    public var isFrozen: Bool { false }

    public static func == (lhs: List<Element>, rhs: List<Element>) -> Bool {
        lhs === rhs || ManagedCollection.same(lhs.managed as? ManagedCollection, rhs.managed as? ManagedCollection)
    }
}

extension MutableSet: RealmCollection {
    /// Whether the set is a frozen snapshot. Always `false` until frozen data exists.
    public var isFrozen: Bool { false }

    /// The position of `object` in the set's order, or `nil`.
    public func index(of object: Element) -> Int? {
        guard contains(object) else { return nil }
        return indices.first { self[$0] == object }
    }

    public static func == (lhs: MutableSet<Element>, rhs: MutableSet<Element>) -> Bool {
        lhs === rhs || ManagedCollection.same(lhs.managed, rhs.managed)
    }
}

extension LinkingObjects: Equatable, CustomStringConvertible {
    public static func == (lhs: LinkingObjects<Element>, rhs: LinkingObjects<Element>) -> Bool {
        if lhs === rhs { return true }
        guard lhs.originProperty == rhs.originProperty, let left = lhs.owner?.management, let right = rhs.owner?.management else {
            return false
        }
        return left.realm.coordinator === right.realm.coordinator && left.bound.layout.classID == right.bound.layout.classID
            && left.key == right.key
    }

    /// `LinkingObjects<Element> (` then each object on its own line, then `)`.
    public var description: String {
        CollectionKeyValue.describe(Array(self), as: "LinkingObjects<\(Element.self)>")
    }
}

extension LinkingObjects: RealmCollection where Element: Object {
    /// Whether the object holding the property was deleted.
    public var isInvalidated: Bool {
        (owner as? Object)?.isInvalidated ?? false
    }

    /// Whether the linking objects are a frozen snapshot. Always `false` until frozen data exists.
    public var isFrozen: Bool { false }
}

extension ManagedCollection {
    /// Whether two managed collections are the same property of the same stored object.
    static func same(_ lhs: ManagedCollection?, _ rhs: ManagedCollection?) -> Bool {
        guard let lhs, let rhs else { return false }
        return lhs === rhs || (lhs.realm.coordinator === rhs.realm.coordinator && lhs.layout.classID == rhs.layout.classID
            && lhs.ownerKey == rhs.ownerKey && lhs.column == rhs.column)
    }
}
