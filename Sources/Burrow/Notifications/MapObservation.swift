/// An observation of a map property: its entries by key, reported as keys.
final class MapObservation<Key: _MapKey, Value: RealmCollectionValue>: ElementsObservation<String> {
    private let map: Map<Key, Value>
    private let storage: ManagedMap
    private let block: (RealmMapChange<Map<Key, Value>>) -> Void

    init(_ map: Map<Key, Value>, storage: ManagedMap, keyPaths: [String]?, block: @escaping (RealmMapChange<Map<Key, Value>>) -> Void) {
        self.map = map
        self.storage = storage
        self.block = block
        super.init(keyPaths: keyPaths)
    }

    override func read() -> [Entry]? {
        guard !storage.isInvalidated else { return nil }
        return storage.entries.map { ($0.key, $0.value) }
    }

    override var ownerClass: String? { storage.layout.className }
    override var targetClass: String? { storage.layout.storedClass.properties[storage.column].objectClassName }
    override func reportInitial() { block(.initial(map)) }
    override func reportError(_ error: any Error) { block(.error(error)) }

    override func report(_ diff: CollectionDiff, old: [Entry], new: [Entry]) {
        block(.update(map, deletions: diff.deletions.map { old[$0].identity }, insertions: diff.insertions.map { new[$0].identity },
                      modifications: diff.modifications.map { old[$0].identity }))
    }
}
