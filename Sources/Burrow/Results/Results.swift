/// The objects of one class that match a query: lazy, and live.
///
/// ```swift
/// let puppies = realm.objects(Dog.self).filter("age < 2")
/// puppies.count                    // evaluated now
/// try realm.write { realm.add(Dog(value: ["age": 1])) }
/// puppies.count                    // one more: results follow the realm's version
/// for dog in puppies { print(dog.name) }
/// ```
///
/// Nothing is read until the results are used; then the matching keys are kept until the
/// realm's version moves. `count` of a whole class is read from the table header. Iteration
/// walks the keys as they were when it began, so deleting objects while iterating is safe.
public struct Results<Element: RealmCollectionValue>: RandomAccessCollection {
    let core: ResultsCore

    init(core: ResultsCore) { self.core = core }

    /// The realm the results read.
    public var realm: Realm? { Realm(core: core.realm) }

    /// Whether the results are a frozen snapshot. Always `false` until frozen results exist.
    public var isFrozen: Bool { false }

    /// Always 0.
    public var startIndex: Int { 0 }
    /// The number of matching objects.
    public var endIndex: Int { count }

    /// The number of matching objects.
    public var count: Int { core.count }

    /// Whether nothing matches.
    public var isEmpty: Bool { core.edgeKey(last: false) == nil }

    /// The object at `position`; traps when out of range.
    public subscript(position: Int) -> Element {
        let keys = core.keys
        precondition(position >= 0 && position < keys.count,
                     "Index \(position) is out of bounds (must be less than \(keys.count)).")
        return core.object(for: keys[position]) as! Element
    }

    /// The first object, if any.
    public var first: Element? { core.edgeKey(last: false).map { core.object(for: $0) as! Element } }

    /// The last object, if any.
    public var last: Element? { core.edgeKey(last: true).map { core.object(for: $0) as! Element } }

    /// Walks the objects that matched when iteration began.
    public func makeIterator() -> Iterator {
        Iterator(core: core, keys: core.keys)
    }

    /// Yields an accessor for each key of a snapshot.
    public struct Iterator: IteratorProtocol {
        let core: ResultsCore
        let keys: [ObjectKey]
        var position = 0
        /// Whether the elements are objects of the results' own class, which the accessors
        /// are: asked once, so that each step skips a generic cast (`Results<Obj?>` of a map
        /// still casts).
        private let elementsAreAccessors = Element.self is ObjectBase.Type

        init(core: ResultsCore, keys: [ObjectKey]) {
            self.core = core
            self.keys = keys
        }

        /// The next object, or `nil` after the last.
        public mutating func next() -> Element? {
            guard position < keys.count else { return nil }
            defer { position += 1 }
            let object = core.object(for: keys[position])
            guard elementsAreAccessors else { return object as? Element }
            assert(object is Element, "Results of \(Element.self) made a \(type(of: object)).")
            return unsafeBitCast(object, to: Element.self)
        }
    }

    /// The position of `object` in the results, or `nil`.
    public func index(of object: Element) -> Int? {
        guard let object = object as? ObjectBase, let management = object.management,
              management.realm === core.realm, management.bound.info.className == core.info.className else { return nil }
        return core.keys.firstIndex(of: management.key)
    }

    func with(_ query: ResultsQuery) -> Results<Element> {
        Results(core: core.with(query))
    }
}
