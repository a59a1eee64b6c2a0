/// What a list or dictionary nested in an `AnyRealmValue` shares: its location, a per-generation
/// cache of its stored form, and rewriting the outermost value to change it.
///
/// A nested collection is stored inline in the value that holds it, so a change rewrites that
/// value: O(size of the outermost value), fine for the document-like data such values hold.
class NestedCollection {
    let location: NestedLocation
    private var cache = GenerationCache<_PersistedValue?>(nil)

    init(location: NestedLocation) {
        self.location = location
    }

    var realm: RealmCore { location.slot.realm }

    /// This collection's location read through `core`, or `nil` where its holder does not exist.
    func location(in core: RealmCore) -> NestedLocation? {
        location.slot.moved(to: core).map { NestedLocation(slot: $0, path: location.path) }
    }

    /// The stored collection for the realm's current generation, or `nil` when it is gone.
    var current: _PersistedValue? {
        realm.verifyThread()
        return realm.exclusively {
            if cache.generation != realm.generation {
                cache.value = location.slot.isInvalidated ? nil : location.resolve()
                cache.generation = realm.generation
            }
            return cache.value
        }
    }

    /// The stored form of a new element, adding the objects it holds to the realm.
    func storedElement(_ element: any _Persistable, in write: WriteState) throws -> _PersistedValue {
        guard let value = element as? AnyRealmValue else { burrowPreconditionFailure("A nested collection holds AnyRealmValues.") }
        return try realm.storedMixedInner(value, update: write.nestedUpdatePolicy, depth: location.depth + 1, in: write)
    }

    /// Applies `change` to the stored collection inside the open write, and stores the result.
    func modify(_ change: (inout _PersistedValue, WriteState) throws -> Void) {
        realm.verifyThread()
        guard let write = realm.writeState else {
            realm.refuseModificationOutsideWrite()
        }
        var root = location.slot.read()
        guard realm.perform(in: write, { try location.update(&root) { try change(&$0, write) } }) else { return }
        location.slot.write(root, in: write)
    }
}
