/// What an observation of results reports to an observer built on top of it (sectioned
/// results), beyond the positions a ``RealmCollectionChange`` gives.
enum ResultsUpdate {
    /// The results as they were when the observation began.
    case initial
    /// A version changed the results, or may have: `diff` in positions, with modifications as
    /// the observation's key paths count them (it may be empty); `touched` tells, for a position
    /// in the new version that an element kept from the old one holds, whether any of its values
    /// (or those of objects it links to) changed, whatever the key paths.
    case changed(CollectionDiff, touched: (Int) -> Bool)
    /// The results moved to a new version without a report (`commitWrite(withoutNotifying:)`):
    /// what was derived from them must be derived again.
    case reset
    /// The observation could not go on.
    case error(Realm.Error)

    /// The public change of `results` this update reports, or `nil` when it reports none.
    func collectionChange<Element>(of results: Results<Element>) -> RealmCollectionChange<Results<Element>>? {
        switch self {
        case .initial: .initial(results)
        case .changed(let diff, _) where !diff.isEmpty:
            .update(results, deletions: diff.deletions, insertions: diff.insertions, modifications: diff.modifications)
        case .changed, .reset: nil
        case .error(let error): .error(error)
        }
    }
}
