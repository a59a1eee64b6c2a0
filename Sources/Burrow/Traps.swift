// Burrow's traps keep their message in every build.
//
// The standard library's `precondition` and `preconditionFailure` drop their message in
// optimized builds ("precondition failure" is all that is printed), yet the message is the
// whole point of a trap: "Realm accessed from incorrect thread.", or the damage a read met.
// Burrow traps through these two instead, which stop through `fatalError`, whose message is
// printed whatever the optimization. Their names say that they are not the standard ones.

/// Stops the program with `message` when `condition` is false, in every build.
@inline(__always) @usableFromInline
func burrowPrecondition(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String = String(),
                        file: StaticString = #file, line: UInt = #line) {
    if _slowPath(!condition()) { fatalError(message(), file: file, line: line) }
}

/// Stops the program with `message`, in every build.
@inline(never) @usableFromInline
func burrowPreconditionFailure(_ message: @autoclosure () -> String = String(), file: StaticString = #file,
                               line: UInt = #line) -> Never {
    fatalError(message(), file: file, line: line)
}

/// The messages of traps met in many places, in RealmSwift's words where it has them.
enum TrapMessage {
    /// Reading or writing an object that was deleted, or read before `invalidate()`.
    static let objectInvalidated = "Object has been deleted or invalidated."
    /// Using a realm, object or collection away from the thread, queue or actor it is confined to.
    static let wrongThread = "Realm accessed from incorrect thread."
    /// Beginning a write while one is open.
    static let alreadyInWrite = "The Realm is already in a write transaction"
    /// Writing to a realm opened read-only.
    static let readOnlyWrite = "Can't perform transactions on read-only Realms."
    /// Writing to a frozen realm.
    static let frozenWrite = "Can't perform transactions on a frozen Realm"
    /// Committing with no write open.
    static let noWriteToCommit = "Can't commit a non-existing write transaction"
    /// Observing a frozen realm, object or collection.
    static let frozenNotifications = "Frozen Realms do not change and do not have change notifications."
    /// Observing inside a write.
    static let observeInWrite = "Cannot register notification blocks from within write transactions."
    /// Observing an unmanaged object or collection.
    static let observeUnmanaged = "Only objects which are managed by a Realm support change notifications"

    /// A read of the file at `path` that failed with `error` where nothing can throw: it is no
    /// answer about the data, so it is not read as one.
    static func cannotRead(_ path: String, _ error: any Error) -> String {
        "Cannot read '\(path)': \(error)"
    }
}
