import CLMDB

extension Transaction {
    /// Whether the path `cursor` took from its database's root to the leaf page at address
    /// `leaf` (the page of the entry it returned) is sound (``PathCheck``): checked in read-only
    /// transactions, whose pages all lie in the file's map. Each branch page's own shape is
    /// checked once while the snapshot lasts; the path's ranges at every check.
    package func pathIsSound(of cursor: OpaquePointer, to leaf: UInt) -> Bool {
        guard isReadOnly, let stack = PathCheck.stack(of: cursor) else { return true }
        // The entry returned lies on the page the search ended on.
        guard stack.page(stack.top) == leaf else { return false }
        guard stack.top > 0, let (leafPointer, _, size) = bounds.pageInFile(leaf),
              let (first, last) = LeafPageCheck.boundaryKeys(ofLeaf: leafPointer, size: size) else { return true }
        for level in 0..<stack.top {
            // A page past the end measured is one the file grew by since: not checked.
            guard let (page, number, _) = bounds.pageInFile(stack.page(level)),
                  let (_, child, _) = bounds.pageInFile(stack.page(level + 1)) else { return true }
            guard branchPageIsSound(page, number: number, size: size) else { return false }
            let index = stack.index(level)
            guard index < PageFormat.nodeCount(page), BranchPageCheck.child(page, at: index) == child,
                  BranchPageCheck.node(index, of: page, holdsKeysFrom: first, to: last) else { return false }
        }
        return true
    }

    /// Whether the pages a search of `cursor` that found nothing went through are sound: from
    /// the root, sound branch pages each naming the next, whose nodes followed hold `target`
    /// (the key sought, when there is one) in their range, down to a page with a sound leaf
    /// header. A damaged page on the way (a root whose header now reads as a leaf's, a branch
    /// page routing elsewhere) makes LMDB find nothing where entries are.
    package func searchedPagesAreSound(by cursor: OpaquePointer, for target: UnsafeRawBufferPointer?) -> Bool {
        guard isReadOnly, let stack = PathCheck.pagesSearched(by: cursor) else { return true }
        for level in 0..<PathCheck.stackSize - 1 {
            // No page yet (an empty database), or one past the end measured: not checked.
            guard let (page, number, size) = bounds.pageInFile(stack.page(level)) else { return true }
            guard branchPageIsSound(page, number: number, size: size) else {
                return LeafPageCheck.headerIsSound(page, number: number, size: size)
            }
            let index = stack.index(level)
            guard index < PageFormat.nodeCount(page), let (_, child, _) = bounds.pageInFile(stack.page(level + 1)),
                  BranchPageCheck.child(page, at: index) == child else { return false }
            if let target, !BranchPageCheck.node(index, of: page, holdsKeysFrom: target, to: target) { return false }
        }
        return true
    }

    /// Throws when a point lookup of `key` in `database` that found nothing went through
    /// damaged pages (``searchedPagesAreSound(by:for:)``): `mdb_get` keeps its path to itself,
    /// so the search is made again with a cursor. Only read-only transactions are checked.
    ///
    /// - Throws: ``LMDBError/damagedPage``.
    @inline(never)
    func confirmAbsent(_ key: UnsafeRawBufferPointer, in database: Database) throws(LMDBError) {
        guard isReadOnly, PathCheck.isAvailable, let handle else { return }
        var opened: OpaquePointer?
        guard mdb_cursor_open(handle, database.handle, &opened) == MDB_SUCCESS, let cursor = opened else { return }
        defer { mdb_cursor_close(cursor) }
        var keyVal = MDB_val(mv_size: key.count, mv_data: UnsafeMutableRawPointer(mutating: key.baseAddress))
        var dataVal = MDB_val()
        guard mdb_cursor_get(cursor, &keyVal, &dataVal, MDB_SET) == MDB_NOTFOUND else { return }
        guard searchedPagesAreSound(by: cursor, for: key) else { throw .damagedPage }
    }

    /// Whether the leaf page before the one at address `leaf`, where `cursor` stands on the
    /// first entry after a search for the first key at or above `sought`, ends below `sought`:
    /// LMDB looks in the leaf its path names first, and steps to the next one when every key
    /// there is below the key sought, or when the page there does not read as a leaf it can
    /// search (a damaged one). The leaf before is found as the path names it, down the last
    /// nodes of the branch pages before; it must be a sound leaf whose last key is below
    /// `sought`. A leaf first in its database has none before it.
    package func leafBeforeEndsBelow(_ sought: UnsafeRawBufferPointer, cursor: OpaquePointer, at leaf: UInt) -> Bool {
        guard isReadOnly, let stack = PathCheck.stack(of: cursor), stack.page(stack.top) == leaf, stack.index(stack.top) == 0 else {
            return true
        }
        // The lowest level where the path can turn left.
        var level = stack.top - 1
        while level >= 0 && stack.index(level) == 0 { level -= 1 }
        guard level >= 0, let (parent, number, size) = bounds.pageInFile(stack.page(level)) else { return true }
        guard branchPageIsSound(parent, number: number, size: size), stack.index(level) < PageFormat.nodeCount(parent) else {
            return false
        }
        var child = BranchPageCheck.child(parent, at: stack.index(level) - 1)
        for _ in level + 1..<stack.top {
            guard let (page, size) = bounds.pageInFile(number: child) else { return true }
            guard branchPageIsSound(page, number: child, size: size) else { return false }
            child = BranchPageCheck.child(page, at: PageFormat.nodeCount(page) - 1)
        }
        guard let (page, size) = bounds.pageInFile(number: child) else { return true }
        guard LeafPageCheck.headerIsSound(page, number: child, size: size),
              let (_, last) = LeafPageCheck.boundaryKeys(ofLeaf: page, size: size) else { return false }
        return LeafPageCheck.rises(from: last, to: sought)
    }

    /// Asks the processor for the leaf page a walk of `cursor` reaches after the one it stands
    /// on (before it, `backwards`), as its parent names it: read while the walk reads this one.
    /// Only a parent found sound is read; a name that is not a page of the file is left alone
    /// (the walk's checks meet it there).
    func prefetchNextLeaf(of cursor: OpaquePointer, backwards: Bool) {
        guard isReadOnly, let stack = PathCheck.stack(of: cursor), stack.top > 0,
              let (parent, number, size) = bounds.pageInFile(stack.page(stack.top - 1)),
              branchPageIsSound(parent, number: number, size: size) else { return }
        let index = stack.index(stack.top - 1) + (backwards ? -1 : 1)
        guard index >= 0, index < PageFormat.nodeCount(parent),
              let (page, size) = bounds.pageInFile(number: BranchPageCheck.child(parent, at: index)) else { return }
        burrow_prefetch(page, size)
    }

    /// Whether the branch page at `page` (page `number`, of `size` bytes) is sound, checked
    /// once while the snapshot lasts. Remembered in the table of checked leaf pages under its
    /// address with the low bit set: a page's address is a multiple of its size.
    func branchPageIsSound(_ page: UnsafeRawPointer, number: UInt, size: Int) -> Bool {
        let tagged = UInt(bitPattern: page) | 1
        if hasChecked(tagged) { return true }
        guard BranchPageCheck.isSound(page, number: number, size: size) else { return false }
        noteChecked(tagged)
        return true
    }
}
