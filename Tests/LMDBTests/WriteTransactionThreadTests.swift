import Foundation
import LMDB
import Testing

/// LMDB's writer lock belongs to the thread that began the write.
@Suite struct WriteTransactionThreadTests {
    @Test func releasingAWriteOnAnotherThreadTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let directory = TemporaryDirectory()
            let environment = try! Environment.open(path: directory.path("t.mdb"))
            let holder = TransactionHolder(try! environment.beginTransaction())
            let thread = Thread { holder.transaction = nil }
            thread.start()
            while true { sleep(1) }
        }
        let output = result.map { String(decoding: $0.standardErrorContent, as: UTF8.self) } ?? ""
        #expect(output.contains("A write transaction was released on another thread"), "\(output)")
    }

    @Test func releasingAWriteOnItsOwnThreadAbortsIt() throws {
        let directory = TemporaryDirectory()
        let environment = try Environment.open(path: directory.path("t.mdb"))
        var txn: Transaction? = try environment.beginTransaction()
        let db = try txn!.openDatabase(named: nil)
        try txn!.put(Array("k".utf8), Array("v".utf8), in: db)
        txn = nil
        // The lock is free again, and nothing was written.
        let next = try environment.beginTransaction()
        #expect(try next.value(for: Array("k".utf8), in: db) == nil)
        next.abort()
    }
}

/// Hands a transaction to another thread, which releases it.
private final class TransactionHolder: @unchecked Sendable {
    var transaction: Transaction?
    init(_ transaction: Transaction) { self.transaction = transaction }
}
