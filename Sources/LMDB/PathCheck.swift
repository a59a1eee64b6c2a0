import CLMDB

/// The check of the path a read-only cursor took from a database's root to the leaf page it
/// stands on: each branch page on it sound (``BranchPageCheck``), each naming the next page of
/// the path, and the leaf page's keys inside the key range of every node followed. It catches a
/// damaged branch page that routed the search elsewhere, which no check of the leaf page can:
/// the page reached is often sound, only not where the keys sought live.
///
/// LMDB keeps the path in its cursor (`MDB_cursor`'s `mc_snum`, `mc_top`, `mc_pg` and `mc_ki`
/// in `mdb.c`) and exposes no call that returns it. The layout read here is LMDB 0.9's on a
/// 64-bit host; it is read only when the library linked says it is 0.9, and a stack that does
/// not read as one (a depth out of range) is not checked.
enum PathCheck {
    // `MDB_cursor` in LMDB 0.9, 64-bit: eight pointer-sized fields (the `MDB_dbi` padded), then
    // `mc_snum` and `mc_top` (16 bits each), `mc_flags` (32), `mc_pg[32]`, `mc_ki[32]` (16 bits).
    private static let depthOffset = 64, topOffset = 66, pagesOffset = 72, indicesOffset = 72 + 8 * stackSize
    static let stackSize = 32

    /// Whether the LMDB linked lays its cursors out as this reads them.
    static let isAvailable: Bool = {
        var major: Int32 = 0, minor: Int32 = 0, patch: Int32 = 0
        _ = mdb_version(&major, &minor, &patch)
        return major == 0 && minor == 9 && MemoryLayout<UnsafeRawPointer>.size == 8
    }()

    /// The stack of a cursor: its pages, root first, and the node followed on each.
    struct Stack {
        let pages: UnsafeRawPointer
        let indices: UnsafeRawPointer
        /// The level of the page the cursor stands on (`mc_top`).
        let top: Int

        /// The address of page `level`.
        @inline(__always)
        func page(_ level: Int) -> UInt {
            UInt(bitPattern: pages.load(fromByteOffset: 8 * level, as: UnsafeRawPointer?.self))
        }

        /// The node followed on page `level`.
        @inline(__always)
        func index(_ level: Int) -> Int {
            Int(indices.load(fromByteOffset: 2 * level, as: UInt16.self))
        }
    }

    /// `cursor`'s stack after a move that found an entry; `nil` when it does not read as one.
    static func stack(of cursor: OpaquePointer) -> Stack? {
        guard isAvailable else { return nil }
        let raw = UnsafeRawPointer(cursor)
        let depth = Int(raw.load(fromByteOffset: depthOffset, as: UInt16.self))
        let top = Int(raw.load(fromByteOffset: topOffset, as: UInt16.self))
        guard (1...stackSize).contains(depth), top == depth - 1 else { return nil }
        return Stack(pages: raw + pagesOffset, indices: raw + indicesOffset, top: top)
    }

    /// `cursor`'s pages from the root down after a search that found nothing, when it searched:
    /// LMDB then has popped its stack, but its pages stay in place, the root's first.
    static func pagesSearched(by cursor: OpaquePointer) -> Stack? {
        guard isAvailable else { return nil }
        let raw = UnsafeRawPointer(cursor)
        return Stack(pages: raw + pagesOffset, indices: raw + indicesOffset, top: stackSize - 1)
    }
}
