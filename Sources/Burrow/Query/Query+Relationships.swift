/// Gives `where { }` access to the objects behind links and in collections.
///
/// Implementation detail of Burrow: conformances and members of this protocol are for Burrow's use, not yours.
public protocol _QueryLinkable {
    /// The class whose properties the query reaches.
    associatedtype _LinkedObject: ObjectBase
}

extension Optional: _QueryLinkable where Wrapped: ObjectBase {
    /// Implementation detail of `_QueryLinkable`; do not use.
    public typealias _LinkedObject = Wrapped
}

extension List: _QueryLinkable where Element: ObjectBase {
    /// Implementation detail of `_QueryLinkable`; do not use.
    public typealias _LinkedObject = Element
}

extension MutableSet: _QueryLinkable where Element: ObjectBase {
    /// Implementation detail of `_QueryLinkable`; do not use.
    public typealias _LinkedObject = Element
}

extension LinkingObjects: _QueryLinkable {
    /// Implementation detail of `_QueryLinkable`; do not use.
    public typealias _LinkedObject = Element
}

extension Map: _QueryLinkable where Value: _OptionalObject {
    /// Implementation detail of `_QueryLinkable`; do not use.
    public typealias _LinkedObject = Value._Wrapped
}

/// Collections `where { }` can count and search.
///
/// Implementation detail of Burrow: conformances and members of this protocol are for Burrow's use, not yours.
public protocol _QueryCollection {
    /// The elements' type.
    associatedtype _QueryElement: _Persistable
}

extension List: _QueryCollection {
    /// Implementation detail of `_QueryCollection`; do not use.
    public typealias _QueryElement = Element
}

extension MutableSet: _QueryCollection {
    /// Implementation detail of `_QueryCollection`; do not use.
    public typealias _QueryElement = Element
}

extension Map: _QueryCollection {
    /// Implementation detail of `_QueryCollection`; do not use.
    public typealias _QueryElement = Value
}

extension Query where T: _QueryLinkable {
    /// A property of the linked object (or, for a list or set, of any of its objects).
    ///
    /// ```swift
    /// dogs.where { $0.owner.name == "Ann" }
    /// people.where { $0.dogs.age > 10 }          // any dog older than 10
    /// ```
    public subscript<V>(dynamicMember keyPath: KeyPath<T._LinkedObject, V>) -> Query<V> {
        let target = ClassInfo.of(T._LinkedObject.self)
        burrowPrecondition(keyPath is ReferenceWritableKeyPath<T._LinkedObject, V>,
                           "where { } on '\(target.className)' reads a property that is not @Persisted: \(keyPath).")
        let name = target.propertyName(of: keyPath)
        if case .mapValue(let map, let key, let rest, _) = expression {
            return Query<V>(.mapValue(map: map, key: key, rest: rest.map { $0 + "." + name } ?? name, owner: target))
        }
        return Query<V>(.keyPath(keyPathName + "." + name, owner: target))
    }
}

extension Query where T: _QueryCollection {
    /// The number of elements (`@count`).
    ///
    /// ```swift
    /// people.where { $0.dogs.count > 2 }
    /// ```
    public var count: Query<Int> {
        Query<Int>(.keyPath(keyPathName + ".@count", owner: owningClass))
    }

    /// Whether the collection holds `value` (`ANY collection == value`).
    public func contains(_ value: T._QueryElement) -> Query<Bool> {
        compare(.equal, queryArgument(value))
    }

    /// The class the key path starts from.
    private var owningClass: ClassInfo {
        guard case .keyPath(_, let owner) = expression else {
            burrowPreconditionFailure("A collection in where { } must be a property.")
        }
        return owner
    }
}
