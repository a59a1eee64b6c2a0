import Foundation

/// The sections of sorted results, as realm-core forms them: a section holds every row whose
/// section key is its key, wherever the row is; sections come in the order of their first rows;
/// a section's rows keep the results' order.
///
/// A layout is derived from the section key of every row once, and after that from the layout
/// before and the change of the results: only rows inserted or changed have their key computed
/// again, so a change to one object of a million costs passes over integers, not a million
/// section keys.
struct SectionLayout<Key: Hashable> {
    /// Each section key met, by id. Ids of keys no row has any more stay until there are many.
    private var keyOfID: [Key] = []
    private var idOfKey: [Key: Int32] = [:]
    /// The section id of each row.
    private var rowIDs: [Int32] = []
    /// The section ids, in order.
    private var sectionIDs: [Int32] = []
    /// The position of each id's section; -1 for an id no row has.
    private var sectionOfID: [Int32] = []
    /// Where each section's rows begin in `members`, and one more entry for the end.
    private var starts: [Int] = [0]
    /// The rows of each section, section after section, each in row order.
    private var members: [Int32] = []
    /// Each row's position in its section.
    private var itemOfRow: [Int32] = []

    /// A row the results kept from one version to the next that was modified (as the
    /// observation's key paths count) or changed section; positions in each version.
    struct KeptRow {
        let old: Int
        let new: Int
        let isModified: Bool
    }

    /// No rows.
    init() {}

    /// The layout of rows whose section keys are `keys`, in row order.
    init<Keys: Sequence>(keys: Keys) where Keys.Element == Key {
        for key in keys { rowIDs.append(intern(key)) }
        arrange()
    }

    // MARK: Reading

    /// The number of sections.
    var count: Int { sectionIDs.count }

    /// The number of rows.
    var rowCount: Int { rowIDs.count }

    /// The key of section `section`.
    func key(ofSection section: Int) -> Key { keyOfID[Int(sectionIDs[section])] }

    /// The keys of the sections, in order.
    var keys: [Key] { sectionIDs.map { keyOfID[Int($0)] } }

    /// The rows of section `section`, in order.
    func rows(ofSection section: Int) -> ArraySlice<Int32> { members[starts[section]..<starts[section + 1]] }

    /// The position of the section whose key is `key`, or `nil` when no row has it.
    func section(ofKey key: Key) -> Int? {
        guard let id = idOfKey[key], sectionOfID[Int(id)] >= 0 else { return nil }
        return Int(sectionOfID[Int(id)])
    }

    /// The section key of row `row`.
    func key(ofRow row: Int) -> Key { keyOfID[Int(rowIDs[row])] }

    /// Where row `row` is: its section, and its position there.
    func path(ofRow row: Int) -> IndexPath {
        IndexPath(item: Int(itemOfRow[row]), section: Int(sectionOfID[Int(rowIDs[row])]))
    }

    // MARK: Changing

    /// The layout after a change took the results from this layout's rows to `count` rows, as
    /// `diff` says (deletions and modifications in old positions, insertions in new ones; the
    /// rows kept are in the same order in both). An inserted row, and a kept one whose new
    /// position `touched` lists (ascending), have their key computed by `key` (new positions);
    /// the others keep theirs. Returns `nil` when `diff` does not fit this layout's rows.
    func updated(by diff: CollectionDiff, count: Int, touched: [Int], key: (Int) -> Key) -> (layout: SectionLayout, kept: [KeptRow])? {
        guard rowIDs.count - diff.deletions.count == count - diff.insertions.count else { return nil }
        if diff.deletions.isEmpty, diff.insertions.isEmpty, let unchanged = keptInPlace(modified: diff.modifications, touched: touched, key: key) {
            return (self, unchanged)
        }
        var next = self
        var kept: [KeptRow] = []
        // Rows run kept, in order, between the rows deleted and inserted: each kept run is
        // copied whole, and only the rows the change names are visited one by one.
        var newIDs = [Int32]()
        newIDs.reserveCapacity(count)
        var oldRow = 0
        var deletion = 0, insertion = 0, modification = 0, touch = 0
        let deletions = diff.deletions, insertions = diff.insertions, modifications = diff.modifications
        var row = 0
        while row < count {
            if insertion < insertions.count, insertions[insertion] == row {
                insertion += 1
                newIDs.append(next.intern(key(row)))
                row += 1
                continue
            }
            while deletion < deletions.count, deletions[deletion] == oldRow {
                deletion += 1
                oldRow += 1
            }
            // The kept rows up to the next insertion, deletion, modification or touched row.
            var runEnd = count
            if insertion < insertions.count { runEnd = min(runEnd, insertions[insertion]) }
            if deletion < deletions.count { runEnd = min(runEnd, row + deletions[deletion] - oldRow) }
            while modification < modifications.count, modifications[modification] < oldRow { modification += 1 }
            if modification < modifications.count { runEnd = min(runEnd, row + modifications[modification] - oldRow) }
            while touch < touched.count, touched[touch] < row { touch += 1 }
            if touch < touched.count { runEnd = min(runEnd, touched[touch]) }
            if runEnd > row {
                newIDs.append(contentsOf: rowIDs[oldRow..<(oldRow + runEnd - row)])
                oldRow += runEnd - row
                row = runEnd
                continue
            }
            // A kept row the change names.
            let isModified = modification < modifications.count && modifications[modification] == oldRow
            let before = rowIDs[oldRow]
            // Ids are only appended while updating: an unchanged key keeps its id.
            let after = touch < touched.count && touched[touch] == row ? next.intern(key(row)) : before
            if isModified || after != before { kept.append(KeptRow(old: oldRow, new: row, isModified: isModified)) }
            newIDs.append(after)
            oldRow += 1
            row += 1
        }
        next.rowIDs = newIDs
        next.arrange()
        if next.keyOfID.count > 2 * next.count + 64 { next.forgetUnusedKeys() }
        return (next, kept)
    }

