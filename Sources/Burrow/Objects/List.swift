/// An ordered collection property of objects or of values.
///
/// ```swift
/// final class Person: Object {
///     @Persisted var dogs: List<Dog>
///     @Persisted var nicknames: List<String>
/// }
/// try realm.write {
///     person.dogs.append(rex)              // an unmanaged Rex is added to the realm
///     person.nicknames.insert("JJ", at: 0)
///     person.dogs.move(from: 0, to: 1)
/// }
/// ```
///
/// An unmanaged list is a plain array. Once its owner is managed, the property reads and
/// writes the realm: appending to a list of any length is one B-tree insert, and a list is
/// read in O(length) once per version, then each element in O(1). Deleting an object removes
/// it from every list; deleting the owner removes its lists. Out-of-range indexes trap.
public final class List<Element: RealmCollectionValue>: RandomAccessCollection, _UnmanagedCollection {
    private var elements: [Element] = []
    private(set) var managed: (any ListStorage)?

    /// An empty, unmanaged list.
    public init() {
        managed = nil
    }

    init(managed: any ListStorage) {
        self.managed = managed
    }

    /// The realm managing the list's owner, or `nil` while unmanaged.
    public var realm: Realm? { managed.map { Realm(core: $0.realm) } }

    /// Whether the owner was deleted.
    public var isInvalidated: Bool { managed?.isInvalidated ?? false }

    /// Always 0.
    public var startIndex: Int { 0 }

    /// The number of elements.
    public var endIndex: Int { count }

    /// The number of elements.
    public var count: Int { managed?.count ?? elements.count }

    /// Walks the elements; inside a write transaction, and while unmanaged, those the list held
    /// when the walk began.
    public func makeIterator() -> CollectionIterator<List<Element>> {
        guard let managed else { return CollectionIterator(self, elements: elements) }
        return CollectionIterator(self, snapshotting: managed.realm.writeState != nil)
    }

    /// The element at `position`; setting it replaces the element (inside a write when managed).
    public subscript(position: Int) -> Element {
        get {
            guard let managed else {
                IndexBounds.check(position, count: elements.count)
                return elements[position]
            }
            return managed.element(at: position, as: Element.self)
        }
        set {
            guard let managed else {
                IndexBounds.check(position, count: elements.count)
                elements[position] = newValue
                return
            }
            managed.set(newValue, at: position)
        }
    }

    /// Appends `object` (inside a write when managed).
    public func append(_ object: Element) {
        guard let managed else {
            elements.append(object)
            return
        }
        managed.append(object)
    }

    /// Appends every element of `objects`.
    ///
    /// ```swift
    /// try realm.write { person.dogs.append(objectsIn: [rex, fido]) }
    /// ```
    public func append<S: Sequence>(objectsIn objects: S) where S.Element == Element {
        for object in objects { append(object) }
    }

    /// Appends every element of `objects`; the same as ``append(objectsIn:)``.
    public func append<S: Sequence>(contentsOf objects: S) where S.Element == Element {
        append(objectsIn: objects)
    }

    /// Inserts `object` before the element at `index`; `index` may be `count`.
    public func insert(_ object: Element, at index: Int) {
        guard let managed else {
            IndexBounds.check(index, count: elements.count, endAllowed: true)
            elements.insert(object, at: index)
            return
        }
        managed.insert(object, at: index)
    }

    /// Removes the element at `index`.
    public func remove(at index: Int) {
        guard let managed else {
            IndexBounds.check(index, count: elements.count)
            elements.remove(at: index)
            return
        }
        managed.remove(at: index)
    }

    /// Removes the first element; traps when empty.
    public func removeFirst() {
        burrowPrecondition(!isEmpty, "Cannot remove the first element of an empty list.")
        remove(at: 0)
    }

    /// Removes the last element; traps when empty.
    public func removeLast() {
        burrowPrecondition(!isEmpty, "Cannot remove the last element of an empty list.")
        remove(at: count - 1)
    }

    /// Removes every element (objects stay in the realm).
    public func removeAll() {
        guard let managed else {
            elements.removeAll()
            return
        }
        managed.removeAll()
    }

    /// Moves the element at `from` so that it ends at `to`.
    public func move(from: Int, to: Int) {
        guard let managed else {
            IndexBounds.check(from, count: elements.count, name: "from")
            IndexBounds.check(to, count: elements.count, name: "to")
            elements.insert(elements.remove(at: from), at: to)
            return
        }
        managed.move(from: from, to: to)
    }

    /// Swaps the elements at the two indexes.
    public func swapAt(_ index1: Int, _ index2: Int) {
        guard let managed else {
            IndexBounds.check(index1, count: elements.count, name: "index1")
            IndexBounds.check(index2, count: elements.count, name: "index2")
            elements.swapAt(index1, index2)
            return
        }
        managed.swapAt(index1, index2)
    }

