/// What one write transaction did to objects, recorded as the rows change: every insertion,
/// deletion and change of a column, in order, by class. Recording is an append per row change;
/// the work of reducing it to each object's net change is done once, when the write commits
/// (``ObjectChanges``).
final class ChangeSet {
    /// One recorded change of one object.
    struct Event {
        enum Kind: UInt8 { case insertion, deletion, modification }
        let key: UInt64
        /// The changed property's id, for a modification.
        let propertyID: UInt32
        let kind: Kind
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
        classes[index(of: classID)].events.append(Event(key: key.rawValue, propertyID: 0, kind: .insertion))
    }

    func deleted(_ key: ObjectKey, classID: UInt32) {
        classes[index(of: classID)].events.append(Event(key: key.rawValue, propertyID: 0, kind: .deletion))
    }

    func modified(_ key: ObjectKey, propertyID: UInt32, classID: UInt32) {
        classes[index(of: classID)].events.append(Event(key: key.rawValue, propertyID: propertyID, kind: .modification))
    }

    /// Every object of the class was deleted at once.
    func cleared(classID: UInt32) {
        let position = index(of: classID)
        classes[position].clearedAfter = classes[position].events.count
    }

    /// The net change of each object, by class.
    func reduced() -> [UInt32: ObjectChanges] {
        var result: [UInt32: ObjectChanges] = [:]
        for recorded in classes {
            let cleared = recorded.clearedAfter != nil
            let events = recorded.events[(recorded.clearedAfter ?? 0)...]
            let changes = ObjectChanges(events: Self.sortedByKey(events), cleared: cleared)
            if !changes.isEmpty { result[recorded.classID] = changes }
        }
        return result
    }

    /// `events` ordered by key, each key's events in the order they happened. Writes mostly
    /// touch keys in ascending order, which costs one pass and no copy.
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
