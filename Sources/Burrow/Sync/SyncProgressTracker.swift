import Foundation
import LMDB

/// What a session has moved each way, and the progress observers it tells: the sync thread
/// reports each batch uploaded and each page of changes downloaded, with what remains, and
/// each observer gets a ``SyncSession/Progress`` when its view of it changed.
///
/// Work is counted in objects uploaded and changes (or, on a first download, rows)
/// downloaded; bytes are those of the changes' text as they travel.
final class SyncProgressTracker: Sendable {
    private struct Counts {
        var bytes = 0
        var units: UInt64 = 0
        var remaining: UInt64 = 0
        /// `units` when the current work began (when something started to wait).
        var workStart: UInt64 = 0
    }

    private struct Observer {
        let direction: SyncSession.ProgressDirection
        let mode: SyncSession.ProgressMode
        let block: @Sendable (SyncSession.Progress) -> Void
        /// For `.forCurrentlyOutstandingWork`: `units` at registration, and the `units` that
        /// complete the work (known at the first report after registration).
        let base: UInt64
        var target: UInt64?
        var last: SyncSession.Progress?
    }

    private struct State {
        var upload = Counts()
        var download = Counts()
        var observers: [UUID: Observer] = [:]
    }

    private let state = Locked(State())

    /// Whether anyone observes `direction`: reports cost a count of the pending records.
    func isObserved(_ direction: SyncSession.ProgressDirection) -> Bool {
        state.withLock { $0.observers.values.contains { $0.direction == direction } }
    }

    /// Whether an observer waits for the end of work outstanding `direction`: a download
    /// observer needs a pull to learn what is outstanding.
    func awaitsOutstandingWork(_ direction: SyncSession.ProgressDirection) -> Bool {
        state.withLock { $0.observers.values.contains { $0.direction == direction && $0.mode == .forCurrentlyOutstandingWork } }
    }

    func add(_ direction: SyncSession.ProgressDirection, mode: SyncSession.ProgressMode,
             block: @escaping @Sendable (SyncSession.Progress) -> Void) -> NotificationToken {
        let id = UUID()
        state.withLock { state in
            let counts = direction == .upload ? state.upload : state.download
            state.observers[id] = Observer(direction: direction, mode: mode, block: block, base: counts.units)
        }
        return NotificationToken { [weak self] in self?.state.withLock { _ = $0.observers.removeValue(forKey: id) } }
    }

    /// Records that `units` more (of `bytes`) moved `direction`, and that `remaining` wait;
    /// tells the observers whose progress changed, on the calling thread.
    func report(_ direction: SyncSession.ProgressDirection, units: UInt64, bytes: Int, remaining: UInt64) {
        let calls = state.withLock { state -> [(@Sendable (SyncSession.Progress) -> Void, SyncSession.Progress)] in
            var counts = direction == .upload ? state.upload : state.download
            if counts.remaining == 0 && remaining > 0 { counts.workStart = counts.units }
            counts.units += units
            counts.bytes += bytes
            counts.remaining = remaining
            if direction == .upload { state.upload = counts } else { state.download = counts }
            var calls: [(@Sendable (SyncSession.Progress) -> Void, SyncSession.Progress)] = []
            for (id, var observer) in state.observers where observer.direction == direction {
                let progress: SyncSession.Progress
                switch observer.mode {
                case .reportIndefinitely:
                    progress = Self.progress(done: counts.units - min(counts.workStart, counts.units), remaining: counts.remaining, counts: counts)
                case .forCurrentlyOutstandingWork:
                    let target = observer.target ?? (counts.units + counts.remaining)
                    observer.target = target
                    let done = counts.units - min(observer.base, counts.units)
                    progress = Self.progress(done: done, remaining: target > counts.units ? target - counts.units : 0, counts: counts)
                }
                if progress != observer.last {
                    observer.last = progress
                    calls.append((observer.block, progress))
                }
                if observer.mode == .forCurrentlyOutstandingWork && progress.isTransferComplete {
                    state.observers[id] = nil
                } else {
                    state.observers[id] = observer
                }
            }
            return calls
        }
        for (block, progress) in calls { block(progress) }
    }

    private static func progress(done: UInt64, remaining: UInt64, counts: Counts) -> SyncSession.Progress {
        let estimate = remaining == 0 ? 1 : Double(done) / Double(done + remaining)
        // The bytes still to go, at the average size of what moved so far.
        let perUnit = counts.units == 0 ? 0 : Double(counts.bytes) / Double(counts.units)
        return SyncSession.Progress(transferredBytes: counts.bytes,
                                    transferrableBytes: counts.bytes + Int(min(perUnit * Double(remaining), Double(Int.max / 2))),
                                    progressEstimate: estimate)
    }
}
