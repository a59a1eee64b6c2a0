import LMDB

/// `AnyRealmValue`s: their stored form, with the unmanaged objects they hold added.
///
/// A slot holding a value (a property, a list element, a map entry) has one backlink entry per
/// distinct object the value reaches, however deep (``TableWriter/elementBacklinks(of:from:position:counted:column:in:adding:)``);
/// deleting that object removes it from a nested list and sets it to `nil` in a nested
/// dictionary, as a list and a map property do.
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
        burrowPrecondition(depth <= AnyRealmValue.maximumNestingDepth,
                           "AnyRealmValue lists and dictionaries nest at most \(AnyRealmValue.maximumNestingDepth) levels deep.")
    }

    /// Stores `value` in the `AnyRealmValue` property `column` of a managed object.
    func setMixed(_ value: AnyRealmValue, on object: ObjectBase, management: ObjectBase.Management, column: Int) {
        verifyThread()
        guard let write = writeState else {
            refuseModificationOutsideWrite(of: object)
        }
        var stored = _PersistedValue.null
        guard perform(in: write, { stored = try storedMixed(value, update: write.nestedUpdatePolicy, in: write) }) else { return }
        update(object, key: management.key, layout: management.bound.layout, column: column, to: stored)
    }
}
