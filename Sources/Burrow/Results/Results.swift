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
    /// What the results read: objects of a class, or the values of a collection.
    enum Backing {
        case objects(ResultsCore)
        case values(ValueResultsCore)
    }

    let backing: Backing

    init(core: ResultsCore) { backing = .objects(core) }

    init(values: ValueResultsCore) { backing = .values(values) }

    /// The core of results of objects. Only APIs of results of objects (`Element: Object`,
    /// a map's `Element: _OptionalObject`) reach it.
    var core: ResultsCore {
        guard case .objects(let core) = backing else {
            burrowPreconditionFailure("Results of \(Element.self) values have no object class.")
        }
        return core
    }

    /// The predicate and steps the results apply.
    var query: ResultsQuery {
        switch backing {
        case .objects(let core): core.query
        case .values(let values): values.query
        }
    }

    /// The realm the results read.
    public var realm: Realm? {
        switch backing {
        case .objects(let core): Realm(core: core.realm)
        case .values(let values): Realm(core: values.realm)
        }
    }

    /// Whether the collection the results read was deleted, or the realm was invalidated
    /// (``Realm/invalidate()``) since the results were made. Results of a class read the
    /// latest version even then.
    public var isInvalidated: Bool {
        switch backing {
        case .objects(let core): core.realm.invalidated(since: core.createdGeneration)
        case .values(let values): values.source.isInvalidated
        }
    }

    /// Whether the results are a frozen snapshot (``freeze()``).
    public var isFrozen: Bool {
        switch backing {
        case .objects(let core): core.realm.isFrozen
        case .values(let values): values.realm.isFrozen
        }
    }

    /// Always 0.
    public var startIndex: Int { 0 }
    /// The number of matching elements.
    public var endIndex: Int { count }

    /// The number of matching elements.
    public var count: Int {
        switch backing {
        case .objects(let core): core.count
        case .values(let values): values.count
        }
    }

    /// Whether nothing matches.
    public var isEmpty: Bool {
        switch backing {
        case .objects(let core): core.edgeKey(last: false) == nil
        case .values(let values): values.count == 0
        }
    }

    /// The element at `position`; traps when out of range.
    public subscript(position: Int) -> Element {
        switch backing {
        case .objects(let core):
            let keys = core.keys
            IndexBounds.check(position, count: keys.count)
            return Self.element(core.object(for: keys[position]))
        case .values(let values):
            return values.element(at: position, as: Element.self)
        }
    }

    /// The first element, if any.
    public var first: Element? {
        switch backing {
        case .objects(let core): core.edgeKey(last: false).map { Self.element(core.object(for: $0)) }
        case .values(let values): values.count == 0 ? nil : values.element(at: 0, as: Element.self)
        }
    }

    /// The last element, if any.
    public var last: Element? {
        switch backing {
        case .objects(let core): core.edgeKey(last: true).map { Self.element(core.object(for: $0)) }
        case .values(let values): values.count == 0 ? nil : values.element(at: values.count - 1, as: Element.self)
        }
    }

    /// Walks the elements that matched when iteration began.
    public func makeIterator() -> Iterator {
        switch backing {
        case .objects(let core): Iterator(core: core, keys: core.keys)
        case .values(let values): Iterator(values: values)
        }
    }

    /// Yields an accessor for each key of a snapshot, or each matching value.
    public struct Iterator: IteratorProtocol {
        let core: ResultsCore?
        let keys: [ObjectKey]
        let values: ValueResultsCore?
        let valueCount: Int
        var position = 0
        /// Whether the elements are objects of the results' own class, which the accessors
        /// are: asked once, so that each step skips a generic cast (`Results<Obj?>` of a map
        /// still casts).
        @usableFromInline let elementsAreAccessors: Bool

        init(core: ResultsCore, keys: [ObjectKey]) {
            self.core = core
            self.keys = keys
            values = nil
            valueCount = 0
            elementsAreAccessors = Element.self is ObjectBase.Type
        }

        init(values: ValueResultsCore) {
            core = nil
            keys = []
            self.values = values
            valueCount = values.count
            elementsAreAccessors = false
        }

        /// The next element, or `nil` after the last.
        ///
        /// Inlined into the caller, where `Element` is known, so that handing back an accessor
        /// does not ask the runtime for the metadata of `Element?` at every step.
        @inlinable
        public mutating func next() -> Element? {
            guard elementsAreAccessors else { return nextElement() }
            guard let object = nextAccessor() else { return nil }
            assert(object is Element, "Results of \(Element.self) made a \(type(of: object)).")
            return unsafeBitCast(object, to: Element.self)
        }

        /// The next accessor, when the elements are accessors.
        @usableFromInline
        mutating func nextAccessor() -> ObjectBase? {
            guard position < keys.count, let core else { return nil }
            defer { position += 1 }
            return core.object(for: keys[position])
        }

        /// The next element of any other kind.
        @usableFromInline
        mutating func nextElement() -> Element? {
            if let values {
                guard position < valueCount else { return nil }
                defer { position += 1 }
                return values.element(at: position, as: Element.self)
            }
            return nextAccessor().map(Results.element)
        }
    }

    static func element(_ object: ObjectBase) -> Element {
        if let element = object as? Element { return element }
        return Element._fromLinkedObject(object)
    }

    /// The position of `object` in the results, or `nil`.
    public func index(of object: Element) -> Int? {
        switch backing {
        case .objects(let core):
            guard let object = object._linkedObject, let management = object.management,
                  management.realm === core.realm, management.bound.info.className == core.info.className else { return nil }
            return core.keys.firstIndex(of: management.key)
        case .values(let values):
            return (0..<values.count).first { values.element(at: $0, as: Element.self) == object }
        }
    }

    consuming func with(_ query: ResultsQuery) -> Results<Element> {
        switch backing {
        case .objects(var core):
            // Results made only to be narrowed (`realm.objects(Dog.self).filter(…)`) give their
            // core to the new ones rather than leave it behind.
            guard isKnownUniquelyReferenced(&core) else { return Results(core: core.with(query)) }
            core.select(query)
            return Results(core: core)
        case .values(let values):
            return Results(values: values.with(query))
        }
    }

    /// The stored values of property `name` of each element, in order (`self` for values).
    func propertyValues(_ name: String) -> (kind: _StorageKind, values: [_PersistedValue]) {
        switch backing {
        case .objects(let core): core.values(of: name)
        case .values(let values): values.values(of: name)
        }
    }

    /// The object whose address a description prints: the state the results share.
    var descriptionIdentity: AnyObject {
        switch backing {
        case .objects(let core): core
        case .values(let values): values
        }
    }

    /// The name of what the results read, for messages.
    var elementDescription: String {
        switch backing {
        case .objects(let core): core.info.className
        case .values(let values): values.source.propertyPath
        }
    }

    func index(matchingNode node: PredicateNode) -> Int? {
        switch backing {
        case .objects(let core): core.firstIndex(matching: node)
        case .values(let values): values.firstIndex(matching: node)
        }
    }
}
