/// Collections of objects that share the string query API of ``Results``: ``List``,
/// ``MutableSet`` and ``Map`` of objects, and ``LinkingObjects``. Each query is a live
/// ``Results`` over the collection's objects, in the collection's order (a map's in key order,
/// without its `nil` entries).
///
/// ```swift
/// person.dogs.filter("age < 2")
/// person.pets.sorted(byKeyPath: "name")   // a Map<String, Dog?>: Results<Dog?>
/// ```
public protocol _QueryableCollection {
    associatedtype _ResultsElement: RealmCollectionValue
    /// The collection's objects as results.
    var _results: Results<_ResultsElement> { get }
}

/// Collections whose elements are objects, which add the type-safe query API.
///
/// ```swift
/// person.dogs.where { $0.name.starts(with: "R") }.sorted(byKeyPath: "age")
/// person.dogs.sum(of: \.age)
/// ```
public protocol _ObjectCollection: _QueryableCollection where _ResultsElement: Object {}

extension _QueryableCollection {
    /// The objects that match `predicateFormat`, with `%@` and `%K` arguments.
    public func filter(_ predicateFormat: String, _ args: Any...) -> Results<_ResultsElement> {
        do {
            return _results.with(_results.core.query.adding(try QueryCache.parse(predicateFormat, arguments: args)))
        } catch {
            preconditionFailure(Realm.Error.message(of: error))
        }
    }

    /// The objects that match `predicate`.
    public func filter(_ predicate: QueryPredicate) -> Results<_ResultsElement> { _results.filter(predicate) }

    /// The objects sorted by one property.
    public func sorted(byKeyPath keyPath: String, ascending: Bool = true) -> Results<_ResultsElement> {
        _results.sorted(byKeyPath: keyPath, ascending: ascending)
    }

    /// The objects sorted by several properties.
    public func sorted<S: Sequence>(by sortDescriptors: S) -> Results<_ResultsElement> where S.Element == SortDescriptor {
        _results.sorted(by: sortDescriptors)
    }

    /// One object for each combination of values of `keyPaths`.
    public func distinct<S: Sequence>(by keyPaths: S) -> Results<_ResultsElement> where S.Element == String {
        _results.distinct(by: keyPaths)
    }

    /// The position of the first object matching `predicateFormat`, or `nil`.
    public func index(matching predicateFormat: String, _ args: Any...) -> Int? {
        do {
            return _results.index(matchingNode: try QueryCache.parse(predicateFormat, arguments: args).node)
        } catch {
            preconditionFailure(Realm.Error.message(of: error))
        }
    }

    /// The smallest value of a property, ignoring `nil`.
    public func min<T: _Persistable>(ofProperty property: String) -> T? where T.PersistedType: MinMaxType { _results.min(ofProperty: property) }
    /// The largest value of a property, ignoring `nil`.
    public func max<T: _Persistable>(ofProperty property: String) -> T? where T.PersistedType: MinMaxType { _results.max(ofProperty: property) }
    /// The sum of a property, ignoring `nil`.
    public func sum<T: _Persistable>(ofProperty property: String) -> T where T.PersistedType: AddableType { _results.sum(ofProperty: property) }
    /// The mean of a property, ignoring `nil`.
    public func average<T: _Persistable>(ofProperty property: String) -> T? where T.PersistedType: AddableType { _results.average(ofProperty: property) }
}

extension _ObjectCollection {
    /// The objects that match a type-safe query.
    public func `where`(_ isIncluded: (Query<_ResultsElement>) -> Query<Bool>) -> Results<_ResultsElement> {
        _results.where(isIncluded)
    }

    /// The objects sorted by the property `keyPath` reads.
    public func sorted<Value>(by keyPath: KeyPath<_ResultsElement, Value>, ascending: Bool = true) -> Results<_ResultsElement> {
        _results.sorted(by: keyPath, ascending: ascending)
    }

    /// The smallest value the key path reads, ignoring `nil`.
    public func min<T: _Persistable>(of keyPath: KeyPath<_ResultsElement, T>) -> T? where T.PersistedType: MinMaxType { _results.min(of: keyPath) }
    /// The largest value the key path reads, ignoring `nil`.
    public func max<T: _Persistable>(of keyPath: KeyPath<_ResultsElement, T>) -> T? where T.PersistedType: MinMaxType { _results.max(of: keyPath) }
    /// The sum of the values the key path reads, ignoring `nil`.
    public func sum<T: _Persistable>(of keyPath: KeyPath<_ResultsElement, T>) -> T where T.PersistedType: AddableType { _results.sum(of: keyPath) }
    /// The mean of the values the key path reads, ignoring `nil`.
    public func average<T: _Persistable>(of keyPath: KeyPath<_ResultsElement, T>) -> T? where T.PersistedType: AddableType { _results.average(of: keyPath) }
}

extension List: _QueryableCollection, _ObjectCollection where Element: Object {
    public var _results: Results<Element> {
        guard let managed = managed as? ManagedList else {
            preconditionFailure("Queries need a managed list: add the object that holds it to a realm first.")
        }
        let query = ResultsQuery(source: .list(managed))
        return Results(core: ResultsCore(realm: managed.realm, info: managed.realm.info(Element.self), query: query))
    }
}

extension LinkingObjects: _QueryableCollection, _ObjectCollection where Element: Object {
    public var _results: Results<Element> {
        guard let owner, let management = owner.management else {
            preconditionFailure("Queries need managed linking objects: add the object that holds them to a realm first.")
        }
        let query = ResultsQuery(source: .linkingObjects(owner: owner, originProperty: originProperty))
        return Results(core: ResultsCore(realm: management.realm, info: management.realm.info(Element.self), query: query))
    }
}

extension List where Element: AdditiveArithmetic {
    /// The sum of the elements.
    public func sum() -> Element { reduce(.zero, +) }
}

extension List where Element: BinaryInteger {
    /// The mean of the elements, or `nil` when empty.
    public func average() -> Double? { isEmpty ? nil : Double(sum()) / Double(count) }
}

extension List where Element: BinaryFloatingPoint {
    /// The mean of the elements, or `nil` when empty.
    public func average() -> Double? { isEmpty ? nil : Double(sum()) / Double(count) }
}
