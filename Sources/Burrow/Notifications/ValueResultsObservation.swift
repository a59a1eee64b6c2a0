/// An observation of results of values (`list.sorted()`, `tags.filter("self BEGINSWITH 'a'")`):
/// after each version that changed the collection they read, the values that left and joined.
///
/// Values have no identity beyond themselves: equal values are told apart by their order, so
/// a changed value is a deletion and an insertion, never a modification. A version whose log
/// does not touch the class of the collection's owner costs nothing.
final class ValueResultsObservation<Element: RealmCollectionValue>: Observation {
    private let results: Results<Element>
    private let values: ValueResultsCore
    private let block: (RealmCollectionChange<Results<Element>>) -> Void
    private var elements: [Occurrence<_PersistedValue>] = []

    init(_ results: Results<Element>, values: ValueResultsCore, block: @escaping (RealmCollectionChange<Results<Element>>) -> Void) {
        self.results = results
        self.values = values
        self.block = block
    }

    /// The class of the object holding the collection, when the log can tell its changes.
    private var ownerClass: UInt32? { (values.source as? ManagedCollection)?.layout.classID }

    private func read() -> [Occurrence<_PersistedValue>] {
        guard !values.source.isInvalidated else { return [] }
        let stored = values.source.storedValues
        return Occurrence.of(values.positions.map { stored[$0] })
    }

    override func deliverInitial(in session: RealmSession) {
        let realm = session.core
        elements = read()
        block(.initial(results))
    }

    override func deliver(_ changes: [UInt32: ObjectChanges]?, in session: RealmSession, silently: Bool) {
        let realm = session.core
        if let changes, let owner = ownerClass, changes[owner] == nil { return }
        let old = elements
        elements = read()
        guard !silently else { return }
        let diff = CollectionDiff(old: old, new: elements, modified: { _ in false })
        guard !diff.isEmpty else { return }
        block(.update(results, deletions: diff.deletions, insertions: diff.insertions, modifications: []))
    }
}
