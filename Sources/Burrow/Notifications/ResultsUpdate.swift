/// What an observation of results reports to an observer built on top of it (sectioned
/// results), beyond the positions a ``RealmCollectionChange`` gives.
enum ResultsUpdate {
    /// The results as they were when the observation began.
    case initial
    /// A version changed the results, or may have: `diff` in positions, with modifications as
    /// the observation's key paths count them (it may be empty); `touched` tells which elements
    /// kept from the old version had any of their values (or those of objects they link to)
    /// changed, whatever the key paths.
    case changed(CollectionDiff, touched: TouchedElements)
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

/// Which elements of results changed in a version, whatever an observation's key paths: asked
/// of every position of results that may hold a million objects, so it answers most of them
/// with a range test.
enum TouchedElements {
    /// None (values have nothing to change: a changed value left and another joined).
    case none
    /// Any of them (the change log could not tell).
    case all
    /// The objects of `keys` (raw object keys), in results whose keys are `positions`.
    case objects(Set<UInt64>, positions: [ObjectKey])

    /// The objects of `keys` among results whose keys are `positions`.
    init(_ keys: Set<UInt64>, positions: [ObjectKey]) {
        self = keys.isEmpty ? .none : .objects(keys, positions: positions)
    }

    /// The positions of the touched elements among `positions` (all of them for `.all`),
    /// ascending.
    func positions(among count: Int) -> [Int] {
        switch self {
        case .none: return []
        case .all: return Array(0..<count)
        case .objects(let keys, let positions):
            let lowest = keys.min()!, highest = keys.max()!
            var found: [Int] = []
            positions.withUnsafeBufferPointer { buffer in
                for (position, key) in buffer.enumerated() {
                    let raw = key.rawValue
                    if raw >= lowest, raw <= highest, keys.contains(raw) { found.append(position) }
                }
            }
            return found
        }
    }
}
