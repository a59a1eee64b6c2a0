/// The change from one version of a collection to the next, from the identities of its elements
/// (object keys, or list positions) in each version: what RealmSwift reports.
///
/// Elements only in the old version are deletions (old positions), only in the new one
/// insertions (new positions). Of the elements in both, the largest set that kept its relative
/// order stays; each other one moved and is reported as a deletion and an insertion. A staying
/// element that `modified` names is a modification (old position).
struct CollectionDiff: Equatable {
    var deletions: [Int] = []
    var insertions: [Int] = []
    var modifications: [Int] = []

    var isEmpty: Bool { deletions.isEmpty && insertions.isEmpty && modifications.isEmpty }

    private init() {}

    /// The diff of `old` and `new`, both in ascending order of identity (results in object key
    /// order): no element can move, and one merge pass finds the changes.
    init<Identity: Comparable>(ascending old: [Identity], _ new: [Identity], modified: (Identity) -> Bool) {
        merge(old: old, new: new, modified: modified)
    }

    /// The diff of `old` and `new`, whose identities are each unique, in any order.
    init<Identity: Hashable>(old: [Identity], new: [Identity], modified: (Identity) -> Bool) {
        match(old: old, new: new, modified: modified)
    }

    private mutating func merge<Identity: Comparable>(old: [Identity], new: [Identity], modified: (Identity) -> Bool) {
        var i = 0, j = 0
        while i < old.count || j < new.count {
            if j == new.count || (i < old.count && old[i] < new[j]) {
                deletions.append(i)
                i += 1
            } else if i == old.count || new[j] < old[i] {
                insertions.append(j)
                j += 1
            } else {
                if modified(old[i]) { modifications.append(i) }
                i += 1
                j += 1
            }
        }
    }

    private mutating func match<Identity: Hashable>(old: [Identity], new: [Identity], modified: (Identity) -> Bool) {
        // What both versions start and end with stays where it is: a change to a few elements
        // of a long collection costs one comparison per element, not a hash of each.
        var prefix = 0
        while prefix < old.count, prefix < new.count, old[prefix] == new[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < old.count - prefix, suffix < new.count - prefix, old[old.count - 1 - suffix] == new[new.count - 1 - suffix] {
            suffix += 1
        }
        for index in 0..<prefix where modified(old[index]) { modifications.append(index) }
        var middle = CollectionDiff()
        middle.matchAll(old: Array(old[prefix..<(old.count - suffix)]), new: Array(new[prefix..<(new.count - suffix)]), modified: modified)
        deletions = middle.deletions.map { $0 + prefix }
        insertions = middle.insertions.map { $0 + prefix }
        modifications += middle.modifications.map { $0 + prefix }
        for index in (old.count - suffix)..<old.count where modified(old[index]) { modifications.append(index) }
    }

    private mutating func matchAll<Identity: Hashable>(old: [Identity], new: [Identity], modified: (Identity) -> Bool) {
        var newPosition: [Identity: Int] = [:]
        newPosition.reserveCapacity(new.count)
        for (position, identity) in new.enumerated() { newPosition[identity] = position }
        // The new positions of the elements both versions hold, in old order.
        var kept: [(old: Int, new: Int)] = []
        kept.reserveCapacity(min(old.count, new.count))
        for (position, identity) in old.enumerated() {
            if let target = newPosition[identity] { kept.append((position, target)) } else { deletions.append(position) }
        }
        let staying = Self.longestIncreasingRun(kept.map(\.new))
        var isStaying = [Bool](repeating: false, count: kept.count)
        for index in staying { isStaying[index] = true }
        var inserted = [Bool](repeating: true, count: new.count)
        for (index, pair) in kept.enumerated() {
            if isStaying[index] {
                inserted[pair.new] = false
                if modified(old[pair.old]) { modifications.append(pair.old) }
            } else {
                deletions.append(pair.old)
            }
        }
        deletions.sort()
        insertions = inserted.indices.filter { inserted[$0] }
    }

    /// The indices of a longest strictly increasing subsequence of `values` (patience sorting,
    /// O(n log n)).
    static func longestIncreasingRun(_ values: [Int]) -> [Int] {
        guard !values.isEmpty else { return [] }
        var tails: [Int] = []          // index into values of the smallest tail of each length
        var previous = [Int](repeating: -1, count: values.count)
        for (index, value) in values.enumerated() {
            var low = 0, high = tails.count
            while low < high {
                let middle = (low + high) / 2
                if values[tails[middle]] < value { low = middle + 1 } else { high = middle }
            }
            if low > 0 { previous[index] = tails[low - 1] }
            if low == tails.count { tails.append(index) } else { tails[low] = index }
        }
        var run: [Int] = []
        var cursor = tails.last!
        while cursor >= 0 {
            run.append(cursor)
            cursor = previous[cursor]
        }
        return run.reversed()
    }
}
