import LMDB
import Synchronization

/// A lock-free map from key path addresses to the offsets of the fields they reach, for
/// ``FieldOffsetCache``.
///
/// A fixed table of atomic words, each holding an address and its offset. An address is looked
/// for in a few slots from the one its hash picks, since addresses may hash alike; the rare
/// address that finds them all taken goes to a locked dictionary. Entries are never removed:
/// the key paths it serves live as long as the process.
final class KeyPathOffsetTable: Sendable {
    private let slotBits: Int
    /// Slots an address may use, from its hashed one on.
    private let probeLength: Int
    // Only ever read and written through the atomics it points to; never freed, like the table.
    nonisolated(unsafe) private let slots: UnsafeMutablePointer<Atomic<UInt64>>
    /// Entries whose probe was full, or whose address or offset do not fit a slot's word.
    private let overflow = Locked<[UInt64: Int]>([:])
    private let overflowUsed = Atomic<Bool>(false)

    /// A table of `1 << slotBits` slots.
    init(slotBits: Int = 10, probeLength: Int = 8) {
        self.slotBits = slotBits
        self.probeLength = probeLength
        slots = .allocate(capacity: 1 << slotBits)
        for index in 0..<(1 << slotBits) { (slots + index).initialize(to: Atomic(0)) }
    }

    /// The offset remembered for `address`, or `nil`.
    @inline(__always)
    func offset(forAddress address: UInt64) -> Int? {
        var index = firstSlot(of: address)
        for _ in 0..<probeLength {
            let word = slots[index].load(ordering: .relaxed)
            if word >> 16 == address, word != 0 { return Int(word & 0xFFFF) - 1 }
            if word == 0 { break }
            index = (index + 1) & ((1 << slotBits) - 1)
        }
        guard overflowUsed.load(ordering: .acquiring) else { return nil }
        return overflow.withLock { $0[address] }
    }

    /// Remembers `offset` for `address`: in the first free slot of its probe, or in the
    /// overflow dictionary.
    func remember(_ offset: Int, forAddress address: UInt64) {
        if address < 1 << 47, offset >= 0, offset < 0xFFFF {
            let word = address << 16 | UInt64(offset + 1)
            var index = firstSlot(of: address)
            for _ in 0..<probeLength {
                let (exchanged, found) = slots[index].compareExchange(expected: 0, desired: word, ordering: .relaxed)
                if exchanged || found == word { return }
                index = (index + 1) & ((1 << slotBits) - 1)
            }
        }
        overflow.withLock { $0[address] = offset }
        overflowUsed.store(true, ordering: .releasing)
    }

    /// The slot an address's probe starts at: the top bits of a multiplicative hash, which
    /// spreads addresses that differ only in their high or aligned bits.
    @inline(__always)
    func firstSlot(of address: UInt64) -> Int {
        Int(truncatingIfNeeded: (address &* 0x9E37_79B9_7F4A_7C15) >> UInt64(64 - slotBits))
    }
}
