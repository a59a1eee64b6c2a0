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

extension Map: _QueryLinkable where Value: _OptionalObject {
    /// Implementation detail of `_QueryLinkable`; do not use.
    public typealias _LinkedObject = Value._Wrapped
}

extension Query where T: _QueryLinkable {
    /// A property of the linked object (or, for a map of objects, of any of its objects).
    ///
    /// ```swift
    /// dogs.where { $0.owner.name == "Ann" }
    /// ```
    public subscript<V>(dynamicMember keyPath: KeyPath<T._LinkedObject, V>) -> Query<V> {
        linkedProperty(keyPath)
    }
}

extension Query {
    /// The property `keyPath` reads on the objects this expression links to.
    func linkedProperty<Linked: ObjectBase, V>(_ keyPath: KeyPath<Linked, V>) -> Query<V> {
        let target = ClassInfo.of(Linked.self)
        burrowPrecondition(keyPath is ReferenceWritableKeyPath<Linked, V>,
                           "where { } on '\(target.className)' reads a property that is not @Persisted: \(keyPath).")
        let name = target.propertyName(of: keyPath)
        let spell = { (spelling: QuerySpelling) in spelling.appending(name, requiresAny: spelling.requiresAny || isCollection(V.self)) }
        // The optional objects of a map's results, queried as themselves.
        if case .root = expression { return spelled(Query<V>(.keyPath(name, owner: target)), spell) }
        if case .mapValue(let map, let key, let rest, _) = expression {
            return spelled(Query<V>(.mapValue(map: map, key: key, rest: rest.map { $0 + "." + name } ?? name, owner: target)), spell)
        }
        return spelled(Query<V>(.keyPath(keyPathName + "." + name, owner: target)), spell)
    }
}
