import Dispatch

/// The list or set of objects a ``ProjectedCollection`` reads, with its element type erased.
protocol ProjectedSource {
    var count: Int { get }
    func object(at position: Int) -> ObjectBase
    func write<V>(_ value: V, at position: Int, through keyPath: AnyKeyPath)
    var realm: Realm? { get }
    var isInvalidated: Bool { get }
    var isFrozen: Bool { get }
    func frozen() -> any ProjectedSource
    func thawed() -> (any ProjectedSource)?
    func observe(keyPaths: [String]?, on queue: DispatchQueue?,
                 _ block: @escaping (RealmCollectionChange<any ProjectedSource>) -> Void) -> NotificationToken
}

/// A ``ProjectedSource`` over a list or set of `Base.Element` objects.
struct ProjectedCollectionSource<Base: RealmCollection>: ProjectedSource where Base.Element: ObjectBase {
    let base: Base

    var count: Int { base.count }

    func object(at position: Int) -> ObjectBase { base[position] }

    func write<V>(_ value: V, at position: Int, through keyPath: AnyKeyPath) {
        guard let writable = keyPath as? ReferenceWritableKeyPath<Base.Element, V> else {
            burrowPreconditionFailure("The key path \(keyPath) of a projected collection cannot be written: it is computed or read-only.")
        }
        base[position][keyPath: writable] = value
    }

    var realm: Realm? { base.realm }
    var isInvalidated: Bool { base.isInvalidated }
    var isFrozen: Bool { base.isFrozen }
    func frozen() -> any ProjectedSource { ProjectedCollectionSource(base: base.freeze()) }
    func thawed() -> (any ProjectedSource)? { base.thaw().map { ProjectedCollectionSource(base: $0) } }

    func observe(keyPaths: [String]?, on queue: DispatchQueue?,
                 _ block: @escaping (RealmCollectionChange<any ProjectedSource>) -> Void) -> NotificationToken {
        base.observe(keyPaths: keyPaths, on: queue) { change in
            switch change {
            case .initial(let collection): block(.initial(ProjectedCollectionSource(base: collection)))
            case .update(let collection, let deletions, let insertions, let modifications):
                block(.update(ProjectedCollectionSource(base: collection), deletions: deletions, insertions: insertions, modifications: modifications))
            case .error(let error): block(.error(error))
            }
        }
    }
}