    /// The rows a change that kept every row where it was modified or touched, when none of
    /// them changed section: the layout then stays as it is. `nil` when one did.
    private func keptInPlace(modified: [Int], touched: [Int], key: (Int) -> Key) -> [KeptRow]? {
        var kept: [KeptRow] = []
        var m = 0, t = 0
        while m < modified.count || t < touched.count {
            let row = min(m < modified.count ? modified[m] : .max, t < touched.count ? touched[t] : .max)
            let isModified = m < modified.count && modified[m] == row
            let isTouched = t < touched.count && touched[t] == row
            if isModified { m += 1 }
            if isTouched { t += 1 }
            if isTouched, idOfKey[key(row)] != rowIDs[row] { return nil }
            if isModified { kept.append(KeptRow(old: row, new: row, isModified: true)) }
        }
        return kept
    }

    private mutating func intern(_ key: Key) -> Int32 {
        if let id = idOfKey[key] { return id }
        let id = Int32(keyOfID.count)
        keyOfID.append(key)
        idOfKey[key] = id
        return id
    }

    /// Derives the sections from the rows' ids: a counting sort, two passes over the rows
    /// (through buffers: they run over every row at each change).
    private mutating func arrange() {
        var sectionOfID = [Int32](repeating: -1, count: keyOfID.count)
        var sectionIDs: [Int32] = []
        var sizes: [Int] = []
        rowIDs.withUnsafeBufferPointer { ids in
            sectionOfID.withUnsafeMutableBufferPointer { sectionOf in
                for id in ids {
                    var section = sectionOf[Int(id)]
                    if section < 0 {
                        section = Int32(sectionIDs.count)
                        sectionOf[Int(id)] = section
                        sectionIDs.append(id)
                        sizes.append(0)
                    }
                    sizes[Int(section)] += 1
                }
            }
        }
        var starts = [0]
        starts.reserveCapacity(sizes.count + 1)
        for size in sizes { starts.append(starts[starts.count - 1] + size) }
        let rowCount = rowIDs.count
        var members = [Int32](repeating: 0, count: rowCount)
        var itemOfRow = [Int32](repeating: 0, count: rowCount)
        var fill = starts
        rowIDs.withUnsafeBufferPointer { ids in
            sectionOfID.withUnsafeBufferPointer { sectionOf in
                members.withUnsafeMutableBufferPointer { members in
                    itemOfRow.withUnsafeMutableBufferPointer { itemOfRow in
                        fill.withUnsafeMutableBufferPointer { fill in
                            for row in 0..<rowCount {
                                let section = Int(sectionOf[Int(ids[row])])
                                let slot = fill[section]
                                members[slot] = Int32(row)
                                itemOfRow[row] = Int32(slot - starts[section])
                                fill[section] = slot + 1
                            }
                        }
                    }
                }
            }
        }
        self.sectionOfID = sectionOfID
        self.sectionIDs = sectionIDs
        self.starts = starts
        self.members = members
        self.itemOfRow = itemOfRow
    }

    /// Gives the keys rows still have new ids, in section order, and drops the others.
    private mutating func forgetUnusedKeys() {
        let liveKeys = keys
        keyOfID = liveKeys
        idOfKey = Dictionary(uniqueKeysWithValues: liveKeys.enumerated().map { ($1, Int32($0)) })
        let newID = sectionOfID
        rowIDs = rowIDs.map { newID[Int($0)] }
        arrange()
    }
}
