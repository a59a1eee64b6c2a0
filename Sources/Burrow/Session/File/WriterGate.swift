import LMDB
import Dispatch

/// This process's writers of one file, served in the order they asked.
///
/// LMDB's writer mutex is not fair: a thread that releases it often takes it straight back
/// while others wait for seconds. Writers queue here first, so only the one whose turn it is
/// contends for LMDB's mutex (with other processes). Synchronous writers wait on a semaphore of
/// their own thread; asynchronous ones (``Realm/asyncWrite(_isolation:_:)``,
/// ``Realm/beginAsyncWrite(_:)``) leave a callback and never block a thread.
///
/// A turn granted to an asynchronous writer is held for its realm until the writer runs on the
/// realm's queue or actor. A synchronous write of that same realm in the meantime borrows the
/// turn instead of waiting for a writer that cannot run before it ends.
///
/// With its turn here, a writer takes the process's turn among the processes writing the file
/// (``Environment/lockWriterTurn()``) before LMDB's mutex: a synchronous writer on its own
/// thread; an asynchronous one at once when no other process has the turn, else on a Dispatch
/// thread that waits for it, never on the caller's, so an actor's `asyncWrite` waits for
/// another process without blocking a thread of the cooperative pool.
final class WriterGate: Sendable {
    private enum Phase {
        /// A write is under way.
        case writing
        /// Granted to an asynchronous writer that has not started yet.
        case granted
        /// Granted to an asynchronous writer, and lent to a synchronous write of its realm.
        case borrowed
    }

    private enum Wake {
        case thread(DispatchSemaphore)
        case callback(@Sendable () -> Void)
    }

    private struct Waiter {
        let realm: ObjectIdentifier
        let wake: Wake
        /// What an asynchronous writer withdraws its place with (``withdraw(_:)``).
        var ticket: UInt64 = 0
    }

    private struct State {
        var holder: (realm: ObjectIdentifier, phase: Phase)?
        var waiters: [Waiter] = []
        var lastTicket: UInt64 = 0
    }

    private let state = Locked(State())
    /// The file's environment, whose process-wide writer turn goes with this gate's.
    private let environment: Environment

    init(environment: Environment) {
        self.environment = environment
    }

    /// How many writers wait for their turn.
    var waitingCount: Int { state.withLock { $0.waiters.count } }

    /// Whether the writer that has waited longest is asynchronous (it left a callback).
    var firstWaiterIsAsynchronous: Bool {
        state.withLock { state in
            guard case .callback = state.waiters.first?.wake else { return false }
            return true
        }
    }

    /// Waits, blocking the thread, until it is `realm`'s turn to write.
    func enter(for realm: ObjectIdentifier) {
        enum Turn { case now, borrowed, after(DispatchSemaphore) }
        let turn = state.withLock { state -> Turn in
            guard let holder = state.holder else {
                state.holder = (realm, .writing)
                return .now
            }
            if holder.realm == realm, holder.phase == .granted {
                state.holder = (realm, .borrowed)
                return .borrowed  // the process's turn is already held for the lender
            }
            let semaphore = DispatchSemaphore(value: 0)
            state.waiters.append(Waiter(realm: realm, wake: .thread(semaphore)))
            return .after(semaphore)
        }
        switch turn {
        case .borrowed: return
        case .now: break
        case .after(let semaphore): semaphore.wait()
        }
        environment.lockWriterTurn()
    }

    /// Calls `granted` (on whatever thread hands the turn over) once it is `realm`'s turn; the
    /// writer then ``claim(for:)``s it where its realm lives. Returns the ticket of the writer's
    /// place in the queue, to ``withdraw(_:)`` it; `nil` when the turn was granted at once.
    @discardableResult
    func enter(for realm: ObjectIdentifier, whenGranted granted: @escaping @Sendable () -> Void) -> UInt64? {
        let ticket = state.withLock { state -> UInt64? in
            guard state.holder == nil else {
                state.lastTicket += 1
                state.waiters.append(Waiter(realm: realm, wake: .callback(granted), ticket: state.lastTicket))
                return state.lastTicket
            }
            state.holder = (realm, .granted)
            return nil
        }
        if ticket == nil { grantAfterProcessTurn(granted) }
        return ticket
    }

