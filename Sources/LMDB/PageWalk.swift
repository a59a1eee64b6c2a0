import CLMDB

/// What one cursor has seen of the leaf pages it stood on, so that damage to a page's structure
/// (``LeafPageCheck``) stops a read of that page instead of losing or misplacing entries.
///
/// Checking a whole page costs a read of every node in it, which a lookup that lands on one
/// entry, or a walk that reads a few bytes of each, would not otherwise pay. So the checks
/// follow the database's ``Database/PageChecks``:
///
/// - every page the cursor reaches: its header (one cache line), or, for databases read as runs
///   a seek finds (``Database/PageChecks/wholePages``), the whole page, once while the
///   transaction's snapshot lasts;
/// - every step (`MDB_NEXT`, `MDB_PREV`) in a read-only transaction from one page to another:
///   the key reached must sort after (before) the one left;
/// - every step within a page of a database of lookups (``Database/PageChecks/stepsInOrder``):
///   the same, which catches a damaged key that now sorts below the one before it;
/// - every page reached by a step from another page, and every page a search lands on, in a
///   read-only transaction: the path from the root to it (``Transaction/pathIsSound(of:to:)``),
///   and for a search that found a key above the one sought at a leaf's start, the leaf before.
///
/// A write transaction's walks get the page checks only: its own changes move entries between
/// steps, which the order checks cannot tell from damage, and its changed pages lie outside
/// the file.
struct PageWalk {
    /// The address of the page of the entry the cursor stands on.
    private var page: UInt = 0
    /// The key of the last entry the cursor stood on, which stays where it is in a read-only
    /// transaction's map.
    private var lastKey = UnsafeRawBufferPointer(start: nil, count: 0)

    /// Forgets where the cursor was: it moved without reading (a skip) or wrote.
    mutating func forget() {
        page = 0
        lastKey = UnsafeRawBufferPointer(start: nil, count: 0)
    }

    /// Checks the entry with `key`, which the cursor reached by `op` in a database checked as
    /// `checks` says; `sought` is the key a search for the first key at or above it sought.
    @inline(__always)
    mutating func arrived(at key: UnsafeRawBufferPointer, by op: MDB_cursor_op, in transaction: Transaction,
                          checks: Database.PageChecks, cursor: OpaquePointer, sought: UnsafeRawBufferPointer? = nil) throws(LMDBError) {
        guard let base = key.baseAddress else { return }
        let reached = transaction.bounds.page(of: base)
        // The common step: on the same page, where only an index's steps check the keys' order.
        // A search that lands on the page again took a path of its own, which is checked.
        if reached == page, op == MDB_NEXT || op == MDB_PREV || op == MDB_GET_CURRENT {
            if checks == .stepsInOrder, transaction.isReadOnly, op == MDB_NEXT || op == MDB_PREV, lastKey.baseAddress != nil,
               !Self.keepsOrder(from: lastKey, to: key, by: op) {
                throw .damagedPage
            }
            lastKey = key
            return
        }
        try check(key, on: reached, by: op, in: transaction, checks: checks, cursor: cursor, sought: sought)
    }

    /// ``arrived(at:by:in:checks:cursor:sought:)`` for an entry on another page than the last,
    /// or one a search found.
    @inline(never)
    private mutating func check(_ key: UnsafeRawBufferPointer, on reached: UInt, by op: MDB_cursor_op, in transaction: Transaction,
                                checks: Database.PageChecks, cursor: OpaquePointer, sought: UnsafeRawBufferPointer?) throws(LMDBError) {
        let isOrderedStep = transaction.isReadOnly && (op == MDB_NEXT || op == MDB_PREV) && lastKey.baseAddress != nil
        let left = lastKey
        lastKey = key
        // The page becomes the cursor's only once it passed: a caller that goes on after the
        // error must meet it again on the same page.
        page = 0
        if isOrderedStep, !Self.keepsOrder(from: left, to: key, by: op) { throw .damagedPage }
        if checks == .wholePages {
            guard transaction.leafPageIsSound(reached) else { throw .damagedPage }
        } else if let (pointer, number, size) = transaction.bounds.pageInFile(reached) {
            guard LeafPageCheck.headerIsSound(pointer, number: number, size: size) else { throw .damagedPage }
            // A walk reads the page's entries next, whose nodes lie from its end down (LMDB
            // adds each below the last): all its lines are asked for at once, rather than each
            // missed as its entry is read.
            if op != MDB_SET_KEY && op != MDB_SET_RANGE {
                burrow_prefetch(pointer, size)
                transaction.prefetchNextLeaf(of: cursor, backwards: op == MDB_PREV || op == MDB_LAST)
            }
        }
        guard transaction.pathIsSound(of: cursor, to: reached) else { throw .damagedPage }
        // A search for the first key at or above `sought` that found a key above it may have
        // stepped over the leaf before, where it first looked.
        if let sought, LeafPageCheck.rises(from: sought, to: key), !transaction.leafBeforeEndsBelow(sought, cursor: cursor, at: reached) {
            throw .damagedPage
        }
        page = reached
    }

    /// Whether a step by `op` from the entry with key `left` to the one with `key` kept LMDB's order.
    @inline(__always)
    private static func keepsOrder(from left: UnsafeRawBufferPointer, to key: UnsafeRawBufferPointer, by op: MDB_cursor_op) -> Bool {
        op == MDB_NEXT ? LeafPageCheck.rises(from: left, to: key) : LeafPageCheck.rises(from: key, to: left)
    }
}
