import CLMDB
import Synchronization

/// Failures that tests make an environment's LMDB calls return, so that every retry and error
/// path above the wrapper runs under test: the planned call is not made, and its error comes
/// back exactly as LMDB would return it.
///
/// ```swift
/// environment.faults.inject(MDB_READERS_FULL, at: .begin)
/// environment.faults.inject(ENOSPC, at: .commit)     // the commit fails, and the write is gone
/// environment.faults.startTracing()                   // then: environment.faults.trace
/// ```
///
/// A failed write call (``Point/failsTheTransaction``) marks the transaction failed, as LMDB
/// does: its commit aborts it and throws `MDB_BAD_TXN`.
///
/// Nothing is planned outside tests; an unarmed injector costs one relaxed load per call.
package final class FaultInjector: Sendable {
    /// The calls a failure can be planned for.
    package enum Point: Hashable, Sendable {
        /// `mdb_txn_begin`, for read and write transactions (`MDB_READERS_FULL`, `MDB_MAP_RESIZED`).
        case begin
        /// `mdb_txn_renew` of a read transaction.
        case renew
        /// A read: `mdb_get` or `mdb_cursor_get` (`EIO`, `MDB_CORRUPTED`).
        case get
        /// `mdb_put` of a write transaction (`MDB_MAP_FULL`, `ENOSPC`).
        case put
        /// `mdb_cursor_put`: every update of a stored row in place, and writes through a cursor.
        case cursorPut
        /// `mdb_del` and `mdb_cursor_del`.
        case delete
        /// `mdb_drop`: emptying or removing a database.
        case drop
        /// `mdb_dbi_open`: opening or creating a database.
        case openDatabase
        /// `mdb_txn_commit` (`ENOSPC`, `EIO`, `MDB_MAP_FULL`); as with a real failed commit, the
        /// transaction is freed.
        case commit
        /// `mdb_txn_abort`, which cannot fail: traced only, so that a test sees each abort.
        case abort
        /// `mdb_env_set_mapsize` growing the map ahead of a write.
        case growMap
        /// `mdb_env_copyfd2`: copies and compaction.
        case copy

        /// The points whose failure leaves a write transaction unusable: LMDB marks it failed,
        /// and its commit then aborts it and returns `MDB_BAD_TXN`.
        package var failsTheTransaction: Bool {
            switch self {
            case .put, .cursorPut, .delete, .drop: true
            default: false
            }
        }
    }

    /// Whether failures are planned or calls traced: one relaxed load tells an unarmed call.
    private let armed = Atomic<Bool>(false)
    /// Per point, what the next calls return: a code, or `nil` for a call let through.
    private let planned = Locked<[Point: [Int32?]]>([:])
    /// The calls made at every point since ``startTracing()``, in order, failed or not; `nil`
    /// when not tracing.
    private let calls = Locked<[Point]?>(nil)

    package init() {}

    /// Makes `times` calls at `point` fail with `code`, after letting `skipping` calls through.
    package func inject(_ code: Int32, at point: Point, skipping: Int = 0, times: Int = 1) {
        planned.withLock { plans in
            plans[point, default: []].append(contentsOf: repeatElement(nil, count: skipping))
            plans[point, default: []].append(contentsOf: repeatElement(Int32?.some(code), count: times))
        }
        armed.store(true, ordering: .releasing)
    }

    /// Forgets every planned failure, and stops tracing.
    package func clear() {
        planned.withLock { $0.removeAll() }
        calls.withLock { $0 = nil }
        armed.store(false, ordering: .releasing)
    }

    /// Records every call at every point from now on (``trace``).
    package func startTracing() {
        calls.withLock { $0 = [] }
        armed.store(true, ordering: .releasing)
    }

    /// The calls made since ``startTracing()``, in order.
    package var trace: [Point] { calls.withLock { $0 ?? [] } }

    /// How many planned failures have not happened yet.
    package var pendingCount: Int { planned.withLock { $0.values.reduce(0) { $0 + $1.count { $0 != nil } } } }

    /// The failure planned for this call at `point`, if any, which it uses up.
    @inline(__always)
    func take(_ point: Point) -> Int32? {
        guard armed.load(ordering: .relaxed) else { return nil }
        return takeArmed(point)
    }

    @inline(never)
    private func takeArmed(_ point: Point) -> Int32? {
        let tracing = calls.withLock { calls -> Bool in
            calls?.append(point)
            return calls != nil
        }
        return planned.withLock { plans -> Int32? in
            guard var codes = plans[point], !codes.isEmpty else { return Int32?.none }
            let code = codes.removeFirst()
            plans[point] = codes.isEmpty ? nil : codes
            if plans.isEmpty && !tracing { armed.store(false, ordering: .relaxed) }
            return code
        }
    }
}
