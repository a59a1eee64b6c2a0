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
              let (first, last) = BranchPageCheck.boundaryKeys(ofLeaf: leafPointer, size: size) else { return true }
        for level in 0..<stack.top {
            // A page past the end measured is one the file grew by since: not checked.
            guard let (page, number, _) = bounds.pageInFile(stack.page(level)),
                  let (_, child, _) = bounds.pageInFile(stack.page(level + 1)) else { return true }
            guard branchPageIsSound(page, number: number, size: size) else { return false }
            let index = stack.index(level), count = BranchPageCheck.nodeCount(page)
            guard index < count, BranchPageCheck.child(page, at: index) == child else { return false }
            // The node followed holds the keys from its own up to the next node's.
            if index > 0, LeafPageCheck.rises(from: first, to: BranchPageCheck.key(page, at: index)) { return false }
            if index + 1 < count, !LeafPageCheck.rises(from: last, to: BranchPageCheck.key(page, at: index + 1)) { return false }
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
            let index = stack.index(level), count = BranchPageCheck.nodeCount(page)
            guard index < count, let (_, child, _) = bounds.pageInFile(stack.page(level + 1)),
                  BranchPageCheck.child(page, at: index) == child else { return false }
            if let target {
                if index > 0, LeafPageCheck.rises(from: target, to: BranchPageCheck.key(page, at: index)) { return false }
                if index + 1 < count, !LeafPageCheck.rises(from: target, to: BranchPageCheck.key(page, at: index + 1)) { return false }
            }
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

    /// Whether the branch page at `page` (page `number`, of `size` bytes) is sound, checked
    /// once while the snapshot lasts. Remembered in the table of checked leaf pages under its
    /// address with the low bit set: a page's address is a multiple of its size.
    private func branchPageIsSound(_ page: UnsafeRawPointer, number: UInt, size: Int) -> Bool {
        let tagged = UInt(bitPattern: page) | 1
        if hasChecked(tagged) { return true }
        guard BranchPageCheck.isSound(page, number: number, size: size) else { return false }
        noteChecked(tagged)
        return true
    }
}
