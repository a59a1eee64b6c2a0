/// What changed in a collection since the previous notification, as ``Results/observe(keyPaths:on:_:)``
/// and the observers of lists, sets and linking objects report it.
///
/// ```swift
/// let token = dogs.observe { change in
///     switch change {
///     case .initial(let dogs): print(dogs.count)
///     case .update(_, let deletions, let insertions, let modifications):
///         print(deletions, insertions, modifications)
///     case .error(let error): print(error)
///     }
/// }
/// ```
/// Indices follow batch-update conventions: `deletions` and `modifications` are positions in
/// the previous version of the collection, `insertions` positions in the new one, each list
/// ascending. An object that moved is deleted from its old position and inserted at its new one.
@frozen
public enum RealmCollectionChange<CollectionType> {
    /// The collection as it was when the observation began.
    case initial(CollectionType)
    /// A write changed the collection or objects in it.
    case update(CollectionType, deletions: [Int], insertions: [Int], modifications: [Int])
    /// The observation could not go on (the file could not be read); no notification follows.
    case error(any Error)
}

