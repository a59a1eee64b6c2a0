import Foundation

/// What ``Results``, ``List``, ``MutableSet`` and ``LinkingObjects`` share, as in RealmSwift:
/// generic code written against it works on any of them, and ``AnyRealmCollection`` erases
/// which one it is.
///
/// ```swift
/// func names<C: RealmCollection>(_ dogs: C) -> [String] where C.Element == Dog {
///     dogs.sorted(byKeyPath: "name").map(\.name)
/// }
/// names(realm.objects(Dog.self))
/// names(person.dogs)
/// ```
///
/// Queries, sorts and aggregates of a collection of values name its elements `self`
/// (`scores.filter("self > 5")`). Queries need a managed collection: on an unmanaged list or
/// set they trap, as RealmSwift's do; aggregates work on both.
public protocol RealmCollection: RandomAccessCollection, CustomStringConvertible, Equatable, ThreadConfined
where Element: RealmCollectionValue, Index == Int {
    /// The realm of the collection, or `nil` while unmanaged.
    var realm: Realm? { get }
    /// Whether the collection's owner was deleted (results of a class never are).
    var isInvalidated: Bool { get }
    /// Whether the collection is a frozen snapshot.
    var isFrozen: Bool { get }
    /// A frozen snapshot of the collection: it never changes, any thread may read and query
    /// it, and modifying it traps. Traps while unmanaged.
    func freeze() -> Self
    /// The live collection in the calling thread's realm at the latest version (itself when
    /// live), or `nil` when its owner was deleted.
    func thaw() -> Self?

    /// The position of `object`, or `nil` (the same stored object, for objects).
    func index(of object: Element) -> Int?
    /// The position of the first element matching `predicateFormat`, or `nil`.
    func index(matching predicateFormat: String, _ args: Any...) -> Int?
    /// The position of the first element matching `predicate`, or `nil`.
    func index(matching predicate: QueryPredicate) -> Int?
    /// The elements at `indexes`, in order; traps on an index out of bounds.
    func objects(at indexes: IndexSet) -> [Element]

    /// The elements matching `predicateFormat`, with `%@` and `%K` arguments.
    func filter(_ predicateFormat: String, _ args: Any...) -> Results<Element>
    /// The elements matching `predicate`.
    func filter(_ predicate: QueryPredicate) -> Results<Element>
    /// The elements sorted by one property (`self` for values).
    func sorted(byKeyPath keyPath: String, ascending: Bool) -> Results<Element>
    /// The elements sorted by several properties, the first deciding first.
    func sorted<S: Sequence>(by sortDescriptors: S) -> Results<Element> where S.Element == SortDescriptor
    /// One element for each combination of values of `keyPaths`.
    func distinct<S: Sequence>(by keyPaths: S) -> Results<Element> where S.Element == String

    /// The smallest value of a property, ignoring `nil`.
    func min<T: _HasPersistedType>(ofProperty property: String) -> T? where T.PersistedType: MinMaxType
    /// The largest value of a property, ignoring `nil`.
    func max<T: _HasPersistedType>(ofProperty property: String) -> T? where T.PersistedType: MinMaxType
    /// The sum of a property, ignoring `nil`.
    func sum<T: _HasPersistedType>(ofProperty property: String) -> T where T.PersistedType: AddableType
    /// The mean of a property, ignoring `nil`.
    func average<T: _HasPersistedType>(ofProperty property: String) -> T? where T.PersistedType: AddableType

    /// The value of property `key` of every element, as an array (`self`: the elements).
    func value(forKey key: String) -> Any?
    /// The value of a key path of every element: `name`, `owner.name`, or a collection
    /// operator (`@count`, `@min.age`, `@max.age`, `@sum.age`, `@avg.age`, and
    /// `@unionOfObjects.name` / `@distinctUnionOfObjects.name`, the values that are not `nil`).
    func value(forKeyPath keyPath: String) -> Any?
    /// Sets property `key` of every element to `value`, inside a write.
    func setValue(_ value: Any?, forKey key: String)
    /// Calls `block` with the collection's initial state, then after each version that changed
    /// it (see ``Results/observe(keyPaths:on:_:)``).
    func observe(keyPaths: [String]?, on queue: DispatchQueue?,
                 _ block: @escaping (RealmCollectionChange<Self>) -> Void) -> NotificationToken
}

