/// ``Results``, ``List``, ``MutableSet`` and ``LinkingObjects`` as ``RealmCollection``s. Their
/// queries come from ``_QueryableCollection``; equality follows RealmSwift: results are equal
/// to their own copies, managed collections when they are the same property of the same
/// object, unmanaged lists and sets when they hold equal elements, linking objects only to
/// themselves.
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
    /// Whether both are the same property of the same stored object, or unmanaged lists with
    /// equal elements in the same order.
    public static func == (lhs: List<Element>, rhs: List<Element>) -> Bool {
        lhs === rhs || lhs.unmanagedElementsEqual(rhs) ?? ManagedCollection.same(lhs.managed as? ManagedCollection, rhs.managed as? ManagedCollection)
    }

    /// Whether `object` is a list equal to this one (``==(_:_:)``), as RealmSwift's
    /// `isEqual(_:)` compares them.
    ///
    /// ```swift
    /// let a = List<Int>(), b = List<Int>()
    /// a.append(1); b.append(1)
    /// a.isEqual(b)   // true
    /// ```
    public func isEqual(_ object: Any?) -> Bool {
        (object as? List<Element>).map { self == $0 } ?? false
    }
}

extension List: Hashable {
    /// Hashes what ``==(_:_:)`` compares: the stored property, or an unmanaged list's count.
    public func hash(into hasher: inout Hasher) {
        ManagedCollection.hash(managed as? ManagedCollection, orCount: count, into: &hasher)
    }
}

extension MutableSet: RealmCollection {
    /// The position of `object` in the set's order, or `nil`.
    public func index(of object: Element) -> Int? {
        guard contains(object) else { return nil }
        return indices.first { MutableSet.same(self[$0], object) }
    }

    /// Whether both are the same property of the same stored object, or unmanaged sets with
    /// the same elements.
    public static func == (lhs: MutableSet<Element>, rhs: MutableSet<Element>) -> Bool {
        lhs === rhs || lhs.unmanagedElementsEqual(rhs) ?? ManagedCollection.same(lhs.managed, rhs.managed)
    }

    /// Whether `object` is a set equal to this one (``==(_:_:)``), as RealmSwift's
    /// `isEqual(_:)` compares them.
    ///
    /// ```swift
    /// let a = MutableSet<Int>(), b = MutableSet<Int>()
    /// a.insert(1); b.insert(1)
    /// a.isEqual(b)   // true
    /// ```
    public func isEqual(_ object: Any?) -> Bool {
        (object as? MutableSet<Element>).map { self == $0 } ?? false
    }
}

extension MutableSet: Hashable {
    /// Hashes what ``==(_:_:)`` compares: the stored property, or an unmanaged set's count.
    public func hash(into hasher: inout Hasher) {
        ManagedCollection.hash(managed, orCount: count, into: &hasher)
    }
}

extension LinkingObjects: Equatable, CustomStringConvertible {
    /// Whether both are the same instance: as in RealmSwift, whose linking objects are results,
    /// each read of the property is a collection of its own (`person.owners != person.owners`).
    public static func == (lhs: LinkingObjects<Element>, rhs: LinkingObjects<Element>) -> Bool {
        lhs === rhs
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
    /// Hashes what ``same(_:_:)`` compares, or the number of elements of an unmanaged
    /// collection (which compares by its elements).
    static func hash(_ managed: ManagedCollection?, orCount count: Int, into hasher: inout Hasher) {
        guard let managed else {
            hasher.combine(count)
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
