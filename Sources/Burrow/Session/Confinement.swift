import Dispatch
import Foundation
import LMDB

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

    /// The main thread's id, once a realm was opened on it (Linux has no call that names the
    /// main thread from another one).
    private static let mainThread = Locked<pthread_t?>(nil)

    /// Marks the main queue, so that work it runs is known as such on any thread.
    private static let mainQueueKey: DispatchSpecificKey<Bool> = {
        let key = DispatchSpecificKey<Bool>()
        DispatchQueue.main.setSpecific(key: key, value: true)
        return key
    }()

    /// Notes that the calling thread is the main thread, when it is.
    private static func noteMainThread() {
        guard Thread.isMainThread else { return }
        _ = mainQueueKey
        mainThread.withLock { $0 = pthread_self() }
    }

    /// Where a realm opened without a queue belongs: the calling thread, or the main queue for
    /// code the main queue runs on another thread than the main one. After `dispatchMain()`,
    /// Dispatch's threads take turns running the main queue, so its next block, or the main
    /// actor after an `await`, may run elsewhere, as RealmSwift's main-thread realm is used
    /// across them.
    static func ofCaller() -> Confinement {
        noteMainThread()
        let isOnMainQueueOffTheMainThread = !Thread.isMainThread && DispatchQueue.getSpecific(key: mainQueueKey) == true
        return isOnMainQueueOffTheMainThread ? .queue(.main) : .thread(pthread_self())
    }

    /// Whether the caller runs on the main queue: the main thread's realm may be used there,
    /// whichever thread runs it. `dispatchMain()` ends the main thread and has a thread of
    /// Dispatch's run the main queue from then on, one block at a time, as the main thread did.
    var isOnMainQueueOfMainThread: Bool {
        isMainThread && DispatchQueue.getSpecific(key: Self.mainQueueKey) == true
    }

    /// Whether this is a realm confined to the main thread.
    var isMainThread: Bool {
        guard case .thread(let thread) = self, let main = Self.mainThread.withLock({ $0 }) else { return false }
        return pthread_equal(thread, main) != 0
    }

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

    /// What runs a realm's asynchronous writes: its queue or actor, or the main queue for the
    /// main thread's realm. The main thread runs the main queue (`dispatchMain()`,
    /// `RunLoop.main.run()`, an `async` main, a UI toolkit's loop), as RealmSwift's main thread
    /// runs its run loop; other threads run nothing unless the program makes them.
    var asyncWriteScheduler: (@Sendable (@escaping @Sendable () -> Void) -> Void)? {
        if let scheduler { return scheduler }
        guard isMainThread else { return nil }
        return { (work: @escaping @Sendable () -> Void) in DispatchQueue.main.async(execute: work) }
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