    /// Replaces the element at `index` with `object`.
    public func replace(index: Int, object: Element) {
        self[index] = object
    }

    /// The position of the first element equal to `object` (the same stored object, for a list
    /// of objects), or `nil`.
    public func index(of object: Element) -> Int? {
        if let target = object as? Object {
            return indices.first { (self[$0] as? Object)?.isSameObject(as: target) == true }
        }
        if let target = object as? AnyRealmValue {
            // Compared as values: an unmanaged object or a nested collection has no stored form.
            return indices.first { self[$0] as? AnyRealmValue == target }
        }
        let wanted = object._persistedValue
        return indices.first { self[$0]._persistedValue == wanted }
    }

    var unmanagedElements: [any _Persistable] { managed == nil ? elements : [] }
}

extension List: _AdoptableCollection {
    func dropUnmanagedElements() { elements = [] }
    func becomeManaged(owner: ObjectBase, column: Int) {
        managed = ManagedList(owner: owner, column: column, targetType: Element._linkedType)
    }
}

/// A collection that can become its new owner's managed one when its owner is added.
protocol _AdoptableCollection: AnyObject {
    /// Lets go of the unmanaged elements, which the realm stores now.
    func dropUnmanagedElements()
    /// Reads and writes `owner`'s property in `column` from now on.
    func becomeManaged(owner: ObjectBase, column: Int)
}

extension _AdoptableCollection {
    /// Makes the collection at `value` `owner`'s managed one for `column` when something
    /// besides that field holds it; otherwise only empties it.
    static func adoptIfShared(at value: UnsafeMutableRawPointer, owner: ObjectBase, column: Int) {
        let pointer = value.assumingMemoryBound(to: Self.self)
        let isShared = !isKnownUniquelyReferenced(&pointer.pointee)
        let collection = pointer.pointee
        collection.dropUnmanagedElements()
        guard isShared else { return }
        collection.becomeManaged(owner: owner, column: column)
        owner.adoptCollection(collection, column: column)
    }
}

/// A collection whose unmanaged elements are copied into the realm with its owner.
protocol _UnmanagedCollection {
    var unmanagedElements: [any _Persistable] { get }
}

extension List: _Persistable {
    /// Implementation detail of `_Persistable`; do not use.
    public static var _storageKind: _StorageKind { Element._storageKind }
    // A custom type over an object is optional as a link, never as an element.
    /// Implementation detail of `_Persistable`; do not use.
    public static var _isOptional: Bool { Element._isOptional && !(Element.self is any _CustomPersistable.Type) }
    /// Implementation detail of `_Persistable`; do not use.
    public static var _defaultValue: List<Element> { List() }
    /// Implementation detail of `_Persistable`; do not use.
    public var _persistedValue: _PersistedValue { .null }
    /// Implementation detail of `_Persistable`; do not use.
    public static func _fromPersisted(_ value: _PersistedValue) -> List<Element> {
        burrowPreconditionFailure("A list is read through the object that holds it.")
    }
    /// Implementation detail of `_Persistable`; do not use.
    public static var _linkedType: ObjectBase.Type? { Element._linkedType }
    /// Implementation detail of `_Persistable`; do not use.
    public static var _collectionKind: _CollectionKind? { .list }

    /// Implementation detail of `_Persistable`; do not use.
    public static func _fromAny(_ value: Any) -> List<Element>? {
        if let list = value as? List<Element> { return list }
        guard let items = value as? [Any] else { return nil }
        let list = List<Element>()
        for item in items {
            guard let element = Element._fromAny(item) else { return nil }
            list.elements.append(element)
        }
        return list
    }

    /// Implementation detail of `_Persistable`; do not use.
    public static func _get(from object: ObjectBase, column: Int) -> List<Element> {
        object.managedCollection(column: column) { List(managed: ManagedList(owner: object, column: column, targetType: Element._linkedType)) }
    }

    /// Implementation detail of `_Persistable`; do not use.
    public static func _set(_ value: List<Element>, on object: ObjectBase, column: Int) {
        let target = _get(from: object, column: column)
        let replacement = Array(value)
        target.removeAll()
        target.append(contentsOf: replacement)
    }
}

extension List {
    /// For two unmanaged lists, whether they hold equal elements in the same order (RealmSwift
    /// compares unmanaged lists so); `nil` when either is managed.
    func unmanagedElementsEqual(_ other: List<Element>) -> Bool? {
        managed == nil && other.managed == nil ? elements == other.elements : nil
    }
}

extension List: KeyPathProbeCollection {
    func holdProbeElement(recordingInto recorder: KeyPathRecorder) {
        guard managed == nil, elements.isEmpty, let element = recorder.probeElement(of: Element.self) else { return }
        elements = [element]
    }
}
