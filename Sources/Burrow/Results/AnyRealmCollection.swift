import Foundation

/// Any ``RealmCollection`` of one element type: results, a list, a set or linking objects,
/// behind one type.
///
/// ```swift
/// let dogs: AnyRealmCollection<Dog> = useList ? AnyRealmCollection(person.dogs)
///                                             : AnyRealmCollection(realm.objects(Dog.self))
/// dogs.filter("age > 1").count
/// ```
///
/// It reads and queries the collection it wraps, live; two are equal when the collections
/// they wrap are.
public struct AnyRealmCollection<Element: RealmCollectionValue>: RealmCollection {
    private let box: AnyRealmCollectionBox<Element>

    /// Wraps `base`.
    public init<C: RealmCollection>(_ base: C) where C.Element == Element {
        box = RealmCollectionBox(base)
    }

    private init(box: AnyRealmCollectionBox<Element>) {
        self.box = box
    }

    /// Walks the wrapped collection; inside a write, the elements there when the walk began, so
    /// that a loop deleting what it walks meets every one, as the wrapped collection's own walk does.
    ///
    /// ```swift
    /// try realm.write { for dog in AnyRealmCollection(person.dogs) { realm.delete(dog) } }
    /// ```
    public func makeIterator() -> CollectionIterator<AnyRealmCollection<Element>> {
        CollectionIterator(self, snapshotting: realm?.isInWriteTransaction ?? false)
    }

    /// A frozen snapshot of the wrapped collection.
    public func freeze() -> AnyRealmCollection<Element> { AnyRealmCollection(box: box.freeze()) }

    /// The live wrapped collection, or `nil` when its owner was deleted.
    public func thaw() -> AnyRealmCollection<Element>? { box.thaw().map { AnyRealmCollection(box: $0) } }

    /// The wrapped collection read through `core`, or `nil` where it does not exist.
    func moved(to core: RealmCore) -> AnyRealmCollection<Element>? { box.moved(to: core).map { AnyRealmCollection(box: $0) } }

    /// Observes the wrapped collection; see ``Results/observe(keyPaths:on:_:)``.
    ///
    /// ```swift
    /// let token = AnyRealmCollection(person.dogs).observe { change in print(change) }
    /// ```
    public func observe(keyPaths: [String]? = nil, on queue: DispatchQueue? = nil,
                        _ block: @escaping (RealmCollectionChange<AnyRealmCollection<Element>>) -> Void) -> NotificationToken {
        box.observe(keyPaths: keyPaths, on: queue) { change in
            switch change {
            case .initial(let box): block(.initial(AnyRealmCollection(box: box)))
            case .update(let box, let deletions, let insertions, let modifications):
                block(.update(AnyRealmCollection(box: box), deletions: deletions, insertions: insertions, modifications: modifications))
            case .error(let error): block(.error(error))
            }
        }
    }

    /// The realm of the wrapped collection, or `nil` while unmanaged.
    public var realm: Realm? { box.realm }
    /// Whether the wrapped collection can no longer be read (its owner or realm is gone).
    public var isInvalidated: Bool { box.isInvalidated }
    /// Whether the wrapped collection is a frozen snapshot.
    public var isFrozen: Bool { box.isFrozen }
    /// Always 0.
    public var startIndex: Int { 0 }
    /// The number of elements: one past the last index.
    public var endIndex: Int { box.count }
    /// The number of elements.
    public var count: Int { box.count }
    /// The wrapped collection's description.
    public var description: String { box.description }

    /// The element at `position`; traps when out of bounds.
    public subscript(position: Int) -> Element { box.element(at: position) }

    /// The position of `object`, or `nil`.
    public func index(of object: Element) -> Int? { box.index(of: object) }

    /// The position of the first element matching a string query; a malformed one traps.
    public func index(matching predicateFormat: String, _ args: Any...) -> Int? {
        box.index(matching: Self.predicate(predicateFormat, args))
    }

