#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// One object per thread, made by the thread's first use and released when the thread ends.
///
/// ```swift
/// private static let scratch = ThreadSlot { Scratch() }
/// scratch.value.items.append(item)  // this thread's own
/// ```
final class ThreadSlot<Value: AnyObject>: Sendable {
    private let key: pthread_key_t
    private let make: @Sendable () -> Value

    /// A slot whose threads each get `make()` on first use. Traps when the system has no
    /// thread-local key left (a process-wide limit of at least 128).
    init(_ make: @escaping @Sendable () -> Value) {
        var key = pthread_key_t()
        let status = pthread_key_create(&key) { pointer in
            if let pointer { Unmanaged<AnyObject>.fromOpaque(pointer).release() }
        }
        burrowPrecondition(status == 0, "Cannot create a thread-local slot (error \(status)).")
        self.key = key
        self.make = make
    }

    /// The calling thread's object.
    var value: Value {
        if let pointer = pthread_getspecific(key) {
            return Unmanaged<Value>.fromOpaque(pointer).takeUnretainedValue()
        }
        let value = make()
        pthread_setspecific(key, Unmanaged.passRetained(value).toOpaque())
        return value
    }
}
