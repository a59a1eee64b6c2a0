import Dispatch
import Foundation
import LMDB

/// A thread of its own that runs the jobs it is given, one at a time, in order.
///
/// The outermost transaction of a group of writes (``WriteGroup``) begins and commits here:
/// LMDB's writer lock belongs to the thread that took it, while the writes of a group run on
/// their realms' queues and actors, whose threads change from one job to the next.
final class CommitThread: Sendable {
    private struct Jobs {
        var pending: [@Sendable () -> Void] = []
        var stopping = false
    }

    private let jobs = Locked(Jobs())
    private let wake = DispatchSemaphore(value: 0)

    init(name: String) {
        let jobs = jobs, wake = wake
        let thread = Thread {
            while true {
                wake.wait()
                let job = jobs.withLock { jobs -> (@Sendable () -> Void)? in
                    jobs.pending.isEmpty ? nil : jobs.pending.removeFirst()
                }
                guard let job else { return }  // woken with nothing to do: stopped
                job()
            }
        }
        thread.name = name
        thread.start()
    }

    deinit {
        stop()
    }

    /// Runs `job` on the thread after the jobs already given.
    func async(_ job: @escaping @Sendable () -> Void) {
        let accepted = jobs.withLock { jobs -> Bool in
            guard !jobs.stopping else { return false }
            jobs.pending.append(job)
            return true
        }
        precondition(accepted, "A job was given to a commit thread that has stopped.")
        wake.signal()
    }

    /// Runs `job` on the thread and waits for what it returns.
    func sync<Result>(_ job: @escaping () -> Result) -> Result {
        // The caller waits while the thread runs `job`: nothing touches it from two threads.
        // The thread lets go of `job` before the caller goes on, so that what it holds is not
        // kept alive past the call.
        nonisolated(unsafe) var job: (() -> Result)? = job
        nonisolated(unsafe) var outcome: Result?
        let done = DispatchSemaphore(value: 0)
        async {
            outcome = job?()
            job = nil
            done.signal()
        }
        done.wait()
        return outcome!
    }

    /// Ends the thread once the jobs already given have run.
    func stop() {
        let wasRunning = jobs.withLock { jobs -> Bool in
            defer { jobs.stopping = true }
            return !jobs.stopping
        }
        if wasRunning { wake.signal() }
    }
}
