import Foundation
import LMDB

/// The elements of one managed object's list property, as ``ListEntries`` stores them.
final class ManagedList: ManagedCollection, ListStorage {
    private var cache = GenerationCache<[UInt64]>([])
    /// The last position as this list's latest append left it, for the next append.
    private var tail = GenerationCache<UInt64?>(nil)

    // MARK: Reading

    /// The positions of the elements, in order, for the realm's current generation.
    var positions: [UInt64] {
        realm.exclusively { current(&cache) { txn in try ListEntries.positions(of: ownerKey, in: database, txn: txn) } }
    }

    var count: Int { positions.count }

    func element<E: RealmCollectionValue>(at index: Int, as type: E.Type) -> E {
        element(from: value(at: index), as: type, slot: ListElementSlot(list: self, index: index))
    }

    /// The stored value of the element at `position`, or `nil` when there is none.
    func value(atPosition position: UInt64) -> _PersistedValue? {
        realm.verifyThread()
        do {
            return try ListEntries.key(ownerKey, position).withUnsafeBytes { try realm.transaction.unsafeValue(for: $0, in: database) }
                .map { try ListEntries.decode($0, kind: kind) }
        } catch {
            readFailed(error)
        }
    }

    /// The stored value of the element at `index`.
    func value(at index: Int) -> _PersistedValue {
        let positions = self.positions
        IndexBounds.check(index, count: positions.count)
        guard let value = value(atPosition: positions[index]) else {
            burrowPreconditionFailure("The file is damaged: list element \(index) was listed but cannot be read from '\(realm.coordinator.path)'.")
        }
        return value
    }

    // MARK: Writing

    /// Appends `element`: one seek for the last position and one insert, whatever the length.
    /// Appends in a row skip the seek and the owner's lookup: each knows where the previous one
    /// left the list.
    func append(_ element: any _Persistable) {
        let write = verifyWrite()
        verifyOwner()
        realm.perform(in: write) {
            let value = try storedValue(of: element, in: write)
            // Adding the element's object changes the realm: the owner is looked up again then.
            verifyOwner()
            let cacheWasCurrent = cache.generation == realm.generation
            let last = if cacheWasCurrent {
                cache.value.last
            } else if tail.generation == realm.generation {
                tail.value
            } else {
                try lastPosition(in: write.transaction)
            }
            let (position, overflow) = (last ?? 0).addingReportingOverflow(ListEntries.gap)
            if overflow {
                try renumber(in: write)
                try put(value, at: try self.position(forInsertingAt: positions.count, in: write), in: write)
                return
            }
            try put(value, at: position, in: write)
            // Only this list changed since the owner was seen and the last position known.
            noteOwnerSeen()
            tail = GenerationCache(position, generation: realm.generation)
            if cacheWasCurrent {
                cache.value.append(position)
                cache.generation = realm.generation
            }
        }
    }

    /// The position of the last element, found with one seek.
    private func lastPosition(in txn: Transaction) throws -> UInt64? {
        var after: [UInt8] = []
        ObjectKey(ownerKey.rawValue + 1).append(to: &after)
        let cursor = try txn.openCursor(database)
        let entry = try cursor.seek(atLeast: after) == nil ? try cursor.last() : try cursor.previous()
        guard let (key, _) = entry, key.count == 16, ObjectKey(bytes: UnsafeRawBufferPointer(rebasing: key[..<8])) == ownerKey else {
            return nil
        }
        return ObjectKey(bytes: UnsafeRawBufferPointer(rebasing: key[8...])).rawValue
    }

    /// Inserts `element` before the element at `index` (at the end when `index == count`).
    func insert(_ element: any _Persistable, at index: Int) {
        let write = verifyWrite()
        let count = positions.count
        IndexBounds.check(index, count: count, endAllowed: true)
        realm.perform(in: write) {
            let value = try storedValue(of: element, in: write)
            try put(value, at: try position(forInsertingAt: index, in: write), in: write)
        }
    }

    /// Replaces the element at `index`.
    func set(_ element: any _Persistable, at index: Int) {
        let write = verifyWrite()
        let positions = self.positions
        IndexBounds.check(index, count: positions.count)
        realm.perform(in: write) {
            let value = try storedValue(of: element, in: write)
            try discard(at: positions[index], in: write)
            try put(value, at: positions[index], in: write)
        }
    }

