/// The optional object types a `Map` of objects holds as values: `T?` for an `Object` `T`.
///
/// Implementation detail of Burrow: conformances and members of this protocol are for Burrow's use, not yours.
public protocol _OptionalObject: RealmCollectionValue {
    associatedtype _Wrapped: Object
}

extension Optional: _OptionalObject where Wrapped: Object {
    /// Implementation detail of `_OptionalObject`; do not use.
    public typealias _Wrapped = Wrapped
}

/// A map of objects shares the query API of ``Results``, over its non-`nil` values in key
/// order. As in RealmSwift, the results' elements are the map's `Value` (`Dog?`).
///
/// ```swift
/// let young = person.pets.filter("age < 2")            // Results<Dog?>
/// let named = person.pets.where { $0.name.starts(with: "R") }
/// let oldest: Int? = person.pets.max(ofProperty: "age")
/// ```
extension Map: _QueryableCollection {
    /// Implementation detail of `_QueryableCollection`; do not use.
    public var _results: Results<Value> {
        guard let managed = managed as? ManagedMap else {
            burrowPreconditionFailure("Queries need a managed map: add the object that holds it to a realm first.")
        }
        return ResultsQuery.Source.map(managed).results(of: Value.self, from: managed)
    }

    /// Implementation detail of `_QueryableCollection`; do not use.
    public var _unmanagedElements: [Value]? { managed == nil ? values : nil }
}

extension Map where Value: _OptionalObject {

    /// The objects that match a type-safe query.
    ///
    /// The closure is given a query on the map's values, `Value` (an optional object), as
    /// RealmSwift gives it.
    public func `where`(_ isIncluded: (Query<Value>) -> Query<Bool>) -> Results<Value> {
        _results.where(isIncluded)
    }

    /// The objects sorted by the property `keyPath` reads.
    public func sorted<V>(by keyPath: KeyPath<Value._Wrapped, V>, ascending: Bool = true) -> Results<Value> {
        _results.sorted(by: keyPath, ascending: ascending)
    }
}

extension Results where Element: _OptionalObject {
    /// The results that also match a type-safe query.
    ///
    /// ```swift
    /// person.pets.filter("age > 1").where { $0.name.starts(with: "R") }
    /// ```
    public func `where`(_ isIncluded: (Query<Element>) -> Query<Bool>) -> Results<Element> {
        with(core.query.filtered(by: isIncluded(Query<Element>(.root(core.info))).node))
    }

    /// The results sorted by the property `keyPath` reads.
    public func sorted<V>(by keyPath: KeyPath<Element._Wrapped, V>, ascending: Bool = true) -> Results<Element> {
        sorted(byKeyPath: core.info.propertyName(of: keyPath), ascending: ascending)
    }
}

extension Map where Value: _OptionalObject {
    /// The smallest value the key path reads in the map's objects, ignoring `nil`.
    ///
    /// ```swift
    /// let youngest = person.petsByName.min(of: \.age)
    /// ```
    public func min<T: _HasPersistedType>(of keyPath: KeyPath<Value._Wrapped, T>) -> T? where T.PersistedType: MinMaxType {
        min(ofProperty: _name(for: keyPath))
    }

    /// The largest value the key path reads in the map's objects, ignoring `nil`.
    public func max<T: _HasPersistedType>(of keyPath: KeyPath<Value._Wrapped, T>) -> T? where T.PersistedType: MinMaxType {
        max(ofProperty: _name(for: keyPath))
    }

    /// The sum of the values the key path reads in the map's objects, ignoring `nil`.
    public func sum<T: _HasPersistedType>(of keyPath: KeyPath<Value._Wrapped, T>) -> T where T.PersistedType: AddableType {
        sum(ofProperty: _name(for: keyPath))
    }

    /// The mean of the values the key path reads in the map's objects, ignoring `nil`.
    public func average<T: _HasPersistedType>(of keyPath: KeyPath<Value._Wrapped, T>) -> T? where T.PersistedType: AddableType {
        average(ofProperty: _name(for: keyPath))
    }
}
