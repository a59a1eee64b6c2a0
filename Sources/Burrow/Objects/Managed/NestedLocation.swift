/// One step from a value into a collection it holds.
enum NestedStep: Equatable, Sendable {
    /// The element at an index of a list.
    case index(Int)
    /// The value under a key of a dictionary.
    case key(String)
}

/// Where a nested collection lives: the slot holding the outermost `AnyRealmValue`, and the
/// steps from that value down to the collection.
struct NestedLocation {
    let slot: MixedSlot
    var path: [NestedStep] = []

    /// How many collections enclose this location's value, counting its own.
    var depth: Int { path.count + 1 }

    /// The location of the element that `step` leads to.
    func appending(_ step: NestedStep) -> NestedLocation {
        NestedLocation(slot: slot, path: path + [step])
    }

    /// The stored value at this location, or `nil` when the path no longer leads anywhere.
    func resolve() -> _PersistedValue? {
        Self.member(of: slot.read(), along: path)
    }

    /// Rewrites the value at this location inside `root`; traps when the path is gone.
    func update(_ root: inout _PersistedValue, _ change: (inout _PersistedValue) throws -> Void) rethrows {
        try Self.update(&root, along: path[...], change)
    }

    private static func update(_ value: inout _PersistedValue, along path: ArraySlice<NestedStep>,
                               _ change: (inout _PersistedValue) throws -> Void) rethrows {
        guard let step = path.first else { return try change(&value) }
        switch (step, value) {
        case (.index(let index), .list(var elements)) where elements.indices.contains(index):
            value = .null  // lets `elements` be changed in place
            try update(&elements[index], along: path.dropFirst(), change)
            value = .list(elements)
        case (.key(let key), .dictionary(let keys, var values)):
            guard let index = keys.firstIndex(where: { $0.utf8.elementsEqual(key.utf8) }) else { gone() }
            value = .null
            try update(&values[index], along: path.dropFirst(), change)
            value = .dictionary(keys: keys, values: values)
        default:
            gone()
        }
    }

    static func gone() -> Never {
        burrowPreconditionFailure("This nested collection no longer exists: the AnyRealmValue holding it was changed.")
    }

    /// The value `steps` lead to from `value`, or `nil` where one does not fit.
    static func member(of value: _PersistedValue, along steps: [NestedStep]) -> _PersistedValue? {
        var value = value
        for step in steps {
            guard let next = child(of: value, at: step) else { return nil }
            value = next
        }
        return value
    }

    private static func child(of value: _PersistedValue, at step: NestedStep) -> _PersistedValue? {
        switch (step, value) {
        case (.index(let index), .list(let elements)): elements.indices.contains(index) ? elements[index] : nil
        case (.key(let key), .dictionary(let keys, let values)):
            keys.firstIndex { $0.utf8.elementsEqual(key.utf8) }.map { values[$0] }
        default: nil
        }
    }
}
