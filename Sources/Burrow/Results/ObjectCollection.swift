/// Collections that share the string query API of ``Results``: ``List``, ``MutableSet``,
/// ``Map`` and ``LinkingObjects``. Each query is a live ``Results`` over the collection's
/// elements, in the collection's order (a map's values in key order; a map of objects without
/// its `nil` entries). In a collection of values, `self` names the element.
///
/// ```swift
/// person.dogs.filter("age < 2")
/// person.pets.sorted(byKeyPath: "name")   // a Map<String, Dog?>: Results<Dog?>
/// person.scores.filter("self > 5")        // a List<Int>: Results<Int>
/// ```
///
/// Implementation detail of Burrow: conformances and members of this protocol are for Burrow's use, not yours.
public protocol _QueryableCollection {
    associatedtype _ResultsElement: RealmCollectionValue
    /// The collection's elements as results; traps while unmanaged.
    var _results: Results<_ResultsElement> { get }
    /// The elements of an unmanaged collection, which aggregates read without a realm; `nil`
    /// once managed.
    var _unmanagedElements: [_ResultsElement]? { get }
}

extension _QueryableCollection {
    /// The objects that match `predicateFormat`, with `%@` and `%K` arguments.
    public func filter(_ predicateFormat: String, _ args: Any...) -> Results<_ResultsElement> {
        do {
            return _results.with(_results.query.adding(try QueryCache.parse(predicateFormat, arguments: args)))
        } catch {
            burrowPreconditionFailure(Realm.Error.message(of: error))
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
            burrowPreconditionFailure(Realm.Error.message(of: error))
        }
    }

    /// The position of the first object matching `predicate`, or `nil`.
    public func index(matching predicate: QueryPredicate) -> Int? {
        _results.index(matchingNode: predicate.parsed.node)
    }

    /// The smallest value of a property (`self` for values), ignoring `nil`.
    public func min<T: _HasPersistedType>(ofProperty property: String) -> T? where T.PersistedType: MinMaxType {
        guard let elements = _unmanagedElements else { return _results.min(ofProperty: property) }
        let (kind, values) = CollectionKeyValue.storedValues(of: property, in: elements)
        return ValueAggregates.extreme(values, kind: kind, of: property, "min", keepFirst: -1).map { ValueAggregates.convert($0, to: T.self) }
    }

    /// The largest value of a property (`self` for values), ignoring `nil`.
    public func max<T: _HasPersistedType>(ofProperty property: String) -> T? where T.PersistedType: MinMaxType {
        guard let elements = _unmanagedElements else { return _results.max(ofProperty: property) }
        let (kind, values) = CollectionKeyValue.storedValues(of: property, in: elements)
        return ValueAggregates.extreme(values, kind: kind, of: property, "max", keepFirst: 1).map { ValueAggregates.convert($0, to: T.self) }
    }

    /// The sum of a property (`self` for values), ignoring `nil`.
    public func sum<T: _HasPersistedType>(ofProperty property: String) -> T where T.PersistedType: AddableType {
        guard let elements = _unmanagedElements else { return _results.sum(ofProperty: property) }
        let (kind, values) = CollectionKeyValue.storedValues(of: property, in: elements)
        return ValueAggregates.convert(ValueAggregates.sum(values, kind: kind, of: property), to: T.self)
    }

    /// The mean of a property (`self` for values), ignoring `nil`.
    public func average<T: _HasPersistedType>(ofProperty property: String) -> T? where T.PersistedType: AddableType {
        guard let elements = _unmanagedElements else { return _results.average(ofProperty: property) }
        let (kind, values) = CollectionKeyValue.storedValues(of: property, in: elements)
        return ValueAggregates.average(values, kind: kind, of: property).map { ValueAggregates.convert($0, to: T.self) }
    }
}

extension List: _QueryableCollection {
    /// Implementation detail of `_QueryableCollection`; do not use.
    public var _results: Results<Element> {
        guard let managed = managed as? ManagedList else {
            burrowPreconditionFailure("Queries need a managed list: add the object that holds it to a realm first.")
        }
        return ResultsQuery.Source.list(managed).results(of: Element.self, from: managed)
    }

    /// Implementation detail of `_QueryableCollection`; do not use.
    public var _unmanagedElements: [Element]? { managed == nil ? Array(self) : nil }
}

extension LinkingObjects: _QueryableCollection where Element: Object {
    /// Implementation detail of `_QueryableCollection`; do not use.
    public var _results: Results<Element> {
        guard let owner, let management = owner.management else {
            burrowPreconditionFailure("Queries need managed linking objects: add the object that holds them to a realm first.")
        }
        let query = ResultsQuery(source: .linkingObjects(owner: owner, originProperty: originProperty))
        return Results(core: ResultsCore(realm: management.realm, info: management.realm.info(Element.self), query: query))
    }

    /// Unmanaged linking objects are empty.
    ///
    /// Implementation detail of Burrow; do not use.
    public var _unmanagedElements: [Element]? { owner?.management == nil ? [] : nil }
}