    /// The position of the first element matching `predicate`, or `nil`.
    public func index(matching predicate: QueryPredicate) -> Int? { box.index(matching: predicate) }

    /// The elements matching a string query, live; a malformed one traps.
    public func filter(_ predicateFormat: String, _ args: Any...) -> Results<Element> {
        box.filter(Self.predicate(predicateFormat, args))
    }

    /// The elements matching `predicate`, live.
    public func filter(_ predicate: QueryPredicate) -> Results<Element> { box.filter(predicate) }

    /// The elements sorted by one property (`self` for values).
    public func sorted(byKeyPath keyPath: String, ascending: Bool = true) -> Results<Element> {
        box.sorted(by: [SortDescriptor(keyPath: keyPath, ascending: ascending)])
    }

    /// The elements sorted by several properties, the first deciding first.
    public func sorted<S: Sequence>(by sortDescriptors: S) -> Results<Element> where S.Element == SortDescriptor {
        box.sorted(by: Array(sortDescriptors))
    }

    /// The first element of each distinct combination of `keyPaths`.
    public func distinct<S: Sequence>(by keyPaths: S) -> Results<Element> where S.Element == String {
        box.distinct(by: Array(keyPaths))
    }

    /// The smallest value of `property`, ignoring `nil`; `nil` when there is none.
    public func min<T: _HasPersistedType>(ofProperty property: String) -> T? where T.PersistedType: MinMaxType {
        box.min(ofProperty: property)
    }

    /// The largest value of `property`, ignoring `nil`; `nil` when there is none.
    public func max<T: _HasPersistedType>(ofProperty property: String) -> T? where T.PersistedType: MinMaxType {
        box.max(ofProperty: property)
    }

    /// The sum of `property`, ignoring `nil`: zero when empty.
    public func sum<T: _HasPersistedType>(ofProperty property: String) -> T where T.PersistedType: AddableType {
        box.sum(ofProperty: property)
    }

    /// The mean of `property`, ignoring `nil`; `nil` when there is none.
    public func average<T: _HasPersistedType>(ofProperty property: String) -> T? where T.PersistedType: AddableType {
        box.average(ofProperty: property)
    }

    /// Whether both wrap equal collections.
    public static func == (lhs: AnyRealmCollection<Element>, rhs: AnyRealmCollection<Element>) -> Bool {
        lhs.box.isEqual(to: rhs.box)
    }

    /// A string query parsed where it is written: a malformed one traps, as `filter(_:)` does.
    private static func predicate(_ format: String, _ args: [Any]) -> QueryPredicate {
        do {
            return QueryPredicate(parsed: try QueryCache.parse(format, arguments: args))
        } catch {
            burrowPreconditionFailure(Realm.Error.message(of: error))
        }
    }
}

/// What ``AnyRealmCollection`` asks of the collection it wraps; ``RealmCollectionBox`` answers.
class AnyRealmCollectionBox<Element: RealmCollectionValue> {
    var realm: Realm? { fatalError("abstract") }
    var isInvalidated: Bool { fatalError("abstract") }
    var isFrozen: Bool { fatalError("abstract") }
    func freeze() -> AnyRealmCollectionBox<Element> { fatalError("abstract") }
    func thaw() -> AnyRealmCollectionBox<Element>? { fatalError("abstract") }
    func moved(to core: RealmCore) -> AnyRealmCollectionBox<Element>? { fatalError("abstract") }
    var count: Int { fatalError("abstract") }
    var description: String { fatalError("abstract") }
    func element(at position: Int) -> Element { fatalError("abstract") }
    func index(of object: Element) -> Int? { fatalError("abstract") }
    func index(matching predicate: QueryPredicate) -> Int? { fatalError("abstract") }
    func filter(_ predicate: QueryPredicate) -> Results<Element> { fatalError("abstract") }
    func sorted(by descriptors: [SortDescriptor]) -> Results<Element> { fatalError("abstract") }
    func distinct(by keyPaths: [String]) -> Results<Element> { fatalError("abstract") }
    func min<T: _HasPersistedType>(ofProperty property: String) -> T? where T.PersistedType: MinMaxType { fatalError("abstract") }
    func max<T: _HasPersistedType>(ofProperty property: String) -> T? where T.PersistedType: MinMaxType { fatalError("abstract") }
    func sum<T: _HasPersistedType>(ofProperty property: String) -> T where T.PersistedType: AddableType { fatalError("abstract") }
    func average<T: _HasPersistedType>(ofProperty property: String) -> T? where T.PersistedType: AddableType { fatalError("abstract") }
    func isEqual(to other: AnyRealmCollectionBox<Element>) -> Bool { fatalError("abstract") }
    func observe(keyPaths: [String]?, on queue: DispatchQueue?,
                 _ block: @escaping (RealmCollectionChange<AnyRealmCollectionBox<Element>>) -> Void) -> NotificationToken { fatalError("abstract") }
}

