/// ``Results``, ``List``, ``MutableSet`` and ``LinkingObjects`` as ``RealmCollection``s. Their
/// queries come from ``_QueryableCollection``; equality follows RealmSwift: results are equal
/// to their own copies, managed collections when they are the same property of the same
/// object, unmanaged ones only to themselves.
extension Results: RealmCollection, Hashable {
    public static func == (lhs: Results<Element>, rhs: Results<Element>) -> Bool {
        lhs.identity == rhs.identity
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(identity)
    }

    /// The core the results share with their copies.
    private var identity: ObjectIdentifier {
        switch backing {
        case .objects(let core): ObjectIdentifier(core)
        case .values(let values): ObjectIdentifier(values)
        }
    }
}

extension List: RealmCollection {
    public static func == (lhs: List<Element>, rhs: List<Element>) -> Bool {
        lhs === rhs || ManagedCollection.same(lhs.managed as? ManagedCollection, rhs.managed as? ManagedCollection)
    }
}

extension List: Hashable {
    public func hash(into hasher: inout Hasher) {
        ManagedCollection.hash(managed as? ManagedCollection, orIdentityOf: self, into: &hasher)
    }
}

extension MutableSet: RealmCollection {
    /// The position of `object` in the set's order, or `nil`.
    public func index(of object: Element) -> Int? {
        guard contains(object) else { return nil }
        return indices.first { MutableSet.same(self[$0], object) }
    }

    public static func == (lhs: MutableSet<Element>, rhs: MutableSet<Element>) -> Bool {
        lhs === rhs || ManagedCollection.same(lhs.managed, rhs.managed)
    }
}

extension MutableSet: Hashable {
    public func hash(into hasher: inout Hasher) {
        ManagedCollection.hash(managed, orIdentityOf: self, into: &hasher)
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

    /// `LinkingObjects<Element> <0x…> (` then each object on its own line, then `)`.
    public var description: String {
        DescriptionText.collection(map { $0 }, named: "LinkingObjects<\(Element.self)>", identity: self)
    }
}

extension LinkingObjects: RealmCollection where Element: Object {
    /// Whether the object holding the property was deleted.
    public var isInvalidated: Bool {
        (owner as? Object)?.isInvalidated ?? false
    }
}

extension ManagedCollection {
    /// Hashes what ``same(_:_:)`` compares, or the collection's identity while unmanaged.
    static func hash(_ managed: ManagedCollection?, orIdentityOf collection: AnyObject, into hasher: inout Hasher) {
        guard let managed else {
            hasher.combine(ObjectIdentifier(collection))
            return
        }
        hasher.combine(ObjectIdentifier(managed.realm.coordinator))
        hasher.combine(managed.layout.classID)
        hasher.combine(managed.ownerKey.rawValue)
        hasher.combine(managed.column)
    }

    /// Whether two managed collections are the same property of the same stored object.
    static func same(_ lhs: ManagedCollection?, _ rhs: ManagedCollection?) -> Bool {
        guard let lhs, let rhs else { return false }
        return lhs === rhs || (lhs.realm.coordinator === rhs.realm.coordinator && lhs.layout.classID == rhs.layout.classID
            && lhs.ownerKey == rhs.ownerKey && lhs.column == rhs.column)
    }
}
