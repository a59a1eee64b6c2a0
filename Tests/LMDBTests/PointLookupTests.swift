import Foundation
import LMDB
import Testing

/// Point lookups and overwrites go through a cursor each transaction keeps per database; these
/// tests hold them against a plain dictionary while the tree splits, merges and is dropped.
@Suite struct PointLookupTests {
    let directory = TemporaryDirectory()

    private static func key(_ number: Int) -> [UInt8] {
        withUnsafeBytes(of: UInt32(number).bigEndian, Array.init)
    }

    private static func value(_ number: Int, size: Int) -> [UInt8] {
        (0..<size).map { UInt8(truncatingIfNeeded: number &+ $0) }
    }

    @Test func randomWritesReplacesDeletesAndLookupsAgreeWithADictionary() throws {
        let environment = try Environment.open(path: directory.path("lookups.mdb"))
        let txn = try environment.beginTransaction()
        let db = try txn.openDatabase(named: "kv", create: true)
        let other = try txn.openDatabase(named: "other", create: true)
        var model: [Int: [UInt8]] = [:]
        var generator = SeededNumbers(seed: 7)
        for step in 0..<20_000 {
            let number = Int(generator.next() % 3_000)
            let key = Self.key(number)
            switch generator.next() % 10 {
            case 0...2:
                // Sizes vary so that overwrites move nodes and pages split and merge.
                let value = Self.value(step, size: Int(generator.next() % 400))
                try key.withUnsafeBytes { k in try txn.replace(k, reserving: value.count, in: db) { $0.copyBytes(from: value) } }
                model[number] = value
            case 3...4:
                let value = Self.value(step, size: 8)
                try txn.put(key, value, in: db)
                model[number] = value
            case 5:
                #expect(try txn.delete(key, in: db) == (model.removeValue(forKey: number) != nil))
            case 6:
                try txn.put(key, [1], in: other)
            default:
                #expect(try txn.value(for: key, in: db) == model[number])
            }
        }
        for number in 0..<3_000 {
            #expect(try txn.value(for: Self.key(number), in: db) == model[number])
        }
        try txn.drop(db)
        #expect(try txn.value(for: Self.key(model.keys.first ?? 0), in: db) == nil)
        try txn.commit()
    }

    /// Keys read one after another are tried as the cursor's next entry: gaps, keys missing at
    /// the end of a run, a run's last byte wrapping, and overwrites of various sizes between
    /// reads must still find each key's own value.
    @Test func successiveKeysAreFoundPastGapsAndOverwrites() throws {
        let environment = try Environment.open(path: directory.path("successive.mdb"))
        let txn = try environment.beginTransaction()
        let db = try txn.openDatabase(named: "kv", create: true)
        var model: [Int: [UInt8]] = [:]
        for number in 0..<2_000 where number % 5 != 3 {
            model[number] = Self.value(number, size: number % 90)
            try txn.put(Self.key(number), model[number]!, in: db)
        }
        for round in 0..<3 {
            for number in 0..<2_100 {
                #expect(try txn.value(for: Self.key(number), in: db) == model[number], "round \(round), key \(number)")
                if number % 4 == round, model[number] != nil {
                    // Sizes change on some rounds, so that the overwrite moves the nodes after it.
                    let value = Self.value(number &+ round, size: round == 1 ? 8 : number % 90)
                    try Self.key(number).withUnsafeBytes { key in
                        try txn.replace(key, reserving: value.count, in: db) { $0.copyBytes(from: value) }
                    }
                    model[number] = value
                }
            }
        }
        try txn.commit()
        let reader = try environment.beginReadTransaction()
        for number in 0..<2_100 {
            #expect(try reader.value(for: Self.key(number), in: db) == model[number], "key \(number)")
        }
    }

    @Test func readLookupsInAnyOrderFollowTheSnapshot() throws {
        let environment = try Environment.open(path: directory.path("reads.mdb"))
        let setup = try environment.beginTransaction()
        let db = try setup.openDatabase(named: "kv", create: true)
        for number in 0..<5_000 { try setup.put(Self.key(number), Self.value(number, size: 40), in: db) }
        try setup.commit()

        let reader = try environment.beginReadTransaction()
        for number in (0..<5_000).reversed() where number % 7 == 0 {
            #expect(try reader.value(for: Self.key(number), in: db) == Self.value(number, size: 40))
        }
        for number in 0..<5_000 where number % 3 == 0 {
            #expect(try reader.value(for: Self.key(number), in: db) == Self.value(number, size: 40))
        }
        #expect(try reader.value(for: Self.key(5_000), in: db) == nil)
        #expect(try reader.value(for: Self.key(10), in: db) == Self.value(10, size: 40))

        let writer = try environment.beginTransaction()
        #expect(try writer.delete(Self.key(11), in: db))
        try writer.put(Self.key(12), [9], in: db)
        try writer.commit()
        #expect(try reader.value(for: Self.key(11), in: db) == Self.value(11, size: 40))
        try reader.renew()
        #expect(try reader.value(for: Self.key(11), in: db) == nil)
        #expect(try reader.value(for: Self.key(12), in: db) == [9])
        #expect(try reader.value(for: Self.key(13), in: db) == Self.value(13, size: 40))
    }
}

/// A seeded linear congruential generator (Knuth's MMIX constants): enough to scatter keys, and
/// a failure replays.
private struct SeededNumbers {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return state >> 17
    }
}
