/// An observation of results of values (`list.sorted()`, `tags.filter("self BEGINSWITH 'a'")`):
/// after each version that changed the collection they read, the values that left and joined.
///
/// Values have no identity beyond themselves: equal values are told apart by their order, so
/// a changed value is a deletion and an insertion, never a modification. A version whose log
/// does not touch the class of the collection's owner costs nothing.
final class ValueResultsObservation<Element: RealmCollectionValue>: Observation {
    private let results: Results<Element>
    private let values: ValueResultsCore
    private let report: (ResultsUpdate) -> Void
    private var elements: [Occurrence<_PersistedValue>] = []

    init(_ results: Results<Element>, values: ValueResultsCore, block: @escaping (RealmCollectionChange<Results<Element>>) -> Void) {
        self.results = results
        self.values = values
        report = { update in update.collectionChange(of: results).map(block) }
    }

    /// An observation that reports every update, for an observer built on it.
    init(_ results: Results<Element>, values: ValueResultsCore, updates: @escaping (ResultsUpdate) -> Void) {
        self.results = results
        self.values = values
        report = updates
    }

    /// The class of the object holding the collection, when the log can tell its changes.
    private var ownerClass: UInt32? { (values.source as? ManagedCollection)?.layout.classID }

    private func read() -> [Occurrence<_PersistedValue>] {
        guard !values.source.isInvalidated else { return [] }
        let stored = values.source.storedValues
        return Occurrence.of(values.positions.map { stored[$0] })
    }

    override func deliverInitial(in session: RealmSession) {
        elements = read()
        report(.initial)
    }

    override func deliver(_ changes: [UInt32: ObjectChanges]?, in session: RealmSession, silently: Bool) {
        if let changes, let owner = ownerClass, changes[owner] == nil { return }
        let old = elements
        elements = read()
        guard !silently else {
            report(.reset)
            return
        }
        // A value that stays is the same value: it has nothing to change.
        report(.changed(CollectionDiff(old: old, new: elements, modified: { _ in false }), touched: .none))
    }
}
