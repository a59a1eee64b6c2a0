import CLMDB
import Synchronization

/// Failures that tests make an environment's LMDB calls return, so that every retry and error
/// path above the wrapper runs under test: the planned call is not made, and its error comes
/// back exactly as LMDB would return it.
///
/// ```swift
/// environment.faults.inject(MDB_READERS_FULL, at: .begin)
/// environment.faults.inject(ENOSPC, at: .commit)     // the commit fails, and the write is gone
/// ```
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
        /// `mdb_txn_commit` (`ENOSPC`, `EIO`, `MDB_MAP_FULL`); as with a real failed commit, the
        /// transaction is freed.
        case commit
    }

    private let armed = Atomic<Bool>(false)
    /// Per point, what the next calls return: a code, or `nil` for a call let through.
    private let planned = Locked<[Point: [Int32?]]>([:])

    package init() {}

    /// Makes `times` calls at `point` fail with `code`, after letting `skipping` calls through.
    package func inject(_ code: Int32, at point: Point, skipping: Int = 0, times: Int = 1) {
        planned.withLock { plans in
            plans[point, default: []].append(contentsOf: repeatElement(nil, count: skipping))
            plans[point, default: []].append(contentsOf: repeatElement(Int32?.some(code), count: times))
        }
        armed.store(true, ordering: .releasing)
    }

    /// Forgets every planned failure.
    package func clear() {
        planned.withLock { $0.removeAll() }
        armed.store(false, ordering: .releasing)
    }

    /// How many planned failures have not happened yet.
    package var pendingCount: Int { planned.withLock { $0.values.reduce(0) { $0 + $1.count { $0 != nil } } } }

    /// The failure planned for this call at `point`, if any, which it uses up.
    @inline(__always)
    func take(_ point: Point) -> Int32? {
        guard armed.load(ordering: .relaxed) else { return nil }
        return planned.withLock { plans -> Int32? in
            guard var codes = plans[point], !codes.isEmpty else { return Int32?.none }
            let code = codes.removeFirst()
            plans[point] = codes.isEmpty ? nil : codes
            if plans.isEmpty { armed.store(false, ordering: .relaxed) }
            return code
        }
    }
}
