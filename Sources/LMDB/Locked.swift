#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A value guarded by a POSIX mutex.
///
/// Synchronization's `Mutex` waits on a futex directly on Linux, which ThreadSanitizer cannot
/// see: every access made under it is reported as a race, hiding the real ones. A
/// `pthread_mutex_t` costs about the same when uncontended and is understood by the sanitizer,
/// so Burrow's shared state is guarded with this instead.
///
/// ```swift
/// let counters = Locked([String: Int]())
/// counters.withLock { $0["opens", default: 0] += 1 }
/// ```
package final class Locked<State>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var state: State

    package init(_ state: State) {
        self.state = state
        mutex = .allocate(capacity: 1)
        let status = pthread_mutex_init(mutex, nil)
        precondition(status == 0, "Cannot create a mutex (error \(status)).")
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with the state, holding the mutex.
    package func withLock<Result, Failure: Error>(_ body: (inout State) throws(Failure) -> Result) throws(Failure) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&state)
    }
}
