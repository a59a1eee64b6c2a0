import Foundation

/// One OS thread that runs the blocks given to ``run(_:)``, one at a time, so that a realm can
/// live across a test's suspension points: a task may resume on another thread, and a realm is
/// confined to the thread that opened it (the main actor too is served by worker threads here).
final class ConfinedThread: @unchecked Sendable {
    /// One block to run; the thread lets go of it before saying it is done, since the caller's
    /// closure must not outlive its call.
    private final class Job {
        var body: (() -> Void)?
        let done = DispatchSemaphore(value: 0)
        init(_ body: @escaping () -> Void) { self.body = body }
    }

    private let condition = NSCondition()
    private var pending: Job?
    private var stopping = false

    init() {
        let thread = Thread { [self] in loop() }
        thread.start()
    }

    /// Runs `body` on the thread and waits for it; rethrows what it throws.
    func run<Result>(_ body: () throws -> Result) throws -> Result {
        try withoutActuallyEscaping(body) { body in
            nonisolated(unsafe) var outcome: Swift.Result<Result, any Error>?
            let job = Job { outcome = Swift.Result { try body() } }
            condition.withLock {
                pending = job
                condition.signal()
            }
            job.done.wait()
            return try outcome!.get()
        }
    }

    /// Ends the thread once it is idle.
    func stop() {
        condition.withLock {
            stopping = true
            condition.signal()
        }
    }

    private func loop() {
        while true {
            let job: Job? = condition.withLock {
                while pending == nil && !stopping { condition.wait() }
                defer { pending = nil }
                return pending
            }
            guard let job else { return }
            job.body?()
            job.body = nil
            job.done.signal()
        }
    }
}
