import Dispatch
import LMDB

/// Observation with `on: queue`: the value is handed to a realm confined to the queue, and
/// observed there, so that the block runs on the queue with values it may use.
enum QueueObservation {
    /// Observes `value` through `register`, called on `queue` with the value as the queue's
    /// realm reads it. The token stops the observation wherever it has got to.
    static func observe<Value: ThreadConfined>(_ value: Value, on queue: DispatchQueue,
                                               _ register: @escaping (Value) -> NotificationToken) -> NotificationToken {
        guard let configuration = value.realm?.configuration else {
            burrowPreconditionFailure("Only objects and collections managed by a realm can be observed.")
        }
        burrowPrecondition(!value.isFrozen, "Frozen values do not change and cannot be observed.")
        let reference = ThreadSafeReference(to: value)
        let state = Locked<(token: NotificationToken?, isCancelled: Bool)>((nil, false))
        let outer = NotificationToken {
            state.withLock { state -> NotificationToken? in
                state.isCancelled = true
                defer { state.token = nil }
                return state.token
            }?.invalidate()
        }
        // Runs on the queue only: what it captures is used there and nowhere else.
        nonisolated(unsafe) let start = {
            guard !state.withLock({ $0.isCancelled }) else { return }
            // The file is open in this process: opening it for the queue does not fail but for
            // a lack of reader slots, which leaves the observation without notifications.
            guard let realm = try? Realm(configuration: configuration, queue: queue), let resolved = realm.resolve(reference) else { return }
            let token = register(resolved)
            let cancelled = state.withLock { state -> Bool in
                if !state.isCancelled { state.token = token }
                return state.isCancelled
            }
            if cancelled { token.invalidate() }
        }
        queue.async { start() }
        return outer
    }
}
