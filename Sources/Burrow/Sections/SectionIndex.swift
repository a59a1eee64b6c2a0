import LMDB

/// The shared state of a ``SectionedResults`` value and of its sections: the sorted results,
/// the function that gives each element its section key, and the sections of the realm's
/// current generation, derived when first read in it (or handed over by an observation that
/// derived them from the previous ones).
final class SectionIndex<Key: _Persistable & Hashable, Element: RealmCollectionValue> {
    let results: Results<Element>
    let sectionKey: (Element) -> Key
    /// The sections and the generation they are of. Frozen results are read from any thread.
    private let cache = Locked<(generation: UInt64, layout: SectionLayout<Key>)?>(nil)

    init(results: Results<Element>, sectionKey: @escaping (Element) -> Key) {
        self.results = results
        self.sectionKey = sectionKey
    }

    var realm: RealmCore {
        switch results.backing {
        case .objects(let core): core.realm
        case .values(let values): values.realm
        }
    }

    /// The sections in the realm's current generation.
    var layout: SectionLayout<Key> {
        let realm = realm
        realm.verifyThread()
        let generation = realm.generation
        if let cached = cache.withLock({ $0 }), cached.generation == generation { return cached.layout }
        let layout = SectionLayout(keys: results.lazy.map(sectionKey))
        cache.withLock { $0 = (generation, layout) }
        return layout
    }

    /// Makes `layout` the sections of the realm's current generation.
    func adopt(_ layout: SectionLayout<Key>) {
        let generation = realm.generation
        cache.withLock { $0 = (generation, layout) }
    }

    /// The section key of the element at `position` of the results.
    func key(at position: Int) -> Key { sectionKey(results[position]) }

    /// A new index over the same results and key function, with sections of its own: what an
    /// observation keeps up to date.
    func copy() -> SectionIndex {
        SectionIndex(results: results, sectionKey: sectionKey)
    }

    /// The same sections read through `core`, or `nil` when the collection they read does not
    /// exist there. A frozen index takes the sections now, as realm-core copies them.
    func moved(to core: RealmCore) -> SectionIndex? {
        guard let moved = results.moved(to: core) else { return nil }
        if moved.boundRealm === realm { return self }
        let index = SectionIndex(results: moved, sectionKey: sectionKey)
        if core.isFrozen { _ = index.layout }
        return index
    }
}
