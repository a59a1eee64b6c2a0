import Foundation
@testable import LMDB
import Testing

/// A sealer for tests: XORs the plaintext with a byte and appends a checksum of the database,
/// the key and the plaintext, so that tampering, moving and the wrong mask all fail to open.
private final class MaskingSealer: ValueSealer {
    let mask: UInt8
    init(mask: UInt8) { self.mask = mask }

    var sealingOverhead: Int { 8 }

    private func checksum(_ plaintext: some Sequence<UInt8>, database: UInt64, key: UnsafeRawBufferPointer) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325 ^ database
        for byte in Array(key) + Array(plaintext) + [mask] { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        return hash
    }

    func seal(_ plaintext: UnsafeRawBufferPointer, into sealed: UnsafeMutableRawBufferPointer, database: UInt64, key: UnsafeRawBufferPointer) {
        for (index, byte) in plaintext.enumerated() { sealed[index] = byte ^ mask }
        withUnsafeBytes(of: checksum(plaintext, database: database, key: key)) { sum in
            for (index, byte) in sum.enumerated() { sealed[plaintext.count + index] = byte }
        }
    }

    func open(_ sealed: UnsafeRawBufferPointer, into plaintext: UnsafeMutableRawBufferPointer, database: UInt64, key: UnsafeRawBufferPointer) -> Bool {
        for index in plaintext.indices { plaintext[index] = sealed[index] ^ mask }
        let stored = sealed[plaintext.count...].reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        return stored == checksum(plaintext, database: database, key: key)
    }
}

@Suite struct SealedDatabaseTests {
    let directory = TemporaryDirectory()

    private func environment(mask: UInt8? = 0x5A) throws -> Environment {
        var options = Environment.Options()
        options.sealer = mask.map { MaskingSealer(mask: $0) }
        return try Environment.open(path: directory.path("sealed.mdb"), options: options)
    }

    private let alpha = Array("alpha".utf8), beta = Array("beta".utf8)

    @Test func everyWayOfWritingAndReadingPassesThroughTheSealer() throws {
        let environment = try environment()
        let txn = try environment.beginTransaction()
        let db = try txn.openDatabase(named: "kv", create: true, sealed: true)
        let plain = try txn.openDatabase(named: "plain", create: true)
        #expect(db.sealID != 0 && plain.sealID == 0)
        try txn.put(alpha, Array("one".utf8), in: db)
        try Array("gamma".utf8).withUnsafeBytes { key in
            try txn.put(key, reserving: 3, in: db) { $0.copyBytes(from: "three".utf8.prefix(3)) }
        }
        try alpha.withUnsafeBytes { key in
            try txn.replace(key, reserving: 3, in: db) { $0.copyBytes(from: Array("two".utf8)) }
        }
        let cursor = try txn.openCursor(db)
        try beta.withUnsafeBytes { key in try Array("bee".utf8).withUnsafeBytes { try cursor.put(key, $0) } }
        try txn.put(beta, [], in: plain)
        #expect(try txn.value(for: alpha, in: db) == Array("two".utf8))
        try txn.commit()

        let reader = try environment.beginReadTransaction()
        #expect(try reader.value(for: alpha, in: db) == Array("two".utf8))
        #expect(try reader.value(for: Array("gamma".utf8), in: db) == Array("thr".utf8))
        var walked: [String] = []
        let walk = try reader.openCursor(db)
        var entry = try walk.first()
        while let (key, value) = entry {
            walked.append("\(String(decoding: key, as: UTF8.self))=\(String(decoding: value, as: UTF8.self))")
            entry = try walk.next()
        }
        #expect(walked == ["alpha=two", "beta=bee", "gamma=thr"])
        // What the file holds is the sealed form, 8 bytes longer.
        let raw = try reader.value(for: alpha, in: Database(handle: db.handle))
        #expect(raw?.count == 3 + 8 && raw?.prefix(3).elementsEqual("two".utf8.map { $0 ^ 0x5A }) == true)
    }

    @Test func aValueMovedOrChangedDoesNotOpen() throws {
        let environment = try environment()
        let txn = try environment.beginTransaction()
        let db = try txn.openDatabase(named: "kv", create: true, sealed: true)
        try txn.put(alpha, Array("one".utf8), in: db)
        let stored = try #require(try txn.value(for: alpha, in: Database(handle: db.handle)))
        try txn.put(beta, stored, in: Database(handle: db.handle))
        #expect(throws: LMDBError.sealBroken) { try txn.value(for: beta, in: db) }
        var changed = stored
        changed[0] ^= 1
        try txn.put(alpha, changed, in: Database(handle: db.handle))
        #expect(throws: LMDBError.sealBroken) { try txn.value(for: alpha, in: db) }
        try txn.put(alpha, [1, 2], in: Database(handle: db.handle))  // shorter than the overhead
        #expect(throws: LMDBError.sealBroken) { try txn.value(for: alpha, in: db) }
        let cursor = try txn.openCursor(db)
        #expect(throws: LMDBError.sealBroken) { try cursor.first() }
        #expect(cursor.keyOfBrokenSeal == alpha)
        #expect(LMDBError.sealBroken.description.contains("authentication"))
    }

