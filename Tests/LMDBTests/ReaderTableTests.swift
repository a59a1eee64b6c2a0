import Foundation
import LMDB
import Testing

/// LMDB's reader table as Burrow reads it: the versions readers hold, and running out of slots.
@Suite struct ReaderTableTests {
    let directory = TemporaryDirectory()

    @Test func activeReadersListTheVersionsTheyHold() throws {
        let environment = try Environment.open(path: directory.path("readers.mdb"))
        let write = try environment.beginTransaction()
        _ = try write.openDatabase(named: "d", create: true)
        try write.commit()
        let first = try environment.beginReadTransaction()
        let writer = try environment.beginTransaction()
        try writer.put(Array("k".utf8), Array("v".utf8), in: try writer.openDatabase(named: "d"))
        try writer.commit()
        let second = try environment.beginReadTransaction()
        let readers = environment.activeReaders()
        #expect(Set(readers.map(\.transactionID)) == [first.id, second.id])
        #expect(readers.allSatisfy { $0.processID == getpid() })
        // A reset transaction keeps its slot but holds no version.
        first.reset()
        #expect(environment.activeReaders().map(\.transactionID) == [second.id])
    }

    @Test func runningOutOfReaderSlotsThrowsInsteadOfWaiting() throws {
        var options = Environment.Options()
        options.maxReaders = 3
        let environment = try Environment.open(path: directory.path("few.mdb"), options: options)
        let held = try (0..<environment.readerSlotCount).map { _ in try environment.beginReadTransaction() }
        #expect(throws: LMDBError.readersFull) { _ = try environment.beginReadTransaction() }
        held[0].abort()
        #expect(throws: Never.self) { _ = try environment.beginReadTransaction() }
    }
}