    /// Replaces the stored value of the element at `position`; `write` is open.
    func replace(atPosition position: UInt64, with value: _PersistedValue, in write: WriteState) {
        realm.perform(in: write) {
            try remove(at: position, in: write)
            try put(value, at: position, in: write)
        }
    }

    /// Removes the element at `index` (deleting it, for a list of embedded objects).
    func remove(at index: Int) {
        let write = verifyWrite()
        let positions = self.positions
        IndexBounds.check(index, count: positions.count)
        realm.perform(in: write) { try discard(at: positions[index], in: write) }
    }

    /// Removes every element (deleting them, for a list of embedded objects).
    func removeAll() {
        let write = verifyWrite()
        let positions = self.positions
        realm.perform(in: write) { for position in positions { try discard(at: position, in: write) } }
    }

    /// Takes the element at `position` out of the list for good: an embedded object is deleted.
    private func discard(at position: UInt64, in write: WriteState) throws {
        try write.tables.discardListElement(owner: ownerKey, position: position, column: column, in: layout)
    }

    /// Moves the element at `from` to `to`.
    func move(from: Int, to: Int) {
        let write = verifyWrite()
        let count = positions.count
        IndexBounds.check(from, count: count, name: "from")
        IndexBounds.check(to, count: count, name: "to")
        guard from != to else { return }
        let value = self.value(at: from)
        realm.perform(in: write) {
            try remove(at: positions[from], in: write)
            try put(value, at: try position(forInsertingAt: to, in: write), in: write)
        }
    }

    /// Swaps the elements at `first` and `second`.
    func swapAt(_ first: Int, _ second: Int) {
        let write = verifyWrite()
        let positions = self.positions
        IndexBounds.check(first, count: positions.count, name: "index1")
        IndexBounds.check(second, count: positions.count, name: "index2")
        guard first != second else { return }
        let firstValue = value(at: first), secondValue = value(at: second)
        realm.perform(in: write) {
            try remove(at: positions[first], in: write)
            try remove(at: positions[second], in: write)
            try put(secondValue, at: positions[first], in: write)
            try put(firstValue, at: positions[second], in: write)
        }
    }

    /// Appends the elements of an unmanaged list being added with its owner.
    static func store(_ elements: [any _Persistable], owner: ObjectKey, column: Int, in layout: TableLayout,
                      realm: RealmCore, write: WriteState) throws {
        for (index, element) in elements.enumerated() {
            let value = try storedValue(of: element, kind: layout.kinds[column], realm: realm, in: write, destination: .list)
            try write.tables.putListElement(value, owner: owner, position: ListEntries.gap * UInt64(index + 1), column: column, in: layout)
        }
    }

    // MARK: Positions

    /// A free position for an element inserted at `index`, renumbering the list when its
    /// neighbours leave no room.
    private func position(forInsertingAt index: Int, in write: WriteState) throws -> UInt64 {
        var positions = self.positions
        if let position = Self.freePosition(in: positions, at: index) { return position }
        try renumber(in: write)
        positions = self.positions
        return Self.freePosition(in: positions, at: index)!
    }

    private static func freePosition(in positions: [UInt64], at index: Int) -> UInt64? {
        let lower = index > 0 ? positions[index - 1] : 0
        if index == positions.count {
            let (next, overflow) = lower.addingReportingOverflow(ListEntries.gap)
            return overflow ? nil : next
        }
        let upper = positions[index]
        return upper - lower > 1 ? lower + (upper - lower) / 2 : nil
    }

    /// Rewrites the list with evenly spaced positions.
    private func renumber(in write: WriteState) throws {
        let positions = self.positions
        let values = positions.indices.map { value(at: $0) }
        for position in positions { try remove(at: position, in: write) }
        for (index, value) in values.enumerated() { try put(value, at: ListEntries.gap * UInt64(index + 1), in: write) }
    }

    private func put(_ value: _PersistedValue, at position: UInt64, in write: WriteState) throws {
        try write.tables.putListElement(value, owner: ownerKey, position: position, column: column, in: layout)
    }

    private func remove(at position: UInt64, in write: WriteState) throws {
        try write.tables.removeListElement(owner: ownerKey, position: position, column: column, in: layout)
    }
}

extension ManagedList {
    func storage(in core: RealmCore) -> (any ListStorage)? { moved(to: core) }
}
