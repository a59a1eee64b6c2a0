/// An observation of a list property: its elements by position, so that replacing the element
/// at an index is a modification, and moving one is a deletion and an insertion.
final class ListObservation<Element: RealmCollectionValue>: ElementsObservation<UInt64> {
    private let list: List<Element>
    private let storage: ManagedList
    private let block: (RealmCollectionChange<List<Element>>) -> Void

    init(_ list: List<Element>, storage: ManagedList, keyPaths: [String]?, block: @escaping (RealmCollectionChange<List<Element>>) -> Void) {
        self.list = list
        self.storage = storage
        self.block = block
        super.init(keyPaths: keyPaths)
    }

    override func read() -> [Entry]? {
        guard !storage.isInvalidated else { return nil }
        return storage.positions.map { ($0, storage.value(atPosition: $0) ?? .null) }
    }

    override var ownerClass: String? { storage.layout.className }
    override var targetClass: String? { storage.layout.storedClass.properties[storage.column].objectClassName }
    override func reportInitial() { block(.initial(list)) }
    override func reportError(_ error: any Error) { block(.error(error)) }

    override func report(_ diff: CollectionDiff, old: [Entry], new: [Entry]) {
        block(.update(list, deletions: diff.deletions, insertions: diff.insertions, modifications: diff.modifications))
    }
}
