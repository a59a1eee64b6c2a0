import Foundation
import LMDB

/// What a synced file downloads: the objects its subscriptions select. Change it inside
/// ``update(_:)``: objects that enter a subscription are downloaded, and objects that leave
/// every one are removed from the file (not from the server), but for those with local changes
/// still to upload. The set is stored in the file.
///
/// ```swift
/// try await realm.subscriptions.update {
///     realm.subscriptions.removeAll(ofType: Draft.self)
///     realm.subscriptions.append(QuerySubscription<Task>(name: "mine") { $0.owner == "ana" })
/// }
/// print(realm.subscriptions.state)   // complete
/// ```
public final class SyncSubscriptionSet: Sequence, @unchecked Sendable {
    private struct Content {
        var entries: [SubscriptionEntry] = []
        /// Counts the changes made; the worker applies a version, then marks it complete.
        var version: UInt64 = 0
        var completed: UInt64 = 0
        var failure: (version: UInt64, error: SyncError)?
        var waiters: [(version: UInt64, waiter: @Sendable (SyncError?) -> Void)] = []
        /// The subscriptions as an ``update(_:)`` in progress has them.
        var draft: [SubscriptionEntry]?
        var draftError: SyncError?
        var stopped = false
    }

    private let content = Locked(Content())
    /// Held through an update's block, so that two updates do not interleave.
    private let updating = NSRecursiveLock()
    private let changed = Locked<(@Sendable () -> Void)?>(nil)
    /// The file's object schemas, by class name.
    private let schemas: [String: ObjectSchema]
    /// The wire form of the primary key of an object a query names.
    private let linkTarget: @Sendable (_PersistedValue, String?) -> JSONValue?

    init(schemas: [String: ObjectSchema], linkTarget: @escaping @Sendable (_PersistedValue, String?) -> JSONValue?) {
        self.schemas = schemas
        self.linkTarget = linkTarget
    }

    /// Starts from the subscriptions the file stored, at their version, as complete.
    func restore(_ entries: [SubscriptionEntry], version: UInt64) {
        content.withLock { $0.entries = entries; $0.version = version; $0.completed = version }
    }

    // MARK: Changing

    /// Runs `block`, in which the set may change, then applies the change: returns once the
    /// file holds what the subscriptions select.
    ///
    /// - Throws: ``SyncError/Code/invalidSubscription`` for a query without an SQL form (the
    ///   set is then unchanged) or one the server refused; ``SyncError`` when the session stops
    ///   first.
    public func update(_ block: () -> Void) async throws {
        try await waitUntilApplied(try commit(block))
    }

    /// Runs `block`, in which the set may change, then applies the change and calls
    /// `onComplete` (on the sync thread) once it is applied, with the error if it failed.
    public func update(_ block: () -> Void, onComplete: (@Sendable (Error?) -> Void)? = nil) {
        do {
            let version = try commit(block)
            wait(for: version) { error in onComplete?(error) }
        } catch {
            onComplete?(error)
        }
    }

    /// Runs `block` on a draft of the set and makes the draft the set; returns the version the
    /// caller waits for.
    func commit(_ block: () -> Void) throws(SyncError) -> UInt64 {
        updating.lock()
        defer { updating.unlock() }
        let nested = content.withLock { content -> Bool in
            if content.draft != nil { return true }
            content.draft = content.entries
            content.draftError = nil
            return false
        }
        block()
        if nested { return content.withLock { $0.version } }
        let (version, error, didChange) = content.withLock { content -> (UInt64, SyncError?, Bool) in
            defer { content.draft = nil; content.draftError = nil }
            if let error = content.draftError { return (content.version, error, false) }
            guard let draft = content.draft, draft != content.entries else { return (content.version, nil, false) }
            content.entries = draft
            content.version += 1
            return (content.version, nil, true)
        }
        if let error { throw error }
        if didChange { changed.withLock { $0 }?() }
        return version
    }

