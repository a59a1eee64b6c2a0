/// An unordered collection property of distinct objects or values.
///
/// ```swift
/// final class Person: Object {
///     @Persisted var friends: MutableSet<Person>
///     @Persisted var languages: MutableSet<String>
/// }
/// try realm.write {
///     person.languages.insert("Swift")
///     person.languages.formUnion(["C", "Swift"])   // still one "Swift"
/// }
/// person.languages.contains("C")                    // one B-tree lookup
/// ```
///
/// A managed set reads in value order (objects: in the order they were first stored). Membership,
/// insertion and removal cost one B-tree operation each. Deleting an object removes it from every
/// set.
public final class MutableSet<Element: RealmCollectionValue>: RandomAccessCollection, _UnmanagedCollection {
    private var elements: [Element] = []
    private(set) var managed: ManagedSet?

    /// An empty, unmanaged set.
    public init() {
        managed = nil
    }

    init(managed: ManagedSet) {
        self.managed = managed
    }

    /// The realm managing the set's owner, or `nil` while unmanaged.
    public var realm: Realm? { managed.map { Realm(core: $0.realm) } }

    /// Walks the elements; inside a write transaction, and while unmanaged, those the set held
    /// when the walk began.
    public func makeIterator() -> CollectionIterator<MutableSet<Element>> {
        guard let managed else { return CollectionIterator(self, elements: elements) }
        return CollectionIterator(self, snapshotting: managed.realm.writeState != nil)
    }

    /// Whether the owner was deleted.
    public var isInvalidated: Bool { managed?.isInvalidated ?? false }

    /// Always 0.
    public var startIndex: Int { 0 }
    /// The number of elements.
    public var endIndex: Int { count }
    /// The number of elements.
    public var count: Int { managed?.values.count ?? elements.count }

    /// The element at `position` of the set's order; traps when out of range.
    public subscript(position: Int) -> Element {
        guard let managed else {
            IndexBounds.check(position, count: elements.count)
            return elements[position]
        }
        let values = managed.values
        IndexBounds.check(position, count: values.count)
        return managed.element(from: values[position], as: Element.self, slot: nil)
    }

    /// Whether the set holds `object` (the same stored object, for a set of objects).
    public func contains(_ object: Element) -> Bool {
        if let managed { return managed.contains(object) }
        return elements.contains { Self.same($0, object) }
    }

    /// Adds `object` unless the set holds it (inside a write when managed).
    public func insert(_ object: Element) {
        guard let managed else {
            if !contains(object) { elements.append(object) }
            return
        }
        managed.insert(object)
    }

    /// Adds every element of `objects`.
    public func insert<S: Sequence>(objectsIn objects: S) where S.Element == Element {
        for object in objects { insert(object) }
    }

    /// Removes `object` if the set holds it.
    public func remove(_ object: Element) {
        guard let managed else {
            elements.removeAll { Self.same($0, object) }
            return
        }
        managed.remove(object)
    }

    /// Removes every element (objects stay in the realm).
    public func removeAll() {
        guard let managed else {
            elements.removeAll()
            return
        }
        managed.removeAll()
    }

    /// Adds every element of `other`.
    public func formUnion<S: Sequence>(_ other: S) where S.Element == Element {
        insert(objectsIn: other)
    }

    /// Keeps only the elements `other` holds too.
    public func formIntersection<S: Sequence>(_ other: S) where S.Element == Element {
        let kept = Array(other)
        for element in Array(self) where !kept.contains(where: { Self.same($0, element) }) { remove(element) }
    }

    /// Removes the elements `other` holds.
    public func subtract<S: Sequence>(_ other: S) where S.Element == Element {
        for element in other { remove(element) }
    }

    /// Whether the two hold an element in common.
    public func intersects<S: Sequence>(_ other: S) -> Bool where S.Element == Element {
        other.contains { contains($0) }
    }

    /// Whether `other` holds every element of this set.
    public func isSubset<S: Sequence>(of other: S) -> Bool where S.Element == Element {
        let candidates = Array(other)
        return allSatisfy { element in candidates.contains { Self.same($0, element) } }
    }

