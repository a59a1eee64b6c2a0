/// The checks of the branch pages on a cursor's path that LMDB 0.9 does not make before it
/// follows them down to a leaf page.
///
/// A branch page routes a search: its node `i` names the child page holding the keys from its
/// key up to the next node's key (node 0's key is never read: it stands for every key below
/// node 1's). A damaged branch page routes a search to another page, often a sound leaf page of
/// the same database or of another one, where the search finds nothing, or finds the run of
/// another owner: entries vanish from a read without any error, and no checksum or seal covers
/// a branch page. A sound branch page of LMDB 0.9 (`mdb.c`: `mdb_node_add`, `mdb_page_split`,
/// `mdb_node_move` all keep it):
///
/// - names its own page number in its header and says it is a branch;
/// - has its nodes fill the bytes from its header's upper bound to its end exactly, one after
///   another, each as long as its key says (rounded up to an even size);
/// - has its keys, from node 1 on, rise strictly in LMDB's default order;
/// - routes only keys in its node's range to each child: every key of the leaf page a search
///   reaches lies between the keys of the nodes it followed (``PathCheck``).
package enum BranchPageCheck {
    private static let headerSize = PageFormat.headerSize, nodeHeaderSize = PageFormat.nodeHeaderSize
    private static let lowerOffset = PageFormat.lowerOffset, upperOffset = PageFormat.upperOffset

    /// Whether the branch page at `page`, page `number` of a map of `size`-byte pages, has the
    /// shape of a sound one (see the type's description).
    package static func isSound(_ page: UnsafeRawPointer, number: UInt, size: Int) -> Bool {
        guard PageFormat.headerIsSound(page, number: number, size: size, kind: PageFormat.branch) else { return false }
        let lower = Int(page.load(fromByteOffset: lowerOffset, as: UInt16.self))
        let upper = Int(page.load(fromByteOffset: upperOffset, as: UInt16.self))
        var filled = 0
        var previous = UnsafeRawBufferPointer(start: nil, count: 0)
        for index in 0..<(lower - headerSize) / 2 {
            let start = Int(page.load(fromByteOffset: headerSize + 2 * index, as: UInt16.self))
            guard start & 1 == 0, start >= upper, start + nodeHeaderSize <= size else { return false }
            let keySize = Int(page.load(fromByteOffset: start + 6, as: UInt16.self))
            let length = (nodeHeaderSize + keySize + 1) & ~1
            guard length <= size - start else { return false }
            filled += length
            let key = UnsafeRawBufferPointer(start: page + start + nodeHeaderSize, count: keySize)
            if index >= 2, !LeafPageCheck.rises(from: previous, to: key) { return false }
            previous = key
        }
        return filled == size - upper
    }

    /// The key of node `index` of a page found sound.
    @inline(__always)
    static func key(_ page: UnsafeRawPointer, at index: Int) -> UnsafeRawBufferPointer {
        let start = Int(page.load(fromByteOffset: headerSize + 2 * index, as: UInt16.self))
        let keySize = Int(page.load(fromByteOffset: start + 6, as: UInt16.self))
        return UnsafeRawBufferPointer(start: page + start + nodeHeaderSize, count: keySize)
    }

    /// The number of the child page node `index` of a page found sound names (48 bits: the
    /// node's two length fields and its flags, as LMDB 0.9 stores a page number on 64-bit hosts).
    @inline(__always)
    static func child(_ page: UnsafeRawPointer, at index: Int) -> UInt {
        let start = Int(page.load(fromByteOffset: headerSize + 2 * index, as: UInt16.self))
        let node = page + start
        return UInt(node.load(as: UInt16.self)) | UInt(node.load(fromByteOffset: 2, as: UInt16.self)) << 16
            | UInt(node.load(fromByteOffset: 4, as: UInt16.self)) << 32
    }

    /// Whether node `index` of the branch page at `page`, found sound, holds every key from
    /// `low` to `high` in its range: at or above its own key (node 0 has none), below the next
    /// node's.
    static func node(_ index: Int, of page: UnsafeRawPointer, holdsKeysFrom low: UnsafeRawBufferPointer,
                     to high: UnsafeRawBufferPointer) -> Bool {
        if index > 0, LeafPageCheck.rises(from: low, to: key(page, at: index)) { return false }
        return index + 1 >= PageFormat.nodeCount(page) || LeafPageCheck.rises(from: high, to: key(page, at: index + 1))
    }
}
