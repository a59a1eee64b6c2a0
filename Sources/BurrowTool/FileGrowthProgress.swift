import Foundation
import Synchronization

/// A progress line for a copy LMDB writes without a progress hook (`compact`, `copy`): the
/// size of the file being written, redrawn from a thread of its own a few times a second,
/// only when standard error is a terminal (and not with `--quiet`).
final class FileGrowthProgress: Sendable {
    private let stopped = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)
    private let isShown: Bool

    /// Follows the first of `paths` that exists.
    init(paths: [String], label: String, quiet: Bool) {
        isShown = !quiet && isatty(STDERR_FILENO) == 1
        guard isShown else { return }
        Thread.detachNewThread { [self] in
            var progress = Progress(label: label, unit: "MB written", quiet: quiet)
            var info = stat()
            func measure() {
                if paths.contains(where: { stat($0, &info) == 0 }) { progress.advance(to: Int(info.st_size) >> 20) }
            }
            while !stopped.load(ordering: .acquiring) {
                measure()
                usleep(100_000)
            }
            // The last size, once the copy is complete.
            measure()
            progress.finish()
            finished.signal()
        }
    }

    /// Stops the line, ending it, before the command prints its result.
    func stop() {
        guard isShown else { return }
        stopped.store(true, ordering: .releasing)
        finished.wait()
    }
}
