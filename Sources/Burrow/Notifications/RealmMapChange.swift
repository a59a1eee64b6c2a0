/// What changed in a ``Map`` since the previous notification: keys removed, added, and keys
/// whose value (or the object it holds) changed.
@frozen
public enum RealmMapChange<Collection> {
    case initial(Collection)
    case update(Collection, deletions: [String], insertions: [String], modifications: [String])
    case error(any Error)
}

