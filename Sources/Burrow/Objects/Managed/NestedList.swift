/// A `List<AnyRealmValue>` nested in an `AnyRealmValue`, read from and written to the value
/// that holds it.
final class NestedList: NestedCollection, ListStorage {
    /// The stored elements; traps when the list is gone.
    private var elements: [_PersistedValue] {
        guard case .list(let elements)? = current else { NestedLocation.gone() }
        return elements
    }

    var isInvalidated: Bool {
        guard case .list? = current else { return true }
        return false
    }

    var count: Int { elements.count }

    func element<E: RealmCollectionValue>(at index: Int, as type: E.Type) -> E {
        let elements = self.elements
        IndexBounds.check(index, count: elements.count)
        return AnyRealmValue(stored: elements[index], realm: realm, location: location.appending(.index(index))) as! E
    }

    func append(_ element: any _Persistable) {
        change { elements, write in elements.append(try storedElement(element, in: write)) }
    }

    func insert(_ element: any _Persistable, at index: Int) {
        change { elements, write in
            IndexBounds.check(index, count: elements.count, endAllowed: true)
            elements.insert(try storedElement(element, in: write), at: index)
        }
    }

    func set(_ element: any _Persistable, at index: Int) {
        change { elements, write in
            IndexBounds.check(index, count: elements.count)
            elements[index] = try storedElement(element, in: write)
        }
    }

    func remove(at index: Int) {
        change { elements, _ in
            IndexBounds.check(index, count: elements.count)
            elements.remove(at: index)
        }
    }

    func removeAll() {
        change { elements, _ in elements.removeAll() }
    }

    func move(from: Int, to: Int) {
        change { elements, _ in
            IndexBounds.check(from, count: elements.count)
            IndexBounds.check(to, count: elements.count)
            elements.insert(elements.remove(at: from), at: to)
        }
    }

    func swapAt(_ first: Int, _ second: Int) {
        change { elements, _ in
            IndexBounds.check(first, count: elements.count)
            IndexBounds.check(second, count: elements.count)
            elements.swapAt(first, second)
        }
    }

    private func change(_ body: (inout [_PersistedValue], WriteState) throws -> Void) {
        _ = self.elements  // traps when the list is gone, before anything is written
        modify { value, write in
            guard case .list(var elements) = value else { NestedLocation.gone() }
            value = .null
            try body(&elements, write)
            value = .list(elements)
        }
    }
}

extension NestedList {
    func storage(in core: RealmCore) -> (any ListStorage)? {
        location(in: core).map { NestedList(location: $0) }
    }
}
