/// A `Map<String, AnyRealmValue>` nested in an `AnyRealmValue`, read from and written to the
/// value that holds it. Keys are kept in UTF-8 byte order, as a map property keeps them.
final class NestedMap: NestedCollection, MapStorage {
    /// The stored keys and values; traps when the dictionary is gone.
    private var entries: (keys: [String], values: [_PersistedValue]) {
        guard case .dictionary(let keys, let values)? = current else { NestedLocation.gone() }
        return (keys, values)
    }

    var isInvalidated: Bool {
        guard case .dictionary? = current else { return true }
        return false
    }

    var count: Int { entries.keys.count }

    var keys: [String] { entries.keys }

    func contains(_ key: String) -> Bool {
        Self.index(of: key, in: entries.keys) != nil
    }

    func value<V: RealmCollectionValue>(forKey key: String, as type: V.Type) -> V? {
        let entries = self.entries
        guard let index = Self.index(of: key, in: entries.keys) else { return nil }
        return element(entries.values[index], key: key)
    }

    func values<V: RealmCollectionValue>(as type: V.Type) -> [V] {
        let entries = self.entries
        return zip(entries.keys, entries.values).map { element($1, key: $0) }
    }

    func set(_ element: any _Persistable, for key: String) {
        change { keys, values, write in
            let stored = try storedElement(element, in: write)
            if let index = Self.index(of: key, in: keys) {
                values[index] = stored
            } else {
                let index = keys.firstIndex { key.utf8.lexicographicallyPrecedes($0.utf8) } ?? keys.count
                keys.insert(key, at: index)
                values.insert(stored, at: index)
            }
        }
    }

    func remove(_ key: String) {
        change { keys, values, _ in
            guard let index = Self.index(of: key, in: keys) else { return }
            keys.remove(at: index)
            values.remove(at: index)
        }
    }

    func removeAll() {
        change { keys, values, _ in
            keys.removeAll()
            values.removeAll()
        }
    }

    private func element<V>(_ value: _PersistedValue, key: String) -> V {
        AnyRealmValue(stored: value, realm: realm, location: location.appending(.key(key))) as! V
    }

    private static func index(of key: String, in keys: [String]) -> Int? {
        keys.firstIndex { $0.utf8.elementsEqual(key.utf8) }
    }

    private func change(_ body: (inout [String], inout [_PersistedValue], WriteState) throws -> Void) {
        _ = entries  // traps when the dictionary is gone, before anything is written
        modify { value, write in
            guard case .dictionary(var keys, var values) = value else { NestedLocation.gone() }
            value = .null
            try body(&keys, &values, write)
            value = .dictionary(keys: keys, values: values)
        }
    }
}

extension NestedMap {
    func storage(in core: RealmCore) -> (any MapStorage)? {
        location(in: core).map { NestedMap(location: $0) }
    }
}
