/// The opened values of a read transaction by database and key: an open-addressing table of
/// plain slots, probed linearly, for keys of up to 16 bytes (object keys, list positions, index
/// keys of short values); longer keys go to a dictionary. A scan of a sealed table remembers
/// every row it opens, so each row costs a lookup and an insert here: a multiply-xorshift of
/// two words each, where a `Dictionary` of hashable keys ran the standard hasher twice.
struct OpenedValueTable {
    private struct Slot {
        var database: UInt64
        /// The key's length plus one; 0 marks an empty slot.
        var tag: Int
        var head: UInt64
        var tail: UInt64
        var value: UnsafeRawBufferPointer
    }

    /// A power of two of slots, kept at most three quarters full.
    private var slots: [Slot] = []
    private var count = 0
    /// Keys longer than 16 bytes, each after its database's eight bytes.
    private var longer: [[UInt8]: UnsafeRawBufferPointer] = [:]

    /// The value stored for `key` of `database`, if any.
    func value(database: UInt64, key: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer? {
        guard key.count <= 16 else { return longer[Self.longKey(database, key)] }
        guard !slots.isEmpty else { return nil }
        let (tag, head, tail) = Self.words(of: key)
        let mask = slots.count - 1
        var index = Self.hash(database, tag, head, tail) & mask
        while slots[index].tag != 0 {
            let slot = slots[index]
            if slot.tag == tag, slot.head == head, slot.tail == tail, slot.database == database { return slot.value }
            index = (index + 1) & mask
        }
        return nil
    }

    /// Stores `value` for `key` of `database`, which holds none yet.
    mutating func insert(_ value: UnsafeRawBufferPointer, database: UInt64, key: UnsafeRawBufferPointer) {
        guard key.count <= 16 else {
            longer[Self.longKey(database, key)] = value
            return
        }
        if (count + 1) * 4 > slots.count * 3 { grow() }
        let (tag, head, tail) = Self.words(of: key)
        let mask = slots.count - 1
        var index = Self.hash(database, tag, head, tail) & mask
        while slots[index].tag != 0 { index = (index + 1) & mask }
        slots[index] = Slot(database: database, tag: tag, head: head, tail: tail, value: value)
        count += 1
    }

    /// A long key with its database: the same key in two databases names two values.
    private static func longKey(_ database: UInt64, _ key: UnsafeRawBufferPointer) -> [UInt8] {
        withUnsafeBytes(of: database) { Array($0) } + Array(key)
    }

    /// A short key as its tag (length plus one) and two words.
    @inline(__always)
    private static func words(of key: UnsafeRawBufferPointer) -> (Int, UInt64, UInt64) {
        var words: (UInt64, UInt64) = (0, 0)
        withUnsafeMutableBytes(of: &words) { $0.copyMemory(from: key) }
        return (key.count + 1, words.0, words.1)
    }

    private mutating func grow() {
        let empty = Slot(database: 0, tag: 0, head: 0, tail: 0, value: UnsafeRawBufferPointer(start: nil, count: 0))
        var fresh = [Slot](repeating: empty, count: max(64, slots.count * 2))
        let mask = fresh.count - 1
        for slot in slots where slot.tag != 0 {
            var index = Self.hash(slot.database, slot.tag, slot.head, slot.tail) & mask
            while fresh[index].tag != 0 { index = (index + 1) & mask }
            fresh[index] = slot
        }
        slots = fresh
    }

    /// Mixes the words (a multiply-xorshift, as in splitmix64): object keys differ in their
    /// last bytes, which must reach the bits the mask keeps.
    @inline(__always)
    private static func hash(_ database: UInt64, _ tag: Int, _ head: UInt64, _ tail: UInt64) -> Int {
        var x = head &* 0x9E37_79B9_7F4A_7C15 ^ tail &* 0xC2B2_AE3D_27D4_EB4F ^ database &* 0x1656_67B1_9E37_79F9 ^ UInt64(tag)
        x ^= x >> 31
        x = x &* 0xBF58_476D_1CE4_E5B9
        x ^= x >> 29
        return Int(truncatingIfNeeded: x)
    }
}
