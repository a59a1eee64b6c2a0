/// The checks of one leaf page that LMDB 0.9 does not make before it hands out the page's keys.
///
/// LMDB trusts its pages: a damaged count in a page header, or a damaged offset of one entry,
/// makes entries vanish from a walk (or appear twice) without any error, and no seal or
/// checksum of Burrow's covers them, since they lie outside every key and value. A sound leaf
/// page of LMDB 0.9 has a shape that damage rarely keeps (`mdb.c`: `mdb_node_add`,
/// `mdb_node_del`, `mdb_page_split` all keep it):
///
/// - its header names its own page number and says it is a leaf;
/// - its entries' nodes fill the bytes from its header's upper bound to its end exactly, one
///   after another, each as long as its key and value say (rounded up to an even size);
/// - its entry offsets (as many as the header's lower bound says) name each of those nodes
///   once;
/// - its keys rise strictly, in LMDB's default order (bytes, then length).
///
/// How much of this a walk checks, and when, is ``PageWalk``'s business; a page outside the
/// file's map is one a write transaction has changed in memory, LMDB's own work, and is not
/// checked.
package enum LeafPageCheck {
    private static let headerSize = PageFormat.headerSize, nodeHeaderSize = PageFormat.nodeHeaderSize
    private static let lowerOffset = PageFormat.lowerOffset, upperOffset = PageFormat.upperOffset
    /// A node's value lives in overflow pages: the node holds their first page's number.
    private static let bigData: UInt16 = 0x01
    /// A node's value is a named database's record (the main database's entries).
    private static let subData: UInt16 = 0x02

    /// Whether the header of the leaf page at `page`, page `number` of a map of `size`-byte
    /// pages, is that of a sound one: its own number, a leaf, bounds in order and inside it.
    package static func headerIsSound(_ page: UnsafeRawPointer, number: UInt, size: Int) -> Bool {
        PageFormat.headerIsSound(page, number: number, size: size, kind: PageFormat.leaf)
    }

    /// Whether the leaf page at `page`, page `number` of a map of `size`-byte pages, has the
    /// shape of a sound one (see the type's description).
    ///
    /// One pass over the entries in key order: each node lies inside the page, the nodes' lengths
    /// add up to the bytes from the upper bound to the end, and each key sorts after the one
    /// before it, which also makes every offset name a node of its own (two offsets naming one
    /// node would name one key twice).
    package static func isSound(_ page: UnsafeRawPointer, number: UInt, size: Int) -> Bool {
        guard headerIsSound(page, number: number, size: size) else { return false }
        let lower = Int(page.load(fromByteOffset: lowerOffset, as: UInt16.self))
        let upper = Int(page.load(fromByteOffset: upperOffset, as: UInt16.self))
        var filled = 0
        var previousKey = page, previousKeySize = -1
        for offsetOfStart in stride(from: headerSize, to: lower, by: 2) {
            let start = Int(page.load(fromByteOffset: offsetOfStart, as: UInt16.self))
            guard start & 1 == 0, start >= upper, let length = nodeLength(page, at: start, pageSize: size) else { return false }
            filled &+= length
            let key = page + start + nodeHeaderSize
            let keySize = Int(page.load(fromByteOffset: start + 6, as: UInt16.self))
            if previousKeySize >= 0, !rises(from: previousKey, previousKeySize, to: key, keySize) { return false }
            (previousKey, previousKeySize) = (key, keySize)
        }
        return filled == size - upper
    }

    /// The first and last keys of the leaf page at `page` of `size` bytes, whose header was
    /// found sound; `nil` when it has no entries or either key lies outside it.
    @inline(__always)
    static func boundaryKeys(ofLeaf page: UnsafeRawPointer, size: Int) -> (first: UnsafeRawBufferPointer, last: UnsafeRawBufferPointer)? {
        let count = PageFormat.nodeCount(page)
        guard count > 0, let first = leafKey(page, at: 0, size: size), let last = leafKey(page, at: count - 1, size: size) else { return nil }
        return (first, last)
    }

    /// The key of entry `index` of a leaf page of `size` bytes, when it lies inside the page.
    @inline(__always)
    private static func leafKey(_ page: UnsafeRawPointer, at index: Int, size: Int) -> UnsafeRawBufferPointer? {
        let start = Int(page.load(fromByteOffset: headerSize + 2 * index, as: UInt16.self))
        guard start >= headerSize, start + nodeHeaderSize <= size else { return nil }
        let keySize = Int(page.load(fromByteOffset: start + 6, as: UInt16.self))
        guard start + nodeHeaderSize + keySize <= size else { return nil }
        return UnsafeRawBufferPointer(start: page + start + nodeHeaderSize, count: keySize)
    }

    /// The length of the node at `offset` (header, key and value, or overflow page number,
    /// rounded up to even), or `nil` when it does not fit in the page or has unknown flags.
    @inline(__always)
    private static func nodeLength(_ page: UnsafeRawPointer, at offset: Int, pageSize: Int) -> Int? {
        guard offset + nodeHeaderSize <= pageSize else { return nil }
        let node = page + offset
        let flags = node.load(fromByteOffset: 4, as: UInt16.self)
        guard flags & ~(bigData | subData) == 0 else { return nil }
        let keySize = Int(node.load(fromByteOffset: 6, as: UInt16.self))
        let valueSize = flags & bigData != 0
            ? 8 : Int(node.load(as: UInt16.self)) | Int(node.load(fromByteOffset: 2, as: UInt16.self)) << 16
        let length = (nodeHeaderSize + keySize + valueSize + 1) & ~1
        return length <= pageSize - offset ? length : nil
    }

    /// Whether `key` sorts after `previous` in LMDB's default order: bytes compared as unsigned
    /// up to the shorter length, then the shorter first.
    @inline(__always)
    static func rises(from previous: UnsafeRawBufferPointer, to key: UnsafeRawBufferPointer) -> Bool {
        guard let left = previous.baseAddress, let right = key.baseAddress else { return previous.count < key.count }
        return rises(from: left, previous.count, to: right, key.count)
    }

    /// ``rises(from:to:)`` on raw bytes, eight at a time as big-endian words: object keys, list
    /// positions and index keys mostly differ within their first words.
    @inline(__always)
    private static func rises(from previous: UnsafeRawPointer, _ previousSize: Int, to key: UnsafeRawPointer, _ keySize: Int) -> Bool {
        let shared = min(previousSize, keySize)
        var offset = 0
        while offset &+ 8 <= shared {
            let left = UInt64(bigEndian: previous.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            let right = UInt64(bigEndian: key.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            if left != right { return left < right }
            offset &+= 8
        }
        while offset < shared {
            let left = previous.load(fromByteOffset: offset, as: UInt8.self), right = key.load(fromByteOffset: offset, as: UInt8.self)
            if left != right { return left < right }
            offset &+= 1
        }
        return previousSize < keySize
    }
}