    private func edit(_ change: (inout [SubscriptionEntry]) -> Void) {
        content.withLock { content in
            guard content.draft != nil else {
                burrowPreconditionFailure("Cannot modify subscriptions outside of a call to update(_:).")
            }
            change(&content.draft!)
        }
    }

    private func entry(name: String?, className: String, node: PredicateNode) -> SubscriptionEntry? {
        guard let schema = schemas[className] else {
            burrowPreconditionFailure("Cannot subscribe to '\(className)': it is not a class of this realm's schema.")
        }
        let condition: String?
        if case .constant(true) = node {
            condition = nil
        } else {
            do {
                condition = try SubscriptionSQL(schema: schema, schemas: schemas, linkTarget: linkTarget).condition(node)
            } catch {
                content.withLock { $0.draftError = $0.draftError ?? error }
                return nil
            }
        }
        let now = Date()
        return SubscriptionEntry(name: name, className: className, queryText: node.queryText, condition: condition,
                                 createdAt: now, updatedAt: now)
    }

    /// Adds `subscriptions`. One that selects what an unnamed one already does is not added
    /// twice; a name names one subscription.
    public func append<T: Object>(_ subscriptions: QuerySubscription<T>...) {
        for subscription in subscriptions {
            guard let new = entry(name: subscription.name, className: subscription.className, node: subscription.node) else { continue }
            edit { entries in
                if let name = new.name, let existing = entries.first(where: { $0.name == name }) {
                    guard existing.selectsSame(as: new) else {
                        burrowPreconditionFailure("A subscription named '\(name)' already exists with another query; change it with updateQuery.")
                    }
                    return
                }
                if new.name == nil, entries.contains(where: { $0.name == nil && $0.selectsSame(as: new) }) { return }
                entries.append(new)
            }
        }
    }

    func replaceQuery(of old: SubscriptionEntry, name: String?, className: String, node: PredicateNode) {
        guard var new = entry(name: name, className: className, node: node) else { return }
        edit { entries in
            guard let index = entries.firstIndex(where: { $0 == old }) else {
                burrowPreconditionFailure("Cannot update a subscription that is no longer in the set.")
            }
            new.createdAt = old.createdAt
            entries[index] = new
        }
    }

    /// Removes the subscription named `name`, if there is one.
    public func remove(named name: String) {
        edit { $0.removeAll { $0.name == name } }
    }

    /// Removes `subscriptions`.
    public func remove(_ subscriptions: SyncSubscription...) {
        let entries = subscriptions.map(\.entry)
        edit { $0.removeAll { entries.contains($0) } }
    }

    /// Removes the subscriptions that select what each of `subscriptions` selects, under its name.
    public func remove<T: Object>(_ subscriptions: QuerySubscription<T>...) {
        for subscription in subscriptions { remove(subscription, anyName: false) }
    }

    /// Removes the subscriptions that select what `subscription` does, under its name or,
    /// with `anyName`, under any.
    func remove<T: Object>(_ subscription: QuerySubscription<T>, anyName: Bool) {
        guard let removed = entry(name: subscription.name, className: subscription.className, node: subscription.node) else { return }
        edit { $0.removeAll { (anyName || $0.name == removed.name) && $0.selectsSame(as: removed) } }
    }

    /// Removes every subscription, or only those without a name.
    public func removeAll(unnamedOnly: Bool = false) {
        edit { $0.removeAll { !unnamedOnly || $0.name == nil } }
    }

    /// Removes every subscription to objects of `type`.
    public func removeAll<T: Object>(ofType type: T.Type) {
        let className = ClassInfo.of(T.self).className
        edit { $0.removeAll { $0.className == className } }
    }

    // MARK: Reading

    private var visible: [SubscriptionEntry] { content.withLock { $0.draft ?? $0.entries } }

    /// How many subscriptions there are.
    public var count: Int { visible.count }

    /// Whether there are none.
    public var isEmpty: Bool { visible.isEmpty }

