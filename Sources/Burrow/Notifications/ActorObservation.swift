/// Observation with `on: actor`: the value is handed to a realm isolated to the actor and
/// observed there, so that the block runs isolated to the actor with values it may use.
enum ActorObservation {
    /// Observes `value` through `register`, called isolated to `actor` with the value as the
    /// actor's realm reads it, once that realm is open; returns the token `register` made.
    ///
    /// Traps for an unmanaged or frozen value, as the other forms of `observe` do.
    static func observe<Value: ThreadConfined, A: Actor>(
        _ value: Value, on actor: A, _isolation: isolated (any Actor)? = #isolation,
        _ register: @escaping @Sendable (isolated A, Value) -> NotificationToken
    ) async -> NotificationToken {
        guard let configuration = value.realm?.configuration else {
            burrowPreconditionFailure("Change notifications are only supported for managed objects and collections.")
        }
        burrowPrecondition(!value.isFrozen, "Frozen values do not change and cannot be observed.")
        let reference = ThreadSafeReference(to: value)
        return await actor.runIsolated { actor in
            // The file is open in this process: opening it for the actor does not fail but for
            // a lack of reader slots, which leaves the observation without notifications.
            guard !Task.isCancelled,
                  let realm = try? await Realm.open(configuration: configuration),
                  let resolved = realm.resolve(reference) else { return NotificationToken.neverStarted() }
            return register(actor, resolved)
        }
    }
}

extension Actor {
    /// Runs `body` isolated to the actor.
    fileprivate func runIsolated<T: Sendable>(_ body: @Sendable (isolated Self) async -> T) async -> T {
        await body(self)
    }

    /// Calls `block` from a notification delivered on the actor's executor, where the actor's
    /// realm delivers it.
    func deliverIsolated<Change>(_ block: @Sendable (isolated Self, Change) -> Void, _ change: Change) {
        // The change was made on this executor for this call, and is used nowhere else.
        nonisolated(unsafe) let change = change
        assumeIsolated { block($0, change) }
    }
}
