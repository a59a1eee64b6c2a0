/// An object a stored value links to: its class id (`nil` for a link whose class the schema
/// gives) and its key.
struct LinkTarget: Hashable {
    let classID: UInt32?
    let key: ObjectKey

    /// The distinct objects `value` links to: a link, or the typed links of a mixed value and
    /// of the collections nested in it.
    static func all(in value: _PersistedValue) -> [LinkTarget] {
        switch value {
        case .link(let key): return [LinkTarget(classID: nil, key: ObjectKey(key))]
        case .typedLink(let classID, let key): return [LinkTarget(classID: classID, key: ObjectKey(key))]
        case .mixed(let inner): return all(in: inner)
        case .list(let elements), .dictionary(_, let elements):
            var seen = Set<LinkTarget>()
            return elements.flatMap(all(in:)).filter { seen.insert($0).inserted }
        default: return []
        }
    }

    /// `value` without its links to this object: a link to it becomes null, and nested lists drop
    /// the elements linking to it while nested dictionaries keep their keys with null values.
    func removed(from value: _PersistedValue) -> _PersistedValue {
        switch value {
        case .link(let key) where key == self.key.rawValue: return .null  // its class is the column's
        case .typedLink(let classID, let key) where classID == self.classID && key == self.key.rawValue: return .null
        case .mixed(let inner):
            let cleared = removed(from: inner)
            return cleared.isNull ? .null : .mixed(cleared)
        case .list(let elements):
            return .list(elements.compactMap { element in
                let cleared = removed(from: element)
                if case .typedLink = element, cleared.isNull { return nil }  // a link to the target
                return cleared
            })
        case .dictionary(let keys, let values):
            return .dictionary(keys: keys, values: values.map { removed(from: $0) })
        default: return value
        }
    }
}