/// Forwards every call to one concrete collection.
final class RealmCollectionBox<Base: RealmCollection>: AnyRealmCollectionBox<Base.Element> {
    let base: Base

    init(_ base: Base) {
        self.base = base
    }

    override var realm: Realm? { base.realm }
    override var isInvalidated: Bool { base.isInvalidated }
    override var isFrozen: Bool { base.isFrozen }
    override func freeze() -> AnyRealmCollectionBox<Base.Element> { RealmCollectionBox(base.freeze()) }
    override func thaw() -> AnyRealmCollectionBox<Base.Element>? { base.thaw().map { RealmCollectionBox($0) } }
    override func moved(to core: RealmCore) -> AnyRealmCollectionBox<Base.Element>? {
        guard let bound = base as? any RealmBound else { return nil }
        return (bound.moved(to: core) as? Base).map { RealmCollectionBox($0) }
    }
    override var count: Int { base.count }
    override var description: String { base.description }
    override func element(at position: Int) -> Base.Element { base[position] }
    override func index(of object: Base.Element) -> Int? { base.index(of: object) }
    override func index(matching predicate: QueryPredicate) -> Int? { base.index(matching: predicate) }
    override func filter(_ predicate: QueryPredicate) -> Results<Base.Element> { base.filter(predicate) }
    override func sorted(by descriptors: [SortDescriptor]) -> Results<Base.Element> { base.sorted(by: descriptors) }
    override func distinct(by keyPaths: [String]) -> Results<Base.Element> { base.distinct(by: keyPaths) }
    override func observe(keyPaths: [String]?, on queue: DispatchQueue?,
                          _ block: @escaping (RealmCollectionChange<AnyRealmCollectionBox<Base.Element>>) -> Void) -> NotificationToken {
        base.observe(keyPaths: keyPaths, on: queue) { change in
            switch change {
            case .initial(let collection): block(.initial(RealmCollectionBox(collection)))
            case .update(let collection, let deletions, let insertions, let modifications):
                block(.update(RealmCollectionBox(collection), deletions: deletions, insertions: insertions, modifications: modifications))
            case .error(let error): block(.error(error))
            }
        }
    }

    override func min<T: _HasPersistedType>(ofProperty property: String) -> T? where T.PersistedType: MinMaxType {
        base.min(ofProperty: property)
    }

    override func max<T: _HasPersistedType>(ofProperty property: String) -> T? where T.PersistedType: MinMaxType {
        base.max(ofProperty: property)
    }

    override func sum<T: _HasPersistedType>(ofProperty property: String) -> T where T.PersistedType: AddableType {
        base.sum(ofProperty: property)
    }

    override func average<T: _HasPersistedType>(ofProperty property: String) -> T? where T.PersistedType: AddableType {
        base.average(ofProperty: property)
    }

    override func isEqual(to other: AnyRealmCollectionBox<Base.Element>) -> Bool {
        guard let other = other as? RealmCollectionBox<Base> else { return false }
        return base == other.base
    }
}

extension AnyRealmCollection: RealmBound {
    var boundRealm: RealmCore? { realm?.core }
}
