/// The net change of the objects of one class between two versions: which objects were
/// deleted, which were inserted, and which properties of the others changed. An object deleted
/// and then created again under the same key is both deleted and inserted.
struct ObjectChanges: Equatable {
    /// Whether every object of the older version was deleted (the class was emptied at once):
    /// the lists then name only objects created since.
    private(set) var cleared = false
    /// Object keys, ascending.
    private(set) var deletions: [UInt64] = []
    private(set) var insertions: [UInt64] = []
    /// Objects that exist in both versions with the ids of the properties that changed, by
    /// ascending key; property ids ascending.
    private(set) var modifications: [(key: UInt64, properties: [UInt32])] = []

    var isEmpty: Bool { !cleared && deletions.isEmpty && insertions.isEmpty && modifications.isEmpty }

    init() {}

    /// The changes of `runs`, key by key.
    init(_ runs: ChangeRuns) {
        cleared = runs.cleared
        let counts = runs.keyCounts
        deletions.reserveCapacity(counts.deletions)
        insertions.reserveCapacity(counts.insertions)
        modifications.reserveCapacity(counts.modifications)
        for keys in runs.deletions { deletions.append(contentsOf: keys) }
        for keys in runs.insertions { insertions.append(contentsOf: keys) }
        for run in runs.modifications {
            for key in run.keys { modifications.append((key, run.properties)) }
        }
    }

    /// The change in runs of consecutive keys.
    var runs: ChangeRuns {
        var runs = ChangeRuns(cleared: cleared)
        for key in deletions { runs.delete(key...key) }
        for key in insertions { runs.insert(key...key) }
        for (key, properties) in modifications { runs.modify(key...key, properties: properties) }
        return runs
    }

    /// The net change of `events`, each naming one object, ordered by key (each key's events
    /// in the order they happened), after the class was emptied when `cleared`.
    init(events: ArraySlice<ChangeSet.Event>, cleared: Bool) {
        self.cleared = cleared
        // Room for every object each list may name, so that a write of a million objects grows
        // no list (and copies none) as it is reduced.
        var counts = (insertions: 0, deletions: 0, modifications: 0)
        for event in events {
            switch event.kind {
            case .insertion: counts.insertions += 1
            case .deletion: counts.deletions += 1
            case .modification: counts.modifications += 1
            }
        }
        insertions.reserveCapacity(counts.insertions)
        deletions.reserveCapacity(counts.deletions)
        modifications.reserveCapacity(counts.modifications)
        // Objects whose same properties changed share one array: updating a property of a
        // million objects makes one list of property ids, not a million.
        var shared: [UInt32] = []
        var properties: [UInt32] = []
        properties.reserveCapacity(4)
        var position = events.startIndex
        while position < events.endIndex {
            let key = events[position].key
            // The common case, one property of an object that stays: no bookkeeping.
            if !cleared, events[position].kind == .modification,
               position + 1 == events.endIndex || events[position + 1].key != key {
                let property = events[position].propertyID
                if shared.count != 1 || shared[0] != property { shared = [property] }
                modifications.append((key, shared))
                position += 1
                continue
            }
            // Whether the object the key named before the events is gone, and whether one made
            // since exists now. After a clear, no object of before is left to delete.
            var deletedOld = false
            var createdNew = false
            properties.removeAll(keepingCapacity: true)
            while position < events.endIndex, events[position].key == key {
                let event = events[position]
                switch event.kind {
                case .insertion:
                    createdNew = true
                    properties.removeAll(keepingCapacity: true)
                case .deletion:
                    if createdNew { createdNew = false } else if !cleared { deletedOld = true }
                    properties.removeAll(keepingCapacity: true)
                case .modification:
                    if !createdNew, !deletedOld, !cleared, !properties.contains(event.propertyID) { properties.append(event.propertyID) }
                }
                position += 1
            }
            if deletedOld { deletions.append(key) }
            if createdNew { insertions.append(key) }
            if !deletedOld, !createdNew, !properties.isEmpty {
                if properties.count > 1 { properties.sort() }
                if shared != properties { shared = Array(properties) }
                modifications.append((key, shared))
            }
        }
    }

    /// This change followed by `later`: the net change from this one's older version to
    /// `later`'s newer one.
    func followed(by later: ObjectChanges) -> ObjectChanges {
        if later.cleared { return later }
        if isEmpty { return later }
        if later.isEmpty { return self }
        var events = Array(self.events)
        events.append(contentsOf: later.events)
        return ObjectChanges(events: ChangeSet.sortedByKey(events[...]), cleared: cleared)
    }

    /// The change as events, ordered by key: a deletion, an insertion, then modifications.
    private var events: ArraySlice<ChangeSet.Event> {
        var events: [ChangeSet.Event] = []
        events.reserveCapacity(deletions.count + insertions.count + modifications.count)
        for key in deletions { events.append(ChangeSet.Event(key: key, propertyID: 0, kind: .deletion)) }
        for key in insertions { events.append(ChangeSet.Event(key: key, propertyID: 0, kind: .insertion)) }
        for (key, properties) in modifications {
            for property in properties { events.append(ChangeSet.Event(key: key, propertyID: property, kind: .modification)) }
        }
        // Stable: a key's deletion stays before its insertion.
        return ChangeSet.sortedByKey(events[...])
    }

    static func == (lhs: ObjectChanges, rhs: ObjectChanges) -> Bool {
        lhs.cleared == rhs.cleared && lhs.deletions == rhs.deletions && lhs.insertions == rhs.insertions
            && lhs.modifications.map(\.key) == rhs.modifications.map(\.key)
            && lhs.modifications.map(\.properties) == rhs.modifications.map(\.properties)
    }
}
