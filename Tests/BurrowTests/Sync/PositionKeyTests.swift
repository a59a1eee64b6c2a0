import Foundation
import Testing

/// Position keys, which order a synced list's elements on every machine, and the edits a list
/// uploads.
@Suite struct PositionKeyTests {
    static let clockA = "0000018c2a3b4c5d-" + String(repeating: "a", count: 32)
    static let clockB = "0000018c2a3b4c5d-" + String(repeating: "b", count: 32)

    @Test func aKeyFallsStrictlyBetweenItsNeighboursAndIsValid() {
        var random = SplitMix64(seed: 0x5EED)
        var keys = [Internals.positionKey(between: nil, and: nil, clock: Self.clockA)]
        for _ in 0..<2_000 {
            let index = Int.random(in: 0...keys.count, using: &random)
            let lower = index > 0 ? keys[index - 1] : nil
            let upper = index < keys.count ? keys[index] : nil
            let key = Internals.positionKey(between: lower, and: upper, clock: Self.clockA)
            #expect(Internals.isPositionKey(key), "\(key)")
            if let lower { #expect(lower < key, "\(lower) !< \(key)") }
            if let upper { #expect(key < upper, "\(key) !< \(upper)") }
            keys.insert(key, at: index)
        }
        #expect(keys == keys.sorted() && Set(keys).count == keys.count)
    }

    @Test func concurrentInsertsAtOnePlaceOrderByClock() {
        let first = Internals.positionKey(between: nil, and: nil, clock: Self.clockA)
        let last = Internals.positionKey(between: first, and: nil, clock: Self.clockA)
        let byA = Internals.positionKey(between: first, and: last, clock: Self.clockA)
        let byB = Internals.positionKey(between: first, and: last, clock: Self.clockB)
        #expect(first < byA && byA < byB && byB < last)
    }

    @Test func keysOutOfOrderStillGiveAKeyAfterTheLowerOne() {
        let key = Internals.positionKey(between: "kz", and: "az", clock: Self.clockA)
        #expect(key > "kz" && Internals.isPositionKey(key))
        #expect(!Internals.isPositionKey("") && !Internals.isPositionKey("a0") && !Internals.isPositionKey("A1"))
    }

    @Test func aListWhoseKeysGrewLongGetsNewShortOnes() {
        // Keys made between the same two neighbours upload after upload end up this long.
        let long = String(repeating: "0", count: Internals.longestPositionKey) + "1z"
        let shadow = [(key: long, value: "first"), (key: "iz", value: "last")]
        let edits = Internals.listEdits(shadow: shadow, local: ["new", "first", "last"], clock: Self.clockA)
        #expect(Set(edits.remove) == [long, "iz"])
        #expect(edits.put.map(\.value) == ["new", "first", "last"])
        #expect(edits.put.allSatisfy { $0.key.count < 64 && Internals.isPositionKey($0.key) })
        #expect(edits.put.map(\.key) == edits.put.map(\.key).sorted())
    }

    @Test func anEditOfAShortListSendsOnlyWhatChanged() {
        let shadow = [(key: "az", value: "a"), (key: "bz", value: "b"), (key: "cz", value: "c")]
        let edits = Internals.listEdits(shadow: shadow, local: ["a", "x", "c", "y"], clock: Self.clockA)
        #expect(edits.remove == ["bz"])
        #expect(edits.put.map(\.value) == ["x", "y"])
        #expect(edits.put[0].key > "az" && edits.put[0].key < "cz" && edits.put[1].key > "cz")
    }
}
