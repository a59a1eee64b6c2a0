/// Observations of a list or dictionary nested in an `AnyRealmValue`.
///
/// Such a collection is stored inline in the value that holds it, so the change log names only
/// its owner's property: the observation compares the collection's elements with the ones it
/// read at the last version. List elements are told apart by value (equal values counted in
/// order), so an element added or removed anywhere is one insertion or deletion; an index that
/// both loses and gains an element (a replacement, or a collection inside it changed) is a
/// modification, as RealmSwift reports a replaced element.
final class NestedListObservation<Element: RealmCollectionValue>: ElementsObservation<Occurrence<_PersistedValue>> {
    private let list: List<Element>
    private let storage: NestedList
    private let block: (RealmCollectionChange<List<Element>>) -> Void

    init(_ list: List<Element>, storage: NestedList, block: @escaping (RealmCollectionChange<List<Element>>) -> Void) {
        self.list = list
        self.storage = storage
        self.block = block
        super.init(keyPaths: nil)
    }

    override func read() -> [Entry]? {
        guard case .list(let elements)? = storage.current else { return nil }
        return Occurrence.of(elements).map { ($0, $0.value) }
    }

    override var ownerClass: String? { storage.location.slot.ownerClassName }
    override func reportInitial() { block(.initial(list)) }
    override func reportError(_ error: any Error) { block(.error(error)) }

    override func report(_ diff: CollectionDiff, old: [Entry], new: [Entry]) {
        let replaced = Self.replacements(in: diff)
        block(.update(list, deletions: diff.deletions.filter { !replaced.contains($0) },
                      insertions: diff.insertions.filter { !replaced.contains($0) },
                      modifications: (diff.modifications + replaced).sorted()))
    }

    /// The indices where the element that was there was deleted and another inserted in its
    /// place: as many deletions as insertions come before it, so that reporting it as modified
    /// still turns the old list into the new one.
    static func replacements(in diff: CollectionDiff) -> Set<Int> {
        let inserted = Set(diff.insertions)
        var replaced = Set<Int>()
        var insertionsBefore = 0
        for (deletionsBefore, index) in diff.deletions.enumerated() where inserted.contains(index) {
            while insertionsBefore < diff.insertions.count, diff.insertions[insertionsBefore] < index { insertionsBefore += 1 }
            if deletionsBefore == insertionsBefore { replaced.insert(index) }
        }
        return replaced
    }
}

/// The observation of a dictionary nested in an `AnyRealmValue`: its entries by key; see
/// ``NestedListObservation``.
final class NestedMapObservation<Key: _MapKey, Value: RealmCollectionValue>: ElementsObservation<String> {
    private let map: Map<Key, Value>
    private let storage: NestedMap
    private let block: (RealmMapChange<Map<Key, Value>>) -> Void

    init(_ map: Map<Key, Value>, storage: NestedMap, block: @escaping (RealmMapChange<Map<Key, Value>>) -> Void) {
        self.map = map
        self.storage = storage
        self.block = block
        super.init(keyPaths: nil)
    }

    override func read() -> [Entry]? {
        guard case .dictionary(let keys, let values)? = storage.current else { return nil }
        return Array(zip(keys, values))
    }

    override var ownerClass: String? { storage.location.slot.ownerClassName }
    override func reportInitial() { block(.initial(map)) }
    override func reportError(_ error: any Error) { block(.error(error)) }

    override func report(_ diff: CollectionDiff, old: [Entry], new: [Entry]) {
        block(.update(map, deletions: diff.deletions.map { old[$0].identity }, insertions: diff.insertions.map { new[$0].identity },
                      modifications: diff.modifications.map { old[$0].identity }))
    }
}
