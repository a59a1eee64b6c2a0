/// The identifier of an asynchronous write or commit, for ``Realm/cancelAsyncWrite(_:)``.
public typealias AsyncTransactionId = UInt32

/// A realm's asynchronous writes and commit callbacks that have not run yet.
///
/// Touched only where the realm is confined (its queue or actor), like the rest of the realm.
final class AsyncWriteQueue {
    private var nextID: AsyncTransactionId = 1
    /// Blocks of ``Realm/beginAsyncWrite(_:)`` and callbacks of ``Realm/commitAsyncWrite(allowGrouping:_:)``
    /// still to run.
    private var scheduled: Set<AsyncTransactionId> = []
    /// Whether a block of ``Realm/beginAsyncWrite(_:)`` is running.
    var isRunningBlock = false

    /// Whether anything asynchronous is pending or running.
    var isBusy: Bool { isRunningBlock || !scheduled.isEmpty }

    /// A new identifier, counted as pending until ``take(_:)`` or ``cancel(_:)``.
    func schedule() -> AsyncTransactionId {
        let id = nextID
        nextID = nextID == .max ? 1 : nextID + 1
        scheduled.insert(id)
        return id
    }

    /// Removes `id`; returns whether it was still pending (not cancelled).
    func take(_ id: AsyncTransactionId) -> Bool { scheduled.remove(id) != nil }

    /// Cancels `id` if it has not run yet.
    func cancel(_ id: AsyncTransactionId) { scheduled.remove(id) }
}
