import CLMDB

extension Transaction {
    /// Where a walk of many entries lands, found from the leaf pages' headers: the first entry
    /// (the last, walking backwards) of the leaf page the walk ends in.
    struct LeafJump {
        /// The key of that entry, in the map.
        let key: UnsafeRawBufferPointer
        /// The address of its page.
        let page: UInt
        /// How many steps from the cursor's entry reach it.
        let steps: Int
    }

    /// Where `count` steps on (back, with `backwards`) from the entry `cursor` stands on lead,
    /// to the page: each leaf page passed over is counted by its header instead of stepped
    /// through entry by entry. `nil` when the walk ends in the cursor's own page, or the pages
    /// cannot be read here (a write transaction's, or past the file measured): then the caller
    /// steps.
    ///
    /// Every page passed over is checked as a walk would meet it: branch pages sound, each leaf's
    /// header sound, its keys inside the range its parent's node gives it, and above (below) the
    /// keys of the leaf before it, so that a damaged page cannot change the count unseen.
    ///
    /// - Throws: ``LMDBError/damagedPage`` for a page passed over that fails those checks.
    func leafJump(from cursor: OpaquePointer, over count: Int, backwards: Bool) throws(LMDBError) -> LeafJump? {
        guard isReadOnly, let stack = PathCheck.stack(of: cursor), stack.top > 0 else { return nil }
        var path = LeafPath()
        for level in 0...stack.top {
            guard let (page, _, size) = bounds.pageInFile(stack.page(level)) else { return nil }
            path.pageSize = size
            path.levels.append((page, stack.index(level)))
        }
        let leaf = path.levels[stack.top]
        guard let (first, last) = LeafPageCheck.boundaryKeys(ofLeaf: leaf.page, size: path.pageSize) else { throw .damagedPage }
        var edge = backwards ? first : last
        // Steps from the cursor's entry to the first entry of the next leaf (the last of the one before).
        var toNext = backwards ? leaf.index + 1 : PageFormat.nodeCount(leaf.page) - leaf.index
        var steps = 0
        var landing: LeafJump?
        while steps + toNext <= count {
            guard let move = try path.moveToNeighbour(backwards: backwards, in: self) else { break }
            guard let (page, parent, parentIndex) = move else { return nil }
            guard let (first, last) = LeafPageCheck.boundaryKeys(ofLeaf: page, size: path.pageSize),
                  backwards ? LeafPageCheck.rises(from: last, to: edge) : LeafPageCheck.rises(from: edge, to: first),
                  BranchPageCheck.node(parentIndex, of: parent, holdsKeysFrom: first, to: last) else { throw .damagedPage }
            steps += toNext
            edge = backwards ? first : last
            landing = LeafJump(key: backwards ? last : first, page: UInt(bitPattern: page), steps: steps)
            toNext = PageFormat.nodeCount(page)
        }
        return landing
    }
}

/// The pages from a database's root to one leaf, and the node followed on each, as a
/// ``Transaction/leafJump(from:over:backwards:)`` moves from leaf to leaf.
private struct LeafPath {
    var levels: [(page: UnsafeRawPointer, index: Int)] = []
    var pageSize = 0

    /// Moves to the next leaf page (the one before, `backwards`): returns it with its parent
    /// and the parent's node naming it; `.some(nil)` when a page on the way lies outside the
    /// file measured; `nil` when there is no such leaf.
    ///
    /// - Throws: ``LMDBError/damagedPage`` for a page on the way whose header is not sound.
    mutating func moveToNeighbour(backwards: Bool, in transaction: Transaction) throws(LMDBError)
        -> (page: UnsafeRawPointer, parent: UnsafeRawPointer, parentIndex: Int)?? {
        let top = levels.count - 1
        var level = top - 1
        while level >= 0 {
            let (page, index) = levels[level]
            if backwards ? index > 0 : index + 1 < PageFormat.nodeCount(page) { break }
            level -= 1
        }
        guard level >= 0 else { return nil }
        levels[level].index += backwards ? -1 : 1
        for below in level + 1...top {
            let (parent, parentIndex) = levels[below - 1]
            let number = BranchPageCheck.child(parent, at: parentIndex)
            guard let (page, size) = transaction.bounds.pageInFile(number: number) else { return .some(nil) }
            let isSound = below == top ? LeafPageCheck.headerIsSound(page, number: number, size: size)
                                       : transaction.branchPageIsSound(page, number: number, size: size)
            guard isSound else { throw .damagedPage }
            levels[below] = (page, backwards ? PageFormat.nodeCount(page) - 1 : 0)
        }
        return (levels[top].page, levels[top - 1].page, levels[top - 1].index)
    }
}
