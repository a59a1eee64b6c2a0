import Foundation

/// Runs work on a thread's run loop: what wakes an observed realm of a thread that runs its
/// `RunLoop` (`RunLoop.current.run(until:)`). A one-shot timer added to the loop wakes it at
/// once; `RunLoop.perform` would wait until something else woke it. A thread that never runs
/// its run loop gets its notifications at its next refresh or write instead; nothing piles up,
/// since a realm has at most one wake-up pending.
final class RunLoopScheduler: @unchecked Sendable {
    private let runLoop: RunLoop

    private init(_ runLoop: RunLoop) {
        self.runLoop = runLoop
    }

    /// A scheduler on the calling thread's run loop.
    static func current() -> @Sendable (@escaping @Sendable () -> Void) -> Void {
        let scheduler = RunLoopScheduler(RunLoop.current)
        return { work in scheduler.schedule(work) }
    }

    private func schedule(_ work: @escaping @Sendable () -> Void) {
        // Adding a timer to another thread's loop is thread-safe, and wakes the loop.
        runLoop.add(Timer(fire: Date(), interval: 0, repeats: false) { _ in work() }, forMode: .default)
    }
}
