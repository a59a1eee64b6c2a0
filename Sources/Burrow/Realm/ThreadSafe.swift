import LMDB
/// A property that may cross threads: it keeps a ``ThreadSafeReference`` to its value and
/// resolves it in the calling thread's realm on every read.
///
/// ```swift
/// @ThreadSafe var person = realm.object(ofType: Person.self, forPrimaryKey: 1)
/// DispatchQueue.global().async {
///     print(person?.name ?? "deleted")      // read in this thread's realm
/// }
/// ```
///
/// Each read makes a new reference for the next one, so the wrapper suits function arguments
/// and captured locals rather than long-lived properties. Reading `nil` means the value was
/// deleted (or never set). Assigning an unmanaged value traps ("Only managed objects may be
/// wrapped as thread safe.").
@propertyWrapper public final class ThreadSafe<T: ThreadConfined>: Sendable {
    private struct State: Sendable {
        var reference: ThreadSafeReference<T>?
        var configuration: Realm.Configuration?
    }

    private let state = Locked(State())

    /// The value, resolved in the calling thread's realm for its configuration.
    public var wrappedValue: T? {
        get {
            state.withLock { state -> T? in
                guard let reference = state.reference, let configuration = state.configuration else { return nil }
                let realm: Realm
                do {
                    realm = try Realm(configuration: configuration)
                } catch {
                    burrowPreconditionFailure("Cannot open the realm of a @ThreadSafe value: \(error)")
                }
                guard let value = realm.resolve(reference) else {
                    state.reference = nil
                    return nil
                }
                state.reference = ThreadSafeReference(to: value)
                return value
            }
        }
        set {
            guard let newValue else {
                state.withLock { $0.reference = nil }
                return
            }
            guard let configuration = newValue.realm?.configuration else {
                burrowPreconditionFailure("Only managed objects may be wrapped as thread safe.")
            }
            let reference = ThreadSafeReference(to: newValue)
            state.withLock { $0 = State(reference: reference, configuration: configuration) }
        }
    }

    /// Wraps `wrappedValue` (managed, or `nil`).
    public init(wrappedValue: T?) {
        self.wrappedValue = wrappedValue
    }
}