    @Test func aCursorWhoseValuesLastUntilItMovesOpensEachIntoItsOwnBuffer() throws {
        let environment = try environment()
        let writer = try environment.beginTransaction()
        let db = try writer.openDatabase(named: "kv", create: true, sealed: true)
        let values: [[UInt8]] = [Array("one".utf8), [], Array(repeating: 7, count: 5_000), Array("four é🦫".utf8), Array("five".utf8)]
        for (index, value) in values.enumerated() { try writer.put([UInt8(index)], value, in: db) }
        try writer.commit()

        // A value kept from a walk's buffer outlives the buffer, and a point read finds it.
        let fresh = try environment.beginReadTransaction()
        let walker = try fresh.openCursor(db, valuesLastUntilMove: true)
        let fifth = try [UInt8(4)].withUnsafeBytes { try #require(try walker.seek(exactly: $0)) }
        let scratch = fifth.value.baseAddress
        try [UInt8(4)].withUnsafeBytes { fresh.keepOpened(fifth.value, key: $0, in: db) }
        _ = try walker.first()
        let keptFifth = try [UInt8(4)].withUnsafeBytes { try #require(try fresh.unsafeValue(for: $0, in: db)) }
        #expect(Array(keptFifth) == values[4] && keptFifth.baseAddress != scratch)
        fresh.abort()

        let reader = try environment.beginReadTransaction()
        // A value the transaction opened and kept before is found where it was kept.
        let remembered = try [UInt8(0)].withUnsafeBytes { try #require(try reader.unsafeValue(for: $0, in: db)) }
        let kept = try reader.openCursor(db)
        let passing = try reader.openCursor(db, valuesLastUntilMove: true)
        var read: [[UInt8]] = []
        var places: [UnsafeRawPointer?] = []
        var entry = try passing.first()
        while let (key, value) = entry {
            read.append(Array(value))
            places.append(value.baseAddress)
            // The same entry through a cursor that keeps what it opens: the same bytes elsewhere.
            let other = try kept.seek(exactly: key)
            #expect(other.map { Array($0.value) } == Array(value))
            if !value.isEmpty && read.count > 1 { #expect(other?.value.baseAddress != value.baseAddress) }
            entry = try passing.next()
        }
        #expect(read == values)
        #expect(places[0] == remembered.baseAddress)
        // One buffer, grown once for the long value: the short values after it share its place.
        #expect(places[3] == places[4] && places[2] != places[0])
        // What the kept cursor opened is still readable after the other moved on.
        let first = try #require(try kept.first())
        _ = try passing.first()
        #expect(Array(first.value) == values[0])

        // A value that does not open is reported as any sealed value is.
        let breaker = try environment.beginTransaction()
        var stored = try #require(try breaker.value(for: [UInt8(4)], in: Database(handle: db.handle)))
        stored[0] ^= 1
        try breaker.put([UInt8(4)], stored, in: Database(handle: db.handle))
        let walk = try breaker.openCursor(db, valuesLastUntilMove: true)
        _ = try [UInt8(3)].withUnsafeBytes { try walk.seek(exactly: $0) }
        #expect(throws: LMDBError.sealBroken) { try walk.next() }
        #expect(walk.keyOfBrokenSeal == [4])
        breaker.abort()
    }

    @Test func openedValuesLiveAsLongAsTheVersionTheyWereReadAt() throws {
        let environment = try environment()
        let writer = try environment.beginTransaction()
        let db = try writer.openDatabase(named: "kv", create: true, sealed: true)
        try writer.put(alpha, Array("one".utf8), in: db)
        try writer.commit()
        let reader = try environment.beginReadTransaction()
        let first = try alpha.withUnsafeBytes { try #require(try reader.unsafeValue(for: $0, in: db)) }
        // A second read of the same version finds the same opened bytes.
        let again = try alpha.withUnsafeBytes { try #require(try reader.unsafeValue(for: $0, in: db)) }
        #expect(first.baseAddress == again.baseAddress)
        // Renewed at the same version, what was read stays valid.
        try reader.renew()
        #expect(Array(first) == Array("one".utf8))
        let update = try environment.beginTransaction()
        try update.put(alpha, Array("uno".utf8), in: db)
        try update.commit()
        try reader.renew()
        #expect(try reader.value(for: alpha, in: db) == Array("uno".utf8))
    }

    @Test func valuesLongerThanAChunkAndManySmallOnesAllStayReadable() throws {
        let environment = try environment()
        let writer = try environment.beginTransaction()
        let db = try writer.openDatabase(named: "kv", create: true, sealed: true)
        let large = (0..<200_000).map { UInt8(truncatingIfNeeded: $0) }
        try writer.put(Array("large".utf8), large, in: db)
        for index in 0..<2_000 { try writer.put(Array("small \(index)".utf8), Array(repeating: UInt8(index % 251), count: 100), in: db) }
        try writer.commit()
        let reader = try environment.beginReadTransaction()
        var held: [(Int, UnsafeRawBufferPointer)] = []
        for index in 0..<2_000 {
            let value = try Array("small \(index)".utf8).withUnsafeBytes { try #require(try reader.unsafeValue(for: $0, in: db)) }
            held.append((index, value))
            if index == 1_000 { #expect(try reader.value(for: Array("large".utf8), in: db) == large) }
        }
        // Every value read in this version is still intact: none was overwritten by a later one.
        #expect(held.allSatisfy { index, value in value.count == 100 && value.allSatisfy { $0 == UInt8(index % 251) } })
    }

    @Test func sealedDatabasesOfAnEnvironmentWithoutASealerStoreValuesAsTheyAre() throws {
        let environment = try environment(mask: nil)
        let txn = try environment.beginTransaction()
        let db = try txn.openDatabase(named: "kv", create: true, sealed: true)
        #expect(db.sealID == 0)
        try txn.put(alpha, Array("one".utf8), in: db)
        #expect(try txn.value(for: alpha, in: db) == Array("one".utf8))
    }
}
