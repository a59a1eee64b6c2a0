import Foundation

/// When ``Results/subscribe(name:waitForSync:timeout:)`` returns.
public enum WaitForSyncMode: Sendable {
    /// Waits for the download when the subscription is new, not when it was there.
    case onCreation
    /// Waits for the download, then for every change the server had, each time.
    case always
    /// Returns at once.
    case never
}

extension Results where Element: Object {
    /// Subscribes to the objects these results select, so that the server's matching objects
    /// download to the file, and returns the results.
    ///
    /// ```swift
    /// let mine = try await realm.objects(Task.self).where { $0.owner == "ana" }.subscribe(name: "mine")
    /// ```
    ///
    /// Results of a realm's objects only (not of a list's), without sorting or limits; a
    /// realm that is not synced traps.
    ///
    /// - Throws: ``SyncError/Code/invalidSubscription`` for a query that has no SQL form;
    ///   ``SyncError`` when the session stops first, or after `timeout` seconds.
    @MainActor
    public func subscribe(name: String? = nil, waitForSync: WaitForSyncMode = .onCreation,
                          timeout: TimeInterval? = nil) async throws -> Results<Element> {
        guard let realm, let session = realm.syncSession else {
            burrowPreconditionFailure("Only results of a synced realm can be subscribed to.")
        }
        let subscriptions = session.subscriptions
        let before = subscriptions.committed.version
        let version = try subscriptions.commit {
            subscriptions.append(QuerySubscription<Element>(name: name, node: subscriptionNode))
        }
        let waits = waitForSync == .always || (waitForSync == .onCreation && version != before)
        guard waits else { return self }
        try await Self.within(timeout) {
            try await subscriptions.waitUntilApplied(version)
            if waitForSync == .always { try await session.wait(for: .download) }
        }
        realm.refresh()
        return self
    }

    /// Removes the subscription these results made, named or not; returns at once.
    public func unsubscribe() {
        guard let realm, let session = realm.syncSession else {
            burrowPreconditionFailure("Only results of a synced realm can be unsubscribed from.")
        }
        let subscriptions = session.subscriptions
        let node = subscriptionNode
        _ = try? subscriptions.commit { subscriptions.remove(QuerySubscription<Element>(name: nil, node: node), anyName: true) }
    }

    /// The query of these results, which must select from the class's objects.
    private var subscriptionNode: PredicateNode {
        let query = core.query
        guard case .table = query.source, query.steps.isEmpty else {
            burrowPreconditionFailure("Only results of a realm's objects, not sorted, distinct or limited, can be subscribed to.")
        }
        return query.predicate ?? .constant(true)
    }

    /// Runs `body`, failing after `timeout` seconds when given.
    private static func within(_ timeout: TimeInterval?, _ body: @escaping @Sendable () async throws -> Void) async throws {
        guard let timeout else { return try await body() }
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await body() }
            group.addTask {
                try await Task.sleep(nanoseconds: UInt64(Swift.max(0, timeout) * 1_000_000_000))
                throw SyncError(.connectionLost, "the subscription's download did not finish within \(timeout) seconds")
            }
            try await group.next()
            group.cancelAll()
        }
    }
}
