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

    /// The token of an observation that never began (its task was cancelled, or its realm did
    /// not open): invalidated already, as RealmSwift hands it out.
    static func neverStarted() -> NotificationToken {
        let token = NotificationToken {}
        token.invalidate()
        return token
    }

    /// Whether ``invalidate()`` was called.
    var isInvalidated: Bool { invalidated.load(ordering: .acquiring) }

    /// Stops the notifications. Calling it again does nothing.
    ///
    /// Returns whether the token was valid until this call, as RealmSwift's does: `false`
    /// when it was invalidated already (by an earlier call, or by the observation ending, as an
    /// observation from a cancelled task does).
    ///
    /// ```swift
    /// if !token.invalidate() { print("already stopped") }
    /// ```
    @discardableResult
    public func invalidate() -> Bool {
        let wasValid = !invalidated.exchange(true, ordering: .acquiringAndReleasing)
        let action = unregister.withLock { action in
            defer { action = nil }
            return action
        }
        action?()
        return wasValid
    }

    deinit {
        invalidate()
    }
}
