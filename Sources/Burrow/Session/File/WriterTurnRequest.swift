import LMDB

/// One task's wait for the writer turn (``RealmSession/writerTurnRequest()``), which the task's
/// cancellation withdraws from the ``WriterGate`` unless the turn came first.
///
/// The turn may be granted, and the task cancelled, on any thread and in any order: the state
/// here makes sure the continuation is resumed exactly once, with `true` when the writer has
/// the turn and `false` when its place was withdrawn.
final class WriterTurnRequest: Sendable {
    private enum Phase {
        /// Not yet in the gate's queue.
        case idle
        /// Queued (`ticket` `nil` until the gate hands it back).
        case waiting(CheckedContinuation<Bool, Never>, ticket: UInt64?)
        /// Cancelled before it was queued; it never will be.
        case cancelledEarly
        /// Resumed.
        case done
    }

    private struct State {
        var phase = Phase.idle
        /// Whether the task was cancelled while its ticket was not known yet.
        var cancelPending = false
    }

    private let state = Locked(State())
    private let gate: WriterGate
    private let writer: ObjectIdentifier

    init(gate: WriterGate, writer: ObjectIdentifier) {
        self.gate = gate
        self.writer = writer
    }

    /// Waits, without blocking a thread, for the writer's turn; returns `false`, without the
    /// turn, when the task is cancelled first.
    func granted() async -> Bool {
        await withTaskCancellationHandler {
            await withCheckedContinuation { start($0) }
        } onCancel: {
            cancel()
        }
    }

    /// Queues the writer, to resume `continuation` once its turn comes (or it is withdrawn).
    private func start(_ continuation: CheckedContinuation<Bool, Never>) {
        let queue = state.withLock { state -> Bool in
            guard case .idle = state.phase else { return false }
            state.phase = .waiting(continuation, ticket: nil)
            return true
        }
        guard queue else { return continuation.resume(returning: false) }
        let ticket = gate.enter(for: writer) { [self] in resume(returning: true) }
        let withdrawNow = state.withLock { state -> Bool in
            guard case .waiting(let waiting, nil) = state.phase, let ticket else { return false }
            state.phase = .waiting(waiting, ticket: ticket)
            return state.cancelPending
        }
        if withdrawNow { withdraw(ticket!) }
    }

    /// Withdraws the writer's place, unless its turn came already.
    private func cancel() {
        let ticket = state.withLock { state -> UInt64? in
            switch state.phase {
            case .idle:
                state.phase = .cancelledEarly
                return nil
            case .waiting(_, let ticket):
                if ticket == nil { state.cancelPending = true }
                return ticket
            case .cancelledEarly, .done:
                return nil
            }
        }
        if let ticket { withdraw(ticket) }
    }

    private func withdraw(_ ticket: UInt64) {
        if gate.withdraw(ticket) { resume(returning: false) }
    }

    private func resume(returning granted: Bool) {
        let continuation = state.withLock { state -> CheckedContinuation<Bool, Never>? in
            guard case .waiting(let continuation, _) = state.phase else { return nil }
            state.phase = .done
            return continuation
        }
        continuation?.resume(returning: granted)
    }
}
