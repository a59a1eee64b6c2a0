import LMDB

/// What translating a `#Predicate` learns of a key path into a model class, kept by the key
/// path's identity: the stored property it names and what that property holds. A predicate
/// built in a loop (`#Predicate { $0.name == name }`) reads the same key path objects each
/// time, and asking the runtime again (conformances, casts, the class's fields) cost more than
/// the query it builds.
enum TranslatedKeyPaths {
    /// A key path's property and what it reaches.
    struct Entry: @unchecked Sendable {
        let name: String
        let objectType: ObjectBase.Type?
        let isCollection: Bool
    }

    private static let entries = Locked<[ObjectIdentifier: Entry]>([:])

    /// The entry of `keyPath`, or the one `make` gives, kept from then on; `nil` (not kept)
    /// when `make` finds none.
    static func entry(for keyPath: AnyKeyPath, make: () -> Entry?) -> Entry? {
        let identity = ObjectIdentifier(keyPath)
        if let known = entries.withLock({ $0[identity] }) { return known }
        guard let made = make() else { return nil }
        // Its identity names it from now on: it must never be freed and its address reused.
        FieldOffsetCache.immortalize(keyPath)
        entries.withLock { $0[identity] = made }
        return made
    }
}
