import LMDB
import Synchronization

/// Keeps an observation going: notifications stop when it is invalidated (or released).
///
/// ```swift
/// let token = results.observe { change in print(change) }
/// // …
/// token.invalidate()
/// ```
/// Invalidating is safe from any thread; a notification already being delivered finishes.
public final class NotificationToken: Sendable {
    private let invalidated = Atomic<Bool>(false)
    /// Removes the observation from where it is registered; called once.
    private let unregister: Locked<(@Sendable () -> Void)?>

    init(unregister: @escaping @Sendable () -> Void) {
        self.unregister = Locked(unregister)
    }

    /// Whether ``invalidate()`` was called.
    var isInvalidated: Bool { invalidated.load(ordering: .acquiring) }

    /// Stops the notifications. Calling it again does nothing.
    public func invalidate() {
        invalidated.store(true, ordering: .releasing)
        let action = unregister.withLock { action in
            defer { action = nil }
            return action
        }
        action?()
    }

    deinit {
        invalidate()
    }
}