extension RealmCollection {
    /// Calls `block` with the collection's initial state, then after each version that changed
    /// it: ``observe(keyPaths:on:_:)`` with its defaults, for code generic over collections.
    ///
    /// ```swift
    /// func watch<C: RealmCollection>(_ collection: C) -> NotificationToken {
    ///     collection.observe { change in print(change) }
    /// }
    /// ```
    public func observe(keyPaths: [String]? = nil, on queue: DispatchQueue? = nil,
                        _ block: @escaping (RealmCollectionChange<Self>) -> Void) -> NotificationToken {
        observe(keyPaths: keyPaths, on: queue, block)
    }

    /// The elements sorted by one property (`self` for values), ascending unless told.
    public func sorted(byKeyPath keyPath: String) -> Results<Element> {
        sorted(byKeyPath: keyPath, ascending: true)
    }

    public func objects(at indexes: IndexSet) -> [Element] {
        guard let last = indexes.last else { return [] }
        burrowPrecondition(last < count, "Indexes for collection are out of bounds.")
        return indexes.map { self[$0] }
    }

    public func value(forKey key: String) -> Any? {
        value(forKeyPath: key)
    }

    public func value(forKeyPath keyPath: String) -> Any? {
        let value = CollectionKeyValue.value(forKeyPath: keyPath, of: Array(self))
        // A set's values make a set, as RealmSwift's make an `NSSet`.
        guard self is any KeyValueSet, let values = value as? [Any?] else { return value }
        var distinct = Set<AnyHashable>()
        for value in values {
            guard let hashable = (value ?? NSNull()) as? AnyHashable else { return values }
            distinct.insert(hashable)
        }
        return distinct
    }

    public func setValue(_ value: Any?, forKey key: String) {
        CollectionKeyValue.setValue(value, forKey: key, on: Array(self))
    }

    /// `Name<Element> <0x…> (` then each element on its own line, then `)`, as RealmSwift
    /// describes collections.
    public var description: String {
        let name = "\(Self.self)".prefix { $0 != "<" }
        let identity: AnyObject = switch self {
        case let results as Results<Element>: results.descriptionIdentity
        default: self as AnyObject
        }
        return DescriptionText.collection(map { $0 }, named: "\(name)<\(DescriptionText.typeName(Element.self))>", identity: identity)
    }
}

extension RealmCollection where Element: Object {
    /// The elements matching a type-safe query.
    ///
    /// ```swift
    /// person.dogs.where { $0.age > 1 }
    /// ```
    public func `where`(_ isIncluded: (Query<Element>) -> Query<Bool>) -> Results<Element> {
        filter(QueryPredicate(node: isIncluded(Query<Element>(.root(ClassInfo.of(Element.self)))).node))
    }

    /// The position of the first element matching a type-safe query, or `nil`.
    public func index(matching isIncluded: (Query<Element>) -> Query<Bool>) -> Int? {
        index(matching: QueryPredicate(node: isIncluded(Query<Element>(.root(ClassInfo.of(Element.self)))).node))
    }

    /// The elements sorted by the property `keyPath` reads.
    ///
    /// ```swift
    /// dogs.sorted(by: \.age, ascending: false)
    /// ```
    public func sorted<Value>(by keyPath: KeyPath<Element, Value>, ascending: Bool = true) -> Results<Element> {
        sorted(byKeyPath: _name(for: keyPath), ascending: ascending)
    }

    /// One element for each combination of the values `keyPaths` read.
    public func distinct(by keyPaths: [PartialKeyPath<Element>]) -> Results<Element> {
        distinct(by: keyPaths.map { _name(for: $0) })
    }

