/// An observation of a list, set or map property. The collection observed says how its
/// elements read as entries (a list's by position, a set's by value, a map's by key) and how a
/// change is reported in its own change type.
final class PropertyCollectionObservation<Identity: Hashable>: ElementsObservation<Identity> {
    private let storage: ManagedCollection
    private let entries: () -> [Entry]
    private let initial: () -> Void
    private let update: (_ diff: CollectionDiff, _ old: [Entry], _ new: [Entry]) -> Void
    private let failure: (any Error) -> Void

    init(storage: ManagedCollection, keyPaths: [String]?, entries: @escaping () -> [Entry], initial: @escaping () -> Void,
         update: @escaping (_ diff: CollectionDiff, _ old: [Entry], _ new: [Entry]) -> Void, failure: @escaping (any Error) -> Void) {
        self.storage = storage
        self.entries = entries
        self.initial = initial
        self.update = update
        self.failure = failure
        super.init(keyPaths: keyPaths)
    }

    override func read() -> [Entry]? { storage.isInvalidated ? nil : entries() }
    override var ownerClass: String? { storage.layout.className }
    override var targetClass: String? { storage.layout.storedClass.properties[storage.column].objectClassName }
    override func reportInitial() { initial() }
    override func reportError(_ error: any Error) { failure(error) }
    override func report(_ diff: CollectionDiff, old: [Entry], new: [Entry]) { update(diff, old, new) }
}
