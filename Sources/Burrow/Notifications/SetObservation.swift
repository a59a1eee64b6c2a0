/// An observation of a set property: its elements by value, in the set's order.
final class SetObservation<Element: RealmCollectionValue>: ElementsObservation<_PersistedValue> {
    private let set: MutableSet<Element>
    private let storage: ManagedSet
    private let block: (RealmCollectionChange<MutableSet<Element>>) -> Void

    init(_ set: MutableSet<Element>, storage: ManagedSet, keyPaths: [String]?,
         block: @escaping (RealmCollectionChange<MutableSet<Element>>) -> Void) {
        self.set = set
        self.storage = storage
        self.block = block
        super.init(keyPaths: keyPaths)
    }

    override func read() -> [Entry]? {
        guard !storage.isInvalidated else { return nil }
        return storage.values.map { ($0, $0) }
    }

    override var ownerClass: String? { storage.layout.className }
    override var targetClass: String? { storage.layout.storedClass.properties[storage.column].objectClassName }
    override func reportInitial() { block(.initial(set)) }
    override func reportError(_ error: any Error) { block(.error(error)) }

    override func report(_ diff: CollectionDiff, old: [Entry], new: [Entry]) {
        block(.update(set, deletions: diff.deletions, insertions: diff.insertions, modifications: diff.modifications))
    }
}
