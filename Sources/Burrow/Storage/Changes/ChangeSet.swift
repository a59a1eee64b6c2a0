/// What one write transaction did to objects, recorded as the rows change: every insertion,
/// deletion and change of a column, in order, by class. Recording is an append per row change,
/// or less: a change of the key after the last one, alike, extends the last event into a run,
/// so that a write over a million consecutive objects records a handful of events. The work of
/// reducing them to each object's net change is done once, when the write commits.
final class ChangeSet {
    /// One recorded change of consecutive objects, `key` through `last`.
    struct Event {
        enum Kind: UInt8 { case insertion, deletion, modification }
        let key: UInt64
        fileprivate(set) var last: UInt64
        /// The changed property's id, for a modification.
        let propertyID: UInt32
        let kind: Kind

        /// A change of one object.
        init(key: UInt64, propertyID: UInt32, kind: Kind) {
            self.key = key
            last = key
            self.propertyID = propertyID
            self.kind = kind
        }

        var isSingle: Bool { key == last }
    }

    /// The events of one class, in the order they happened, and whether the class was emptied
    /// at once (its objects deleted without a deletion each).
    struct ClassEvents {
        let classID: UInt32
        var events: [Event] = []
        /// How many events happened before the class was last emptied: those are overridden.
        var clearedAfter: Int?
    }

    // Appended to once per row change: the runtime's exclusivity check (a thread-local
    // lookup) would cost more than the append. Only this class's methods touch it, never
    // during another access.
    @exclusivity(unchecked) private(set) var classes: [ClassEvents] = []
    /// The position in `classes` of the class recorded last: rows mostly change class by class.
    @exclusivity(unchecked) private var last = 0

    var isEmpty: Bool { classes.allSatisfy { $0.events.isEmpty && $0.clearedAfter == nil } }

    @inline(__always)
    private func index(of classID: UInt32) -> Int {
        if last < classes.count, classes[last].classID == classID { return last }
        if let found = classes.firstIndex(where: { $0.classID == classID }) {
            last = found
        } else {
            classes.append(ClassEvents(classID: classID))
            last = classes.count - 1
        }
        return last
    }

    func inserted(_ key: ObjectKey, classID: UInt32) {
        record(key.rawValue, propertyID: 0, kind: .insertion, classID: classID)
    }

    func deleted(_ key: ObjectKey, classID: UInt32) {
        record(key.rawValue, propertyID: 0, kind: .deletion, classID: classID)
    }

    func modified(_ key: ObjectKey, propertyID: UInt32, classID: UInt32) {
        record(key.rawValue, propertyID: propertyID, kind: .modification, classID: classID)
    }

    @inline(__always)
    private func record(_ key: UInt64, propertyID: UInt32, kind: Event.Kind, classID: UInt32) {
        let position = index(of: classID)
        let count = classes[position].events.count
        // The class's last event, unless the class was emptied after it.
        if count > 0, classes[position].clearedAfter != count {
            let previous = classes[position].events[count - 1]
            if previous.kind == kind, previous.propertyID == propertyID {
                if ChangeRuns.key(key, follows: previous.last) {
                    classes[position].events[count - 1].last = key
                    return
                }
                // The same change of an object again, with nothing in between: nothing new.
                if kind == .modification, previous.key <= key, key <= previous.last { return }
            }
        }
        classes[position].events.append(Event(key: key, propertyID: propertyID, kind: kind))
    }

    /// Every object of the class was deleted at once.
    func cleared(classID: UInt32) {
        let position = index(of: classID)
        classes[position].clearedAfter = classes[position].events.count
    }

    /// The net change of each class's objects.
    func reduced() -> [UInt32: ChangeRuns] {
        var result: [UInt32: ChangeRuns] = [:]
        for recorded in classes {
            let cleared = recorded.clearedAfter != nil
            let events = recorded.events[(recorded.clearedAfter ?? 0)...]
            // Spelled out in the order they happened, so that sorting keeps each key's order.
            let runs = Self.disjointRuns(Self.sortedByKey(events), cleared: cleared)
                ?? ObjectChanges(events: Self.sortedByKey(Self.oneKeyEach(events)), cleared: cleared).runs
            if !runs.isEmpty { result[recorded.classID] = runs }
        }
        return result
    }

    /// The net change of `events` (ordered by first key) read straight off them, when no two
    /// name the same object: the case of writes that touch each object once, as bulk inserts,
    /// updates and deletes do. `nil` otherwise.
    private static func disjointRuns(_ events: ArraySlice<Event>, cleared: Bool) -> ChangeRuns? {
        var runs = ChangeRuns(cleared: cleared)
        var shared: [UInt32] = []
        var previousLast: UInt64?
        for event in events {
            if let previousLast, event.key <= previousLast { return nil }
            previousLast = event.last
            switch event.kind {
            case .insertion:
                runs.insert(event.key...event.last)
            // After the class was emptied, no object of before is left to delete or modify.
            case .deletion where !cleared:
                runs.delete(event.key...event.last)
            case .modification where !cleared:
                if shared.count != 1 || shared[0] != event.propertyID { shared = [event.propertyID] }
                runs.modify(event.key...event.last, properties: shared)
            case .deletion, .modification:
                break
            }
        }
        return runs
    }

    /// `events` with every run spelled out as one event per key.
    private static func oneKeyEach(_ events: ArraySlice<Event>) -> ArraySlice<Event> {
        if events.allSatisfy(\.isSingle) { return events }
        var single: [Event] = []
        for event in events {
            for key in event.key...event.last { single.append(Event(key: key, propertyID: event.propertyID, kind: event.kind)) }
        }
        return single[...]
    }

    /// `events` ordered by (first) key, each key's events in the order they happened. Writes
    /// mostly touch keys in ascending order, which costs one pass and no copy.
    static func sortedByKey(_ events: ArraySlice<Event>) -> ArraySlice<Event> {
        var ascending = true
        var previous: UInt64 = 0
        for event in events {
            if event.key < previous {
                ascending = false
                break
            }
            previous = event.key
        }
        if ascending { return events }
        let order = events.indices.sorted { lhs, rhs in
            events[lhs].key != events[rhs].key ? events[lhs].key < events[rhs].key : lhs < rhs
        }
        return order.map { events[$0] }[...]
    }
}