    /// The smallest value the key path reads, ignoring `nil`.
    ///
    /// ```swift
    /// let youngest = dogs.min(of: \.age)
    /// ```
    public func min<T: _HasPersistedType>(of keyPath: KeyPath<Element, T>) -> T? where T.PersistedType: MinMaxType {
        min(ofProperty: _name(for: keyPath))
    }

    /// The largest value the key path reads, ignoring `nil`.
    public func max<T: _HasPersistedType>(of keyPath: KeyPath<Element, T>) -> T? where T.PersistedType: MinMaxType {
        max(ofProperty: _name(for: keyPath))
    }

    /// The sum of the values the key path reads, ignoring `nil`.
    public func sum<T: _HasPersistedType>(of keyPath: KeyPath<Element, T>) -> T where T.PersistedType: AddableType {
        sum(ofProperty: _name(for: keyPath))
    }

    /// The mean of the values the key path reads, ignoring `nil`.
    public func average<T: _HasPersistedType>(of keyPath: KeyPath<Element, T>) -> T? where T.PersistedType: AddableType {
        average(ofProperty: _name(for: keyPath))
    }
}

extension RealmCollection where Element.PersistedType: MinMaxType {
    /// The smallest element, ignoring `nil`.
    ///
    /// ```swift
    /// person.scores.min()
    /// ```
    public func min() -> Element? {
        ValueAggregates.extreme(map(\._persistedValue), kind: Element._storageKind, of: "\(Self.self)", "min", keepFirst: -1)
            .map { ValueAggregates.convert($0, to: Element.self) }
    }

    /// The largest element, ignoring `nil`.
    public func max() -> Element? {
        ValueAggregates.extreme(map(\._persistedValue), kind: Element._storageKind, of: "\(Self.self)", "max", keepFirst: 1)
            .map { ValueAggregates.convert($0, to: Element.self) }
    }
}

extension RealmCollection where Element.PersistedType: AddableType {
    /// The sum of the elements, ignoring `nil`; zero when empty (for `AnyRealmValue`s, the
    /// integer 0 in an unmanaged collection and a double 0 in a managed one, as in RealmSwift).
    public func sum() -> Element {
        let sum = ValueAggregates.sum(map(\._persistedValue), kind: Element._storageKind, of: "\(Self.self)",
                                      emptyMixed: realm == nil ? .int(0) : nil)
        return ValueAggregates.convert(sum, to: Element.self)
    }

    /// The mean of the elements, ignoring `nil`; `nil` when there is none.
    ///
    /// ```swift
    /// let mean: Double? = person.scores.average()
    /// ```
    public func average<T: _Persistable>() -> T? where T.PersistedType: AddableType {
        ValueAggregates.average(map(\._persistedValue), kind: Element._storageKind, of: "\(Self.self)")
            .map { ValueAggregates.convert($0, to: T.self) }
    }
}

extension RealmCollection where Element.PersistedType: SortableType {
    /// The elements sorted by their own value.
    public func sorted(ascending: Bool = true) -> Results<Element> {
        sorted(byKeyPath: "self", ascending: ascending)
    }

    /// The elements without repeats, each at its first place.
    public func distinct() -> Results<Element> {
        distinct(by: ["self"])
    }
}

extension RealmCollection where Element: ObjectBase {
    /// ``observe(keyPaths:on:_:)`` with typed key paths of the elements (`[\.age]`), as
    /// RealmSwift accepts them.
    ///
    /// ```swift
    /// let token = realm.objects(Dog.self).observe(keyPaths: [\.age, \.owner?.name]) { change in print(change) }
    /// ```
    public func observe(keyPaths: [PartialKeyPath<Element>], on queue: DispatchQueue? = nil,
                        _ block: @escaping (RealmCollectionChange<Self>) -> Void) -> NotificationToken {
        observe(keyPaths: keyPaths.map(_name(for:)), on: queue, block)
    }
}
