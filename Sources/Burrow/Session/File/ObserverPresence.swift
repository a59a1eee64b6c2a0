import Foundation
import LMDB

/// Whether any process observes a file, so that writes nobody observes skip the change log.
///
/// A process with at least one observation of the file holds a shared `flock` on `<file>.notify`
/// (created with the realm's file permissions when first needed); a write tests for an
/// exclusive lock, which it gets only when no process observes. A write that skips the log
/// records its transaction id as `changesUnloggedThrough`, so an observation whose span
/// includes it (one that registered while such a write was under way) knows the log cannot
/// tell and compares versions instead. A process that dies lets go of its lock with it.
final class ObserverPresence: @unchecked Sendable {
    private struct State {
        var observations = 0
        /// The descriptor holding this process's shared lock, while it observes.
        var shared: Int32 = -1
        /// The descriptor writes test with, once the file exists.
        var probe: Int32 = -1
    }

    private let path: String
    private let state = Locked(State())

    init(dataPath: String) {
        path = dataPath + ".notify"
    }

    deinit {
        state.withLock { state in
            if state.shared >= 0 { close(state.shared) }
            if state.probe >= 0 { close(state.probe) }
        }
    }

    /// Counts an observation of this process; the first announces it. When the file cannot be
    /// made (a read-only folder), writes of other processes leave their commits unlogged, which
    /// the observations notice.
    func acquire(mode: mode_t) {
        state.withLock { state in
            state.observations += 1
            guard state.observations == 1 else { return }
            var descriptor = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, mode)
            if descriptor >= 0 {
                fchmod(descriptor, mode)  // the mode asked for, whatever the umask
            } else if errno == EEXIST {
                descriptor = open(path, O_RDWR | O_CLOEXEC)
            }
            guard descriptor >= 0 else { return }
            guard flock(descriptor, LOCK_SH) == 0 else {
                close(descriptor)
                return
            }
            state.shared = descriptor
        }
    }

    /// Ends an observation of this process; the last lets go of the lock.
    func release() {
        state.withLock { state in
            state.observations -= 1
            guard state.observations == 0, state.shared >= 0 else { return }
            flock(state.shared, LOCK_UN)
            close(state.shared)
            state.shared = -1
        }
    }

    /// Whether some process may observe the file now: this one, or one holding the lock.
    var isObserved: Bool {
        state.withLock { state in
            if state.observations > 0 { return true }
            if state.probe < 0 {
                state.probe = open(path, O_RDWR | O_CLOEXEC)
                // Never made: no process ever observed this file.
                if state.probe < 0 { return false }
            }
            guard flock(state.probe, LOCK_EX | LOCK_NB) == 0 else { return true }
            flock(state.probe, LOCK_UN)
            return false
        }
    }
}
