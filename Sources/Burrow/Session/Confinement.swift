import Dispatch

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Where a realm and everything read through it may be used.
enum Confinement {
    /// The thread that opened it (`Realm()`).
    case thread(pthread_t)
    /// Blocks run on a serial queue, whatever thread runs them (`Realm(queue:)`).
    case queue(DispatchQueue)
    /// Code isolated to an actor, whatever thread its executor uses (`Realm.open()`).
    case actor(ActorIsolation)
    /// Anywhere, by any number of threads at once: a frozen realm never changes.
    case frozen

    /// The thread of a thread-confined realm, checked on every access without a switch.
    var owningThread: pthread_t? {
        if case .thread(let thread) = self { thread } else { nil }
    }

    /// What asynchronous work of a realm runs on: its queue or its actor. Thread-confined realms
    /// have none on Linux, where threads have no run loop unless the program runs one.
    var scheduler: (@Sendable (@escaping @Sendable () -> Void) -> Void)? {
        switch self {
        case .queue(let queue):
            return { work in queue.async(execute: work) }
        case .actor(let isolation):
            return { work in
                guard let actor = isolation.actor else { return }  // the actor is gone, and its realm with it
                Task { await Confinement.run(work, on: actor) }
            }
        case .thread, .frozen:
            return nil
        }
    }

    private static func run(_ work: @Sendable () -> Void, on actor: isolated any Actor) {
        work()
    }
}

/// The actor a realm is isolated to, held weakly: the actor usually owns the realm, which must
/// not keep it alive in return.
final class ActorIsolation: Sendable {
    weak let actor: (any Actor)?
    /// The actor's executor, compared with the running one on every access.
    private let executor: UnownedSerialExecutor

    init(_ actor: any Actor) {
        self.actor = actor
        executor = actor.unownedExecutor
    }

    /// Whether the calling code runs isolated to the actor. Never traps: the caller traps with
    /// RealmSwift's message when it does not.
    var isCurrent: Bool {
        guard let actor else { return false }
        return isCurrentExecutor(executor, actor: actor)
    }
}

/// The runtime's check behind `Actor.preconditionIsolated()` without its trap (flag 0: report,
/// do not assert), so that a wrong-thread use traps with Burrow's own message. Looked up by name
/// because the standard library declares it for its own use only; where it is missing, the
/// standard library's trapping check stands in.
private let currentExecutorCheck: (@convention(c) (UnsafeRawPointer?, UInt, UInt64) -> Bool)? = {
    guard let symbol = dlsym(nil, "swift_task_isCurrentExecutorWithFlags") else { return nil }
    return unsafeBitCast(symbol, to: (@convention(c) (UnsafeRawPointer?, UInt, UInt64) -> Bool).self)
}()

/// Whether code runs on `executor` (an executor reference is two words: identity, implementation).
private func isCurrentExecutor(_ executor: UnownedSerialExecutor, actor: any Actor) -> Bool {
    guard let check = currentExecutorCheck else {
        actor.preconditionIsolated(TrapMessage.wrongThread)
        return true
    }
    let (identity, implementation) = unsafeBitCast(executor, to: (UnsafeRawPointer?, UInt).self)
    return check(identity, implementation, 0)
}
