import CLMDB
import Foundation
import LMDB
import Testing

/// Every fault point of the wrapper, one row each: the planned failure comes back from the call
/// with its code, the call is traced, a failed write call leaves its transaction to be aborted
/// once (its commit refuses, as LMDB's does), and the environment goes on with what was
/// committed before.
@Suite struct FaultPointTests {
    /// A call of the wrapper that reaches one fault point.
    enum Call: String, CaseIterable, CustomTestStringConvertible {
        case begin, renew, get, put, putReserving, replace, cursorPut, cursorPutReserving, delete, cursorDelete, drop,
             openDatabase, commit, growMap, copy

        var testDescription: String { rawValue }

        var point: FaultInjector.Point {
            switch self {
            case .begin: .begin
            case .renew: .renew
            case .get: .get
            case .put, .putReserving: .put
            case .replace, .cursorPut, .cursorPutReserving: .cursorPut
            case .delete, .cursorDelete: .delete
            case .drop: .drop
            case .openDatabase: .openDatabase
            case .commit: .commit
            case .growMap: .growMap
            case .copy: .copy
            }
        }

        /// Whether the call is made inside a write transaction, which must then end.
        var isInWrite: Bool {
            switch self {
            case .begin, .renew, .get, .growMap, .copy: false
            default: true
            }
        }
    }

    let directory = TemporaryDirectory()

    /// An environment whose database `kv` holds `[1] → [1]`, committed.
    private func environment() throws -> (Environment, Database) {
        let environment = try Environment.open(path: directory.path("faults.mdb"))
        let txn = try environment.beginTransaction()
        let database = try txn.openDatabase(named: "kv", create: true)
        try txn.put([1], [1], in: database)
        try txn.commit()
        return (environment, database)
    }

    /// Makes `call` in `write` (or outside a write, for calls that are not in one).
    private func make(_ call: Call, in write: Transaction?, environment: Environment, database: Database) throws {
        let key: [UInt8] = [1], value: [UInt8] = [2]
        switch call {
        case .begin:
            _ = try environment.beginTransaction()
        case .renew:
            let reader = try environment.beginReadTransaction()
            reader.reset()
            try reader.renew()
        case .get:
            _ = try environment.beginReadTransaction().value(for: key, in: database)
        case .put:
            try write!.put([9], value, in: database)
        case .putReserving:
            try [UInt8]([9]).withUnsafeBytes { key in
                try write!.put(key, reserving: 1, in: database) { $0[0] = 2 }
            }
        case .replace:
            _ = try write!.value(for: key, in: database)
            try key.withUnsafeBytes { key in try write!.replace(key, reserving: value.count, in: database) { $0.copyBytes(from: value) } }
        case .cursorPut:
            try [UInt8]([9]).withUnsafeBytes { key in
                try value.withUnsafeBytes { value in try write!.openCursor(database).put(key, value) }
            }
        case .cursorPutReserving:
            try [UInt8]([9]).withUnsafeBytes { key in
                try write!.openCursor(database).put(key, reserving: 1) { $0[0] = 2 }
            }
        case .delete:
            try write!.delete(key, in: database)
        case .cursorDelete:
            let cursor = try write!.openCursor(database)
            _ = try cursor.first()
            try cursor.deleteCurrent()
        case .drop:
            try write!.drop(database)
        case .openDatabase:
            _ = try write!.openDatabase(named: "other", create: true)
        case .commit:
            try write!.put([9], value, in: database)
            try write!.commit()
        case .growMap:
            try environment.growMap(to: environment.mapSize * 2)
        case .copy:
            try environment.copy(to: directory.path("copy.mdb"), compact: true)
        }
    }

    @Test(arguments: Call.allCases, [ENOSPC, EIO])
    func aPlannedFailureComesBackAndLosesNothingCommitted(_ call: Call, _ code: Int32) throws {
        let (environment, database) = try environment()
        let write = call.isInWrite ? try environment.beginTransaction() : nil
        environment.faults.inject(code, at: call.point)
        environment.faults.startTracing()
        #expect(throws: LMDBError(code: code)) { try make(call, in: write, environment: environment, database: database) }
        #expect(environment.faults.pendingCount == 0, "the call did not reach its fault point")
        #expect(environment.faults.trace.contains(call.point))
        if let write {
            if call.point.failsTheTransaction {
                // As in LMDB: a transaction whose write failed cannot commit; the refusal aborts it.
                #expect(throws: LMDBError(code: MDB_BAD_TXN)) { try write.commit() }
            }
            write.abort()
            #expect(!write.isActive)
            #expect(environment.faults.trace.count { $0 == .abort } == 1, "the transaction was aborted \(environment.faults.trace.count { $0 == .abort }) times")
        }
        environment.faults.clear()
        // The writer lock is free, and what was committed before is there.
        let next = try environment.beginTransaction()
        #expect(try next.value(for: [1], in: database) == [1])
        #expect(try next.value(for: [9], in: database) == nil)
        try next.put([9], [9], in: database)
        try next.commit()
        #expect(try environment.beginReadTransaction().value(for: [9], in: database) == [9])
    }

    @Test func callsLetThroughAreTracedInOrder() throws {
        let (environment, database) = try environment()
        environment.faults.startTracing()
        let write = try environment.beginTransaction()
        try write.put([2], [2], in: database)
        try write.delete([1], in: database)
        try write.commit()
        #expect(environment.faults.trace == [.begin, .put, .delete, .commit])
        environment.faults.clear()
        #expect(environment.faults.trace.isEmpty)
    }

    @Test func aFailureCanWaitForLaterCalls() throws {
        let (environment, database) = try environment()
        environment.faults.inject(ENOSPC, at: .put, skipping: 2)
        let write = try environment.beginTransaction()
        try write.put([2], [2], in: database)
        try write.put([3], [3], in: database)
        #expect(throws: LMDBError.noSpace) { try write.put([4], [4], in: database) }
        #expect(environment.faults.pendingCount == 0)
        write.abort()
    }
}
