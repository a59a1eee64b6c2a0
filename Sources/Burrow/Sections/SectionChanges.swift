import Foundation

/// What one version changed in sectioned results, as ``SectionedResultsChange`` reports it:
/// rows by index path (deletions and modifications where they were, insertions where they are),
/// and the sections that appeared and went.
///
/// The rules are realm-core's: a modified row is a modification while it keeps its section key
/// and its position in the section, and otherwise a deletion and an insertion; rows of a section
/// that went are not listed, the section is. A row that changed section without a modification
/// the key paths count (its key reads other properties) is moved all the same.
struct SectionChanges: Equatable {
    var deletions: [IndexPath] = []
    var insertions: [IndexPath] = []
    var modifications: [IndexPath] = []
    var sectionsToInsert = IndexSet()
    var sectionsToDelete = IndexSet()

    var isEmpty: Bool {
        deletions.isEmpty && insertions.isEmpty && modifications.isEmpty && sectionsToInsert.isEmpty && sectionsToDelete.isEmpty
    }

    private init() {}

    /// The change from `old` to `new`, whose rows `diff` and `kept` relate
    /// (``SectionLayout/updated(by:count:touched:key:)``).
    init<Key>(from old: SectionLayout<Key>, to new: SectionLayout<Key>, diff: CollectionDiff, kept: [SectionLayout<Key>.KeptRow]) {
        for section in 0..<new.count where old.section(ofKey: new.key(ofSection: section)) == nil { sectionsToInsert.insert(section) }
        for section in 0..<old.count where new.section(ofKey: old.key(ofSection: section)) == nil { sectionsToDelete.insert(section) }
        // Sections keep their order unless the key is not the first sort's (their first rows
        // then decide): a section out of order is deleted and inserted again, with its rows.
        let moved = Self.sectionsOutOfOrder(from: old, to: new)
        for (before, after) in moved {
            sectionsToDelete.insert(before)
            sectionsToInsert.insert(after)
        }
        let reinserted = IndexSet(moved.map(\.after))
        for row in diff.deletions { deleteRow(old.path(ofRow: row)) }
        for row in diff.insertions { insertRow(new.path(ofRow: row), unlessIn: reinserted) }
        for row in kept {
            let before = old.path(ofRow: row.old), after = new.path(ofRow: row.new)
            if before.item == after.item, old.key(ofRow: row.old) == new.key(ofRow: row.new) {
                if row.isModified, !sectionsToDelete.contains(before.section) { modifications.append(before) }
            } else {
                deleteRow(before)
                insertRow(after, unlessIn: reinserted)
            }
        }
        for section in reinserted {
            for item in 0..<new.rows(ofSection: section).count { insertions.append(IndexPath(item: item, section: section)) }
        }
        deletions.sort()
        insertions.sort()
        modifications.sort()
    }

    /// The sections both layouts have whose order changed, as few as can be (the others keep
    /// the longest run in the same order), each with its position before and after.
    private static func sectionsOutOfOrder<Key>(from old: SectionLayout<Key>, to new: SectionLayout<Key>) -> [(before: Int, after: Int)] {
        var kept: [(before: Int, after: Int)] = []
        for section in 0..<old.count {
            if let after = new.section(ofKey: old.key(ofSection: section)) { kept.append((section, after)) }
        }
        guard zip(kept, kept.dropFirst()).contains(where: { $0.after > $1.after }) else { return [] }
        let staying = Set(CollectionDiff.longestIncreasingRun(kept.map(\.after)))
        return kept.indices.filter { !staying.contains($0) }.map { kept[$0] }
    }

    /// Lists the insertion of the row at `path`, unless its whole section is inserted again.
    private mutating func insertRow(_ path: IndexPath, unlessIn reinserted: IndexSet) {
        if !reinserted.contains(path.section) { insertions.append(path) }
    }

    /// Lists the deletion of the row at `path`, unless its whole section went.
    private mutating func deleteRow(_ path: IndexPath) {
        if !sectionsToDelete.contains(path.section) { deletions.append(path) }
    }

    /// The part of the change that concerns the section whose key is `key`, in the layouts
    /// before (`old`) and after (`new`) the change.
    func restricted<Key>(toKey key: Key, old: SectionLayout<Key>, new: SectionLayout<Key>) -> SectionChanges {
        var restricted = SectionChanges()
        if let before = old.section(ofKey: key) {
            restricted.deletions = deletions.filter { $0.section == before }
            restricted.modifications = modifications.filter { $0.section == before }
            if sectionsToDelete.contains(before) { restricted.sectionsToDelete.insert(before) }
        }
        if let after = new.section(ofKey: key) {
            restricted.insertions = insertions.filter { $0.section == after }
            if sectionsToInsert.contains(after) { restricted.sectionsToInsert.insert(after) }
        }
        return restricted
    }
}
