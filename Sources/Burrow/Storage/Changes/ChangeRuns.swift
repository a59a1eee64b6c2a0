/// The net change of the objects of one class in runs: consecutive keys that changed alike are
/// one range. It is what a commit reduces its events to and writes (``ChangeLogRecord``), so
/// that a write of a million objects handles a few ranges instead of a million keys; readers
/// spell it out key by key (``ObjectChanges/init(_:)``).
struct ChangeRuns: Equatable {
    /// Consecutive objects whose same properties changed.
    struct Modified: Equatable {
        var keys: ClosedRange<UInt64>
        /// Property ids, ascending.
        var properties: [UInt32]
    }

    /// Whether every object of the older version was deleted (the class was emptied at once).
    var cleared = false
    // Each list ascends, its ranges apart (two that meet are one).
    private(set) var deletions: [ClosedRange<UInt64>] = []
    private(set) var insertions: [ClosedRange<UInt64>] = []
    private(set) var modifications: [Modified] = []

    var isEmpty: Bool { !cleared && deletions.isEmpty && insertions.isEmpty && modifications.isEmpty }

    /// How many keys each list names.
    var keyCounts: (deletions: Int, insertions: Int, modifications: Int) {
        func count(_ ranges: some Sequence<ClosedRange<UInt64>>) -> Int {
            ranges.reduce(0) { $0 + Int(clamping: $1.upperBound - $1.lowerBound) + 1 }
        }
        return (count(deletions), count(insertions), count(modifications.lazy.map(\.keys)))
    }

    init(cleared: Bool = false) {
        self.cleared = cleared
    }

    /// Adds deleted objects, above every key added so far.
    mutating func delete(_ keys: ClosedRange<UInt64>) { Self.append(keys, to: &deletions) }

    /// Adds inserted objects, above every key added so far.
    mutating func insert(_ keys: ClosedRange<UInt64>) { Self.append(keys, to: &insertions) }

    /// Adds objects whose `properties` (ascending) changed, above every key added so far.
    mutating func modify(_ keys: ClosedRange<UInt64>, properties: [UInt32]) {
        if let last = modifications.last, Self.key(keys.lowerBound, follows: last.keys.upperBound), last.properties == properties {
            modifications[modifications.count - 1].keys = last.keys.lowerBound...keys.upperBound
        } else {
            modifications.append(Modified(keys: keys, properties: properties))
        }
    }

    /// Whether `key` comes right after `last`, so that the two make one run.
    @inline(__always)
    static func key(_ key: UInt64, follows last: UInt64) -> Bool { last < key && key - last == 1 }

    private static func append(_ keys: ClosedRange<UInt64>, to ranges: inout [ClosedRange<UInt64>]) {
        if let last = ranges.last, key(keys.lowerBound, follows: last.upperBound) {
            ranges[ranges.count - 1] = last.lowerBound...keys.upperBound
        } else {
            ranges.append(keys)
        }
    }
}
