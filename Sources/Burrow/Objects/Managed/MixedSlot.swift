/// A place that stores one `AnyRealmValue`: a property, a list element or a map entry. A
/// collection nested in the value reads and rewrites the value through its slot.
protocol MixedSlot: AnyObject {
    var realm: RealmCore { get }
    /// Whether the value's holder is gone.
    var isInvalidated: Bool { get }
    /// The class of the object that holds the value: a change to the value is logged as its change.
    var ownerClassName: String { get }
    /// The stored value, without its `.mixed` wrapper (`.null` for none).
    func read() -> _PersistedValue
    /// Stores `value` (without its `.mixed` wrapper) in the slot; `write` is open.
    func write(_ value: _PersistedValue, in write: WriteState)
    /// The same slot read through `core` (frozen or live, same file), or `nil` where its holder
    /// does not exist.
    func moved(to core: RealmCore) -> MixedSlot?
}

extension MixedSlot {
    /// The inner value of a stored element of a collection of `AnyRealmValue`; traps with
    /// `gone` when the element no longer exists.
    func inner(of element: _PersistedValue?, gone: @autoclosure () -> String) -> _PersistedValue {
        guard let element else { burrowPreconditionFailure(gone()) }
        if case .mixed(let inner) = element { return inner }
        return .null
    }
}

/// An `AnyRealmValue` property of a managed object.
final class PropertySlot: MixedSlot {
    let owner: ObjectBase
    let column: Int
    let realm: RealmCore

    init(owner: ObjectBase, column: Int) {
        guard let management = owner.management else { burrowPreconditionFailure(TrapMessage.objectInvalidated) }
        self.owner = owner
        self.column = column
        realm = management.realm
    }

    var ownerClassName: String { owner.management?.bound.layout.className ?? "" }

    var isInvalidated: Bool {
        guard let management = owner.management else { return true }
        realm.verifyThread()
        return !realm.contains(management.key, in: management.bound.layout)
    }

    func read() -> _PersistedValue {
        guard case .mixed(let inner) = owner.managedValue(column: column, kind: .mixed) else { return .null }
        return inner
    }

    func write(_ value: _PersistedValue, in write: WriteState) {
        owner.setManagedValue(value.isNull ? .null : .mixed(value), column: column)
    }

    func moved(to core: RealmCore) -> MixedSlot? {
        guard let management = owner.management, let bound = core.bound(management.bound.info),
              core.contains(management.key, in: bound.layout) else { return nil }
        return PropertySlot(owner: core.makeObject(bound, key: management.key), column: column)
    }
}

/// One element of a managed `List<AnyRealmValue>`, by its index, as a list nested in a value
/// reaches its elements: inserting or removing elements before it moves the slot to another.
final class ListElementSlot: MixedSlot {
    let list: ManagedList
    let index: Int

    func moved(to core: RealmCore) -> MixedSlot? {
        list.moved(to: core).map { ListElementSlot(list: $0, index: index) }
    }

    init(list: ManagedList, index: Int) {
        self.list = list
        self.index = index
    }

    var realm: RealmCore { list.realm }
    var ownerClassName: String { list.layout.className }
    var isInvalidated: Bool { list.isInvalidated || index >= list.positions.count }

    /// The element's stable position, or `nil` when the list is shorter now.
    private var position: UInt64? {
        let positions = list.positions
        return index < positions.count ? positions[index] : nil
    }

    func read() -> _PersistedValue {
        inner(of: position.flatMap(list.value(atPosition:)), gone: "The list element holding this collection was removed.")
    }

    func write(_ value: _PersistedValue, in write: WriteState) {
        guard let position else { burrowPreconditionFailure("The list element holding this collection was removed.") }
        list.replace(atPosition: position, with: value.isNull ? .null : .mixed(value), in: write)
    }
}

/// One entry of a managed `Map<String, AnyRealmValue>`, by its key.
final class MapEntrySlot: MixedSlot {
    let map: ManagedMap
    let key: String

    func moved(to core: RealmCore) -> MixedSlot? {
        map.moved(to: core).map { MapEntrySlot(map: $0, key: key) }
    }

    init(map: ManagedMap, key: String) {
        self.map = map
        self.key = key
    }

    var realm: RealmCore { map.realm }
    var ownerClassName: String { map.layout.className }
    var isInvalidated: Bool { map.isInvalidated || map.value(for: key) == nil }

    func read() -> _PersistedValue {
        inner(of: map.value(for: key), gone: "The map entry '\(key)' holding this collection was removed.")
    }

    func write(_ value: _PersistedValue, in write: WriteState) {
        map.replace(key, with: value.isNull ? .null : .mixed(value), in: write)
    }
}
