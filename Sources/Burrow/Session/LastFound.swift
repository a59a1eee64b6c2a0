/// What one thread found last for a key, so that asking again for the same key skips the
/// shared cache behind it (its lock and its hashing): kept in a ``ThreadSlot``.
///
/// ```swift
/// private static let last = ThreadSlot { LastFound<String, Template>() }
/// let template = last.value.value(for: text) { shared.withLock { $0[text] } }
/// ```
final class LastFound<Key: Equatable, Value> {
    private var key: Key?
    private var value: Value?

    /// The value kept for `key`, or what `find` finds, which is then kept (`nil` is not).
    func value(for key: Key, orFind find: () throws -> Value?) rethrows -> Value? {
        if let value, self.key == key { return value }
        guard let found = try find() else { return nil }
        (self.key, value) = (key, found)
        return found
    }

    /// The value kept for `key`, or what `make` gives, which is then kept.
    func value(for key: Key, orMake make: () throws -> Value) rethrows -> Value {
        if let value, self.key == key { return value }
        let made = try make()
        (self.key, value) = (key, made)
        return made
    }
}