    /// The subscription at `position`, `nil` past the end.
    public subscript(position: Int) -> SyncSubscription? {
        let entries = visible
        return entries.indices.contains(position) ? SyncSubscription(entry: entries[position], set: self) : nil
    }

    /// The first subscription.
    public var first: SyncSubscription? { self[0] }

    /// The subscription named `name`.
    public func first(named name: String) -> SyncSubscription? {
        visible.first { $0.name == name }.map { SyncSubscription(entry: $0, set: self) }
    }

    /// The first subscription to objects of `T` with this query.
    public func first<T: Object>(ofType type: T.Type, where query: (Query<T>) -> Query<Bool>) -> SyncSubscription? {
        let node = query(Query<T>(.root(ClassInfo.of(T.self)))).node
        let className = ClassInfo.of(T.self).className, text = node.queryText
        return visible.first { $0.className == className && $0.queryText == text }.map { SyncSubscription(entry: $0, set: self) }
    }

    /// Iterates over the subscriptions.
    public func makeIterator() -> IndexingIterator<[SyncSubscription]> {
        visible.map { SyncSubscription(entry: $0, set: self) }.makeIterator()
    }

    /// Where the latest change stands.
    public var state: SyncSubscriptionState {
        content.withLock { content in
            if let failure = content.failure, failure.version == content.version { return .error(failure.error) }
            return content.completed >= content.version ? .complete : .pending
        }
    }

    // MARK: The worker's side

    /// The subscriptions and their version, as last committed.
    var committed: (entries: [SubscriptionEntry], version: UInt64) {
        content.withLock { ($0.entries, $0.version) }
    }

    /// Returns once `version` is applied.
    ///
    /// - Throws: the ``SyncError`` it failed with, or the one of the session stopping.
    func waitUntilApplied(_ version: UInt64) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, Error>) in
            wait(for: version) { error in
                if let error { continuation.resume(throwing: error) } else { continuation.resume() }
            }
        }
    }

    /// Calls `waiter` once `version` is applied or fails, or the session stops.
    private func wait(for version: UInt64, _ waiter: @escaping @Sendable (SyncError?) -> Void) {
        let outcome = content.withLock { content -> SyncError?? in
            if let failure = content.failure, failure.version == version { return .some(failure.error) }
            if content.completed >= version { return .some(nil) }
            if content.stopped { return .some(SyncError(.connectionLost, "the sync session stopped")) }
            content.waiters.append((version, waiter))
            return .none
        }
        if let outcome { waiter(outcome) }
    }

    /// Marks `version` applied: the file holds what it selects.
    func complete(_ version: UInt64) {
        let ready = content.withLock { content -> [@Sendable (SyncError?) -> Void] in
            guard version > content.completed else { return [] }
            content.completed = version
            let ready = content.waiters.filter { $0.version <= version }.map { $0.waiter }
            content.waiters.removeAll { $0.version <= version }
            return ready
        }
        ready.forEach { $0(nil) }
    }

    /// Marks `version` refused.
    func fail(_ version: UInt64, _ error: SyncError) {
        let ready = content.withLock { content -> [@Sendable (SyncError?) -> Void] in
            content.failure = (version, error)
            content.completed = Swift.max(content.completed, version)
            let ready = content.waiters.filter { $0.version <= version }.map { $0.waiter }
            content.waiters.removeAll { $0.version <= version }
            return ready
        }
        ready.forEach { $0(error) }
    }

    /// Fails every waiter: the session stopped.
    func stop() {
        let waiters = content.withLock { content in
            content.stopped = true
            defer { content.waiters = [] }
            return content.waiters.map { $0.waiter }
        }
        let error = SyncError(.connectionLost, "the sync session stopped")
        waiters.forEach { $0(error) }
    }

    /// Calls `action` after each change.
    func onChange(_ action: @escaping @Sendable () -> Void) {
        changed.withLock { $0 = action }
    }
}