    /// Whether two elements are the same: the same stored object for objects (``==`` compares
    /// objects without a primary key as instances), the same value otherwise.
    static func same(_ lhs: Element, _ rhs: Element) -> Bool {
        if let left = lhs as? Object, let right = rhs as? Object { return left === right || left.isSameObject(as: right) }
        // A mixed value may hold an unmanaged object, which has no stored form yet.
        if let left = lhs as? AnyRealmValue, let right = rhs as? AnyRealmValue { return left == right }
        return lhs._persistedValue == rhs._persistedValue
    }

    var unmanagedElements: [any _Persistable] { managed == nil ? elements : [] }

    /// For two unmanaged sets, whether they hold the same elements in any order (RealmSwift
    /// compares unmanaged sets so); `nil` when either is managed.
    func unmanagedElementsEqual(_ other: MutableSet<Element>) -> Bool? {
        guard managed == nil && other.managed == nil else { return nil }
        return elements.count == other.elements.count && elements.allSatisfy { element in other.elements.contains { Self.same($0, element) } }
    }
}

extension MutableSet: _AdoptableCollection {
    func dropUnmanagedElements() { elements = [] }
    func becomeManaged(owner: ObjectBase, column: Int) {
        managed = ManagedSet(owner: owner, column: column, targetType: Element._linkedType)
    }
}

extension MutableSet: _Persistable {
    /// Implementation detail of `_Persistable`; do not use.
    public static var _storageKind: _StorageKind { Element._storageKind }
    // A custom type over an object is optional as a link, never as an element.
    /// Implementation detail of `_Persistable`; do not use.
    public static var _isOptional: Bool { Element._isOptional && !(Element.self is any _CustomPersistable.Type) }
    /// Implementation detail of `_Persistable`; do not use.
    public static var _defaultValue: MutableSet<Element> { MutableSet() }
    /// Implementation detail of `_Persistable`; do not use.
    public var _persistedValue: _PersistedValue { .null }
    /// Implementation detail of `_Persistable`; do not use.
    public static func _fromPersisted(_ value: _PersistedValue) -> MutableSet<Element> {
        burrowPreconditionFailure("A set is read through the object that holds it.")
    }
    /// Implementation detail of `_Persistable`; do not use.
    public static var _linkedType: ObjectBase.Type? { Element._linkedType }
    /// Implementation detail of `_Persistable`; do not use.
    public static var _collectionKind: _CollectionKind? { .set }

    /// Implementation detail of `_Persistable`; do not use.
    public static func _fromAny(_ value: Any) -> MutableSet<Element>? {
        if let set = value as? MutableSet<Element> { return set }
        guard let items = value as? [Any] else { return nil }
        let set = MutableSet<Element>()
        for item in items {
            guard let element = Element._fromAny(item) else { return nil }
            set.insert(element)
        }
        return set
    }

    /// Implementation detail of `_Persistable`; do not use.
    public static func _get(from object: ObjectBase, column: Int) -> MutableSet<Element> {
        object.managedCollection(column: column) { MutableSet(managed: ManagedSet(owner: object, column: column, targetType: Element._linkedType)) }
    }

    /// Implementation detail of `_Persistable`; do not use.
    public static func _set(_ value: MutableSet<Element>, on object: ObjectBase, column: Int) {
        let target = _get(from: object, column: column)
        let replacement = Array(value)
        target.removeAll()
        target.insert(objectsIn: replacement)
    }
}

extension MutableSet: _QueryableCollection {
    /// Implementation detail of `_QueryableCollection`; do not use.
    public var _results: Results<Element> {
        guard let managed else {
            burrowPreconditionFailure("Queries need a managed set: add the object that holds it to a realm first.")
        }
        return ResultsQuery.Source.set(managed).results(of: Element.self, from: managed)
    }

    /// Implementation detail of `_QueryableCollection`; do not use.
    public var _unmanagedElements: [Element]? { managed == nil ? Array(self) : nil }
}

extension MutableSet: KeyPathProbeCollection {
    func holdProbeElement(recordingInto recorder: KeyPathRecorder) {
        guard managed == nil, elements.isEmpty, let element = recorder.probeElement(of: Element.self) else { return }
        elements = [element]
    }
}
