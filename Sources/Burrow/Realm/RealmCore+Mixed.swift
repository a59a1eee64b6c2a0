import LMDB

/// An object a stored value links to: its class id (`nil` for a link whose class the schema
/// gives) and its key.
struct LinkTarget: Hashable {
    let classID: UInt32?
    let key: ObjectKey
}

/// `AnyRealmValue`s: storing them, and the backlinks of the objects they hold, directly or in
/// nested lists and dictionaries.
///
/// A slot holding a value (a property, a list element, a map entry) has one backlink entry per
/// distinct object the value reaches, however deep; deleting that object removes it from a
/// nested list and sets it to `nil` in a nested dictionary, as a list and a map property do.
extension RealmCore {
    /// The stored form of `value` (`.null`, or `.mixed` of its inner value), adding the
    /// unmanaged objects it holds.
    func storedMixed(_ value: AnyRealmValue, update: UpdatePolicy, in write: WriteState) throws -> _PersistedValue {
        if case .none = value { return .null }
        return .mixed(try storedMixedInner(value, update: update, depth: 1, in: write))
    }

    /// The stored form of `value` without its `.mixed` wrapper; `depth` counts the collections
    /// it is nested in, itself included.
    func storedMixedInner(_ value: AnyRealmValue, update: UpdatePolicy, depth: Int, in write: WriteState) throws -> _PersistedValue {
        switch value {
        case .object(let object):
            let key = try managedKey(of: object, update: update, in: write)
            return .typedLink(classID: object.management!.bound.layout.classID, key: key.rawValue)
        case .list(let list):
            Self.verifyNesting(depth)
            return .list(try list.map { try storedMixedInner($0, update: update, depth: depth + 1, in: write) })
        case .dictionary(let map):
            Self.verifyNesting(depth)
            var keys: [String] = [], values: [_PersistedValue] = []
            for (key, element) in zip(map.keys, map.values).sorted(by: { $0.0.utf8.lexicographicallyPrecedes($1.0.utf8) }) {
                keys.append(key)
                values.append(try storedMixedInner(element, update: update, depth: depth + 1, in: write))
            }
            return .dictionary(keys: keys, values: values)
        default:
            return value.scalar
        }
    }

    private static func verifyNesting(_ depth: Int) {
        precondition(depth <= AnyRealmValue.maximumNestingDepth,
                     "AnyRealmValue lists and dictionaries nest at most \(AnyRealmValue.maximumNestingDepth) levels deep.")
    }

    /// Stores `value` in the `AnyRealmValue` property `column` of a managed object.
    func setMixed(_ value: AnyRealmValue, on object: ObjectBase, management: ObjectBase.Management, column: Int) {
        verifyThread()
        guard let write = writeState else {
            preconditionFailure("Attempting to modify object outside of a write transaction - call beginWrite on a Realm instance first.")
        }
        var stored = _PersistedValue.null
        guard perform(in: write, { stored = try storedMixed(value, update: write.nestedUpdatePolicy, in: write) }) else { return }
        update(object, management: management, column: column, to: stored)
    }

    // MARK: Links held

    /// The distinct objects `value` links to: a link, or the typed links of a mixed value and
    /// of the collections nested in it.
    static func linkTargets(in value: _PersistedValue) -> [LinkTarget] {
        switch value {
        case .link(let key): return [LinkTarget(classID: nil, key: ObjectKey(key))]
        case .typedLink(let classID, let key): return [LinkTarget(classID: classID, key: ObjectKey(key))]
        case .mixed(let inner): return linkTargets(in: inner)
        case .list(let elements), .dictionary(_, let elements):
            var seen = Set<LinkTarget>()
            return elements.flatMap(linkTargets(in:)).filter { seen.insert($0).inserted }
        default: return []
        }
    }

    /// `value` without its links to `target`: a link to it becomes null, and nested lists drop
    /// the elements linking to it while nested dictionaries keep their keys with null values.
    static func removingLinks(to target: LinkTarget, from value: _PersistedValue) -> _PersistedValue {
        switch value {
        case .link(let key) where key == target.key.rawValue: return .null  // its class is the column's
        case .typedLink(let classID, let key) where classID == target.classID && key == target.key.rawValue: return .null
        case .mixed(let inner):
            let cleared = removingLinks(to: target, from: inner)
            return cleared.isNull ? .null : .mixed(cleared)
        case .list(let elements):
            return .list(elements.compactMap { element in
                let cleared = removingLinks(to: target, from: element)
                if case .typedLink = element, cleared.isNull { return nil }  // a link to the target
                return cleared
            })
        case .dictionary(let keys, let values):
            return .dictionary(keys: keys, values: values.map { removingLinks(to: target, from: $0) })
        default: return value
        }
    }

    /// Adds or removes the backlinks of what `value` links to, held at `position` of a
    /// collection (or directly by the property, when `position` is `nil`); `counted` for a
    /// position that several elements may share.
    func elementBacklinks(of value: _PersistedValue, from owner: ObjectKey, position: UInt64?, counted: Bool = false, column: Int,
                          in layout: TableLayout, adding: Bool, write: WriteState) throws {
        for target in Self.linkTargets(in: value) {
            try backlink(from: owner, column: column, in: layout, to: target.key, targetID: target.classID, position: position,
                         counted: counted, adding: adding, write: write)
        }
    }
}