    /// Takes the asynchronous writer with `ticket` out of the queue, unless its turn came
    /// already; returns whether it did (its `granted` is then never called).
    func withdraw(_ ticket: UInt64) -> Bool {
        state.withLock { state in
            guard let place = state.waiters.firstIndex(where: { $0.ticket == ticket }) else { return false }
            state.waiters.remove(at: place)
            return true
        }
    }

    /// Takes the process's turn, then calls `granted`: at once when no other process has the
    /// turn, else on a Dispatch thread that waits for it.
    private func grantAfterProcessTurn(_ granted: @escaping @Sendable () -> Void) {
        if environment.tryLockWriterTurn() {
            granted()
            return
        }
        let environment = self.environment
        DispatchQueue.global().async {
            environment.lockWriterTurn()
            granted()
        }
    }

    /// Starts the write of the asynchronous writer that was granted the turn.
    func claim(for realm: ObjectIdentifier) {
        state.withLock { state in
            burrowPrecondition(state.holder?.realm == realm && state.holder?.phase == .granted,
                               "An asynchronous write started without its turn.")
            state.holder = (realm, .writing)
        }
    }

    /// What ``passWithinGroup(from:accepting:)`` did.
    enum GroupPass {
        /// The turn went to the asynchronous writer that has waited longest, to join the group.
        case passed
        /// Nothing: the turn is lent to a synchronous write of its realm, to go back to it.
        case lent
        /// Nothing: the group must commit before the turn goes on (with ``leave(for:)``).
        case ended
    }

    /// Hands `realm`'s turn to the asynchronous writer that has waited longest, keeping the
    /// process's turn for the open group of writes, when the first to wait is asynchronous and
    /// the group is `accepting` its realm: a thread waiting for its turn waits for the group's
    /// commit. `accepting` is called with the gate locked.
    func passWithinGroup(from realm: ObjectIdentifier, accepting: (ObjectIdentifier) -> Bool) -> GroupPass {
        enum Decision { case pass(@Sendable () -> Void), lent, ended }
        let decision = state.withLock { state -> Decision in
            burrowPrecondition(state.holder?.realm == realm, "A write ended that did not hold the writer's turn.")
            if state.holder?.phase == .borrowed { return .lent }
            guard let first = state.waiters.first, case .callback(let granted) = first.wake, accepting(first.realm) else { return .ended }
            state.waiters.removeFirst()
            state.holder = (first.realm, .granted)
            return .pass(granted)
        }
        switch decision {
        case .pass(let granted):
            granted()
            return .passed
        case .lent: return .lent
        case .ended: return .ended
        }
    }

    /// Ends `realm`'s write: a borrowed turn goes back to its asynchronous writer, any other
    /// goes to the writer that has waited longest.
    func leave(for realm: ObjectIdentifier) {
        let next = state.withLock { state -> Wake? in
            burrowPrecondition(state.holder?.realm == realm, "A write ended that did not hold the writer's turn.")
            if state.holder?.phase == .borrowed {
                state.holder = (realm, .granted)
                return nil
            }
            environment.unlockWriterTurn()
            guard !state.waiters.isEmpty else {
                state.holder = nil
                return nil
            }
            let waiter = state.waiters.removeFirst()
            if case .callback = waiter.wake {
                state.holder = (waiter.realm, .granted)
            } else {
                state.holder = (waiter.realm, .writing)
            }
            return waiter.wake
        }
        switch next {
        case .thread(let semaphore): semaphore.signal()
        case .callback(let granted): grantAfterProcessTurn(granted)
        case nil: break
        }
    }
}
