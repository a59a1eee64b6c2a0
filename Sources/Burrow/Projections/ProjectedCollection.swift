import Dispatch

/// A list or set of objects seen as one value of each, as RealmSwift's `ProjectedCollection`:
/// the type of a `@Projected` property declared with `projectTo`.
///
/// ```swift
/// final class PersonView: Projection<Person> {
///     @Projected(\Person.dogs.projectTo.name) var dogNames: ProjectedCollection<String>
/// }
/// view.dogNames.first                        // the first dog's name, live
/// try realm.write { view.dogNames[0] = "Rex" }   // renames the first dog
/// ```
public struct ProjectedCollection<Element: RealmCollectionValue>: RandomAccessCollection, CustomStringConvertible, ThreadConfined {
    let source: any ProjectedSource
    let keyPath: AnyKeyPath
    /// The property path the key path reads in each object.
    let propertyName: String

    init(source: any ProjectedSource, keyPath: AnyKeyPath, propertyName: String) {
        self.source = source
        self.keyPath = keyPath
        self.propertyName = propertyName
    }

    private func with(_ source: any ProjectedSource) -> ProjectedCollection {
        ProjectedCollection(source: source, keyPath: keyPath, propertyName: propertyName)
    }

    /// Always 0.
    public var startIndex: Int { 0 }
    /// The number of objects.
    public var endIndex: Int { source.count }

    /// The value of the object at `position`; setting it writes the object's property (inside a
    /// write). Traps when out of range.
    public subscript(position: Int) -> Element {
        get {
            IndexBounds.check(position, count: source.count)
            return source.object(at: position)[keyPath: keyPath] as! Element
        }
        nonmutating set {
            IndexBounds.check(position, count: source.count)
            source.write(newValue, at: position, through: keyPath)
        }
    }

    /// The position of the first object whose value is `value`, or `nil`.
    public func index(of value: Element) -> Int? { firstIndex(of: value) }

    /// The realm of the objects.
    public var realm: Realm? { source.realm }
    /// Whether the collection's owner was deleted.
    public var isInvalidated: Bool { source.isInvalidated }
    /// Whether the collection is frozen.
    public var isFrozen: Bool { source.isFrozen }
    /// The collection frozen at its realm's current version.
    public func freeze() -> ProjectedCollection { with(source.frozen()) }
    /// The live collection in the calling thread's realm, or `nil` when its owner was deleted.
    public func thaw() -> ProjectedCollection? { source.thawed().map(with) }

    /// The values, one per line.
    public var description: String {
        "ProjectedCollection<\(Element.self)> {\n" + enumerated().map { "\t[\($0.offset)] \($0.element)\n" }.joined() + "}"
    }

    /// Calls `block` with the collection, then after each version that changed the objects it
    /// holds or their values, as the list or set it reads reports it.
    ///
    /// ```swift
    /// let token = view.dogNames.observe { change in
    ///     if case .update(let names, _, let insertions, _) = change { print(names.count, insertions) }
    /// }
    /// ```
    public func observe(keyPaths: [String]? = nil, on queue: DispatchQueue? = nil,
                        _ block: @escaping (RealmCollectionChange<ProjectedCollection>) -> Void) -> NotificationToken {
        source.observe(keyPaths: keyPaths, on: queue) { change in
            switch change {
            case .initial(let source): block(.initial(with(source)))
            case .update(let source, let deletions, let insertions, let modifications):
                block(.update(with(source), deletions: deletions, insertions: insertions, modifications: modifications))
            case .error(let error): block(.error(error))
            }
        }
    }
}

/// What `projectTo` gives: a property of the collection's objects names the
/// ``ProjectedCollection`` of its values.
///
/// ```swift
/// @Projected(\Person.dogs.projectTo.name) var dogNames: ProjectedCollection<String>
/// ```
@dynamicMemberLookup
public struct CollectionElementMapper<Element: ObjectBase & RealmCollectionValue> {
    let source: any ProjectedSource

    /// The values of `member` of the collection's objects: a stored property, or a value
    /// computed from them (which cannot be written).
    public subscript<V>(dynamicMember member: KeyPath<Element, V>) -> ProjectedCollection<V> {
        let name = ClassInfo.of(Element.self).persistedPropertyName(of: member)
        // A projection learning which properties its key paths read.
        if let name { KeyPathRecorder.active?.recordElements(of: Element.self, path: name.split(separator: ".").map(String.init)) }
        return ProjectedCollection(source: source, keyPath: member, propertyName: name ?? "")
    }
}

extension List where Element: ObjectBase {
    /// The list's objects seen through one of their properties: `\.dogs.projectTo.name`.
    public var projectTo: CollectionElementMapper<Element> {
        CollectionElementMapper(source: ProjectedCollectionSource(base: self))
    }
}

extension MutableSet where Element: ObjectBase {
    /// The set's objects seen through one of their properties: `\.dogs.projectTo.name`. The
    /// values may repeat.
    public var projectTo: CollectionElementMapper<Element> {
        CollectionElementMapper(source: ProjectedCollectionSource(base: self))
    }
}
