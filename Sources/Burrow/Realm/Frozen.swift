/// A frozen value that may cross threads, tasks and actors: frozen realms, objects, results
/// and collections never change, and any number of threads read them at once.
///
/// ```swift
/// let snapshot = Frozen(realm.objects(Dog.self).freeze())
/// Task.detached { print(snapshot.value.count) }
/// ```
///
/// Swift cannot tell a frozen value from a live one by its type, so the wrapper checks when it
/// is made, and traps for a live value: a live one must be handed over with a
/// ``ThreadSafeReference`` instead.
public struct Frozen<Value: ThreadConfined>: @unchecked Sendable {
    /// The frozen value.
    public let value: Value

    /// Wraps `value`, which must be frozen.
    public init(_ value: Value) {
        burrowPrecondition(value.isFrozen, "Only frozen values can be sent to other threads: call freeze() first, or use a ThreadSafeReference.")
        self.value = value
    }
}

extension Results: ThreadConfined {}
extension List: ThreadConfined {}
extension MutableSet: ThreadConfined {}
extension Map: ThreadConfined {}
extension AnyRealmCollection: ThreadConfined {}
extension LinkingObjects: ThreadConfined where Element: Object {}
