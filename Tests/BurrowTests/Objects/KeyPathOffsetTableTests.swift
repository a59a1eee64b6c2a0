@testable import Burrow
import Foundation
import Testing

/// The table property accessors find their wrappers' offsets in. Addresses here are made up, so
/// each test uses a table of its own, small enough for collisions to be the rule.
@Suite struct KeyPathOffsetTableTests {
    /// Distinct, 16-byte aligned addresses below 2^47 (as heap addresses are) whose probes all
    /// start at one slot of `table`.
    private static func addresses(sharingASlotIn table: KeyPathOffsetTable, count: Int) -> [UInt64] {
        var generator = SplitMix64(seed: 99)
        var bySlot: [Int: [UInt64]] = [:]
        while true {
            let address = (generator.next() & (1 << 47 - 1)) & ~0xF
            bySlot[table.firstSlot(of: address), default: []].append(address)
            if let crowd = bySlot.values.first(where: { Set($0).count >= count }) { return Array(Array(Set(crowd)).prefix(count)) }
        }
    }

    @Test func addressesThatHashAlikeAreAllFoundPastTheProbeIntoTheOverflow() {
        let table = KeyPathOffsetTable(slotBits: 4, probeLength: 3)
        var crowded = Self.addresses(sharingASlotIn: table, count: 7)
        let stranger = crowded.removeLast()
        for (offset, address) in crowded.enumerated() {
            #expect(table.offset(forAddress: address) == nil)
            table.remember(16 + 8 * offset, forAddress: address)
        }
        for (offset, address) in crowded.enumerated() {
            #expect(table.offset(forAddress: address) == 16 + 8 * offset)
        }
        // Remembering again changes nothing.
        table.remember(16, forAddress: crowded[0])
        #expect(table.offset(forAddress: crowded[0]) == 16)
        #expect(table.offset(forAddress: stranger) == nil)
    }

    @Test func addressesAndOffsetsTooWideForASlotAreKeptAside() {
        let table = KeyPathOffsetTable(slotBits: 4, probeLength: 3)
        table.remember(24, forAddress: 1 << 50)
        table.remember(0x1_0000, forAddress: 0x7000_1000)
        #expect(table.offset(forAddress: 1 << 50) == 24)
        #expect(table.offset(forAddress: 0x7000_1000) == 0x1_0000)
        #expect(table.offset(forAddress: 0x7000_2000) == nil)
    }

    @Test func concurrentLearnersAndReadersAgree() async {
        let table = KeyPathOffsetTable(slotBits: 5, probeLength: 4)
        let addresses = (1...200).map { UInt64($0) << 12 }
        await withTaskGroup(of: Bool.self) { group in
            for worker in 0..<4 {
                group.addTask {
                    var consistent = true
                    for (index, address) in addresses.enumerated() where index % 4 == worker {
                        table.remember(index * 8, forAddress: address)
                    }
                    for (index, address) in addresses.enumerated() {
                        // Each address is either not learnt yet or has its one offset.
                        if let offset = table.offset(forAddress: address), offset != index * 8 { consistent = false }
                    }
                    return consistent
                }
            }
            for await consistent in group { #expect(consistent) }
        }
        for (index, address) in addresses.enumerated() {
            #expect(table.offset(forAddress: address) == index * 8)
        }
    }
}
