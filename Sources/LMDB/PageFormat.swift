/// The layout of LMDB 0.9's pages and nodes (`MDB_page`, `MDB_node` in `mdb.c`), as the page
/// checks read them (``LeafPageCheck``, ``BranchPageCheck``).
enum PageFormat {
    static let headerSize = 16
    static let flagsOffset = 10, lowerOffset = 12, upperOffset = 14
    static let nodeHeaderSize = 8
    /// Every kind of page a header's flags can name: branch, leaf, overflow, meta, leaf of
    /// fixed-size keys, sub-page.
    static let pageKinds: UInt16 = 0x01 | 0x02 | 0x04 | 0x08 | 0x20 | 0x40
    static let branch: UInt16 = 0x01
    static let leaf: UInt16 = 0x02

    /// Whether the header of the page at `page`, page `number` of a map of `size`-byte pages,
    /// is that of a sound page of `kind`: its own number, that kind alone, its bounds even, in
    /// order, and inside it, with at least one entry.
    @inline(__always)
    static func headerIsSound(_ page: UnsafeRawPointer, number: UInt, size: Int, kind: UInt16) -> Bool {
        guard page.load(as: UInt64.self) == UInt64(number),
              page.load(fromByteOffset: flagsOffset, as: UInt16.self) & pageKinds == kind else { return false }
        let lower = Int(page.load(fromByteOffset: lowerOffset, as: UInt16.self))
        let upper = Int(page.load(fromByteOffset: upperOffset, as: UInt16.self))
        return lower > headerSize && lower & 1 == 0 && upper & 1 == 0 && lower <= upper && upper <= size
    }

    /// How many nodes the page at `page` holds, by its header (of a page whose header was
    /// found sound).
    @inline(__always)
    static func nodeCount(_ page: UnsafeRawPointer) -> Int {
        (Int(page.load(fromByteOffset: lowerOffset, as: UInt16.self)) - headerSize) / 2
    }
}
