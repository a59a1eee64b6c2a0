/// The observation of sectioned results, or of one section: the sorted results' observation,
/// whose every update is turned into section changes.
///
/// The observation keeps its own ``SectionIndex`` (the layout before each change, which the
/// change is reported against); the value it reports reads that index, so reading the
/// notified sections does not derive them again.
enum SectionsObservation {
    /// Observes `index`, calling `report` with the index the observation keeps and `nil` at
    /// first, then with each non-empty change (only those touching the section whose key is
    /// `sectionKey`, when given). Traps for frozen results and inside a write.
    static func observe<Key, Element>(_ index: SectionIndex<Key, Element>, keyPaths: [String]?, sectionKey: Key?,
                                      report: @escaping (SectionIndex<Key, Element>, SectionChanges?) -> Void) -> NotificationToken {
        let realm = index.realm
        realm.verifyThread()
        burrowPrecondition(!realm.isFrozen, TrapMessage.frozenNotifications)
        burrowPrecondition(realm.writeState == nil, TrapMessage.observeInWrite)
        let observed = index.copy()
        var layout = SectionLayout<Key>()
        return index.results.observeUpdates(keyPaths: keyPaths) { update in
            switch update {
            case .initial:
                layout = observed.layout
                report(observed, nil)
            case .reset:
                layout = observed.layout
            case .changed(let diff, let touched):
                let count = observed.results.count
                guard let (next, kept) = layout.updated(by: diff, count: count, touched: touched.positions(among: count), key: observed.key(at:)) else {
                    burrowPreconditionFailure("Sectioned results of \(observed.results.elementDescription) lost track of their rows: "
                                              + "\(layout.rowCount) rows, a change of \(diff.deletions.count) deletions and "
                                              + "\(diff.insertions.count) insertions, \(observed.results.count) rows after it.")
                }
                observed.adopt(next)
                var changes = SectionChanges(from: layout, to: next, diff: diff, kept: kept)
                if let sectionKey { changes = changes.restricted(toKey: sectionKey, old: layout, new: next) }
                layout = next
                if !changes.isEmpty { report(observed, changes) }
            case .error(let error):
                burrowPreconditionFailure(Realm.Error.message(of: error))
            }
        }
    }
}
