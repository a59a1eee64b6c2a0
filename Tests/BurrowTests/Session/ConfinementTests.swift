import LMDB
import Burrow
import Foundation
import Testing

/// Realms confined to queues and actors, the caches that hand out their instances, and the
/// trap for every use from elsewhere.
@Suite struct ConfinementTests {
    /// Runs `body` on `queue` and waits for it.
    private func onQueue(_ queue: DispatchQueue, _ body: @escaping @Sendable () -> Void) {
        queue.sync(execute: body)
    }

    @Test func aQueueConfinedRealmWorksOnWhateverThreadTheQueueUses() throws {
        let directory = TestDirectory()
        let configuration = directory.configuration()
        let queue = DispatchQueue(label: "confined")
        let threads = Locked<Set<UInt>>([])
        for round in 0..<20 {
            let done = DispatchSemaphore(value: 0)
            queue.async {
                let realm = try! Realm(configuration: configuration, queue: queue)
                try! realm.write { realm.add(Person(value: ["id": round, "name": "p\(round)"])) }
                threads.withLock { _ = $0.insert(UInt(pthread_self())) }
                done.signal()
            }
            done.wait()
        }
        onQueue(queue) {
            let realm = try! Realm(configuration: configuration, queue: queue)
            #expect(realm.objects(Person.self).count == 20)
        }
        // The blocks may run on several pool threads; the realm follows the queue either way.
        #expect(!threads.withLock { $0 }.isEmpty)
    }

    @Test func aQueueHandsOutOneInstanceWhileItIsUsed() throws {
        let directory = TestDirectory()
        let configuration = directory.configuration()
        let queue = DispatchQueue(label: "cache")
        onQueue(queue) {
            let first = try! Realm(configuration: configuration, queue: queue)
            let second = try! Realm(configuration: configuration, queue: queue)
            #expect(first == second)
            // The thread's own instance is another realm.
            let threadRealm = try! Realm(configuration: configuration)
            #expect(threadRealm != first)
        }
    }

    @Test func aRealmOpenedInAnAsyncBlockIsReleasedWhenTheBlockEnds() throws {
        var configuration = Realm.Configuration(inMemoryIdentifier: "released-\(UUID())")
        configuration.objectTypes = [Person.self]
        do {
            let main = try Realm(configuration: configuration)
            try main.write { main.add(Person(value: ["id": 1])) }
            let done = DispatchSemaphore(value: 0)
            DispatchQueue.global().async { [configuration] in
                do {
                    let worker = try! Realm(configuration: configuration)
                    #expect(worker.objects(Person.self).count == 1)
                }
                done.signal()  // after the worker's realm is released
            }
            done.wait()
        }
        // Every instance is gone, on both threads: the in-memory store went with them.
        #expect(!Realm.fileExists(for: configuration))
        let reopened = try Realm(configuration: configuration)
        #expect(reopened.objects(Person.self).isEmpty)
    }

    @Test func aFileIsClosedWhenItsLastInstanceGoesOnAWorkerThread() throws {
        let directory = TestDirectory()
        let configuration = directory.configuration()
        let queue = DispatchQueue(label: "closing")
        onQueue(queue) {
            let realm = try! Realm(configuration: configuration, queue: queue)
            try! realm.write { realm.add(Dog()) }
        }
        #expect(!Internals.isOpen(configuration))
        #expect(try Realm.deleteFiles(for: configuration))
    }

    @Test func openingAQueueConfinedRealmOffItsQueueTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = try! Realm(configuration: MisuseTests.freshConfiguration(), queue: DispatchQueue(label: "elsewhere"))
        }
        expectMessage(result, "Realm opened from incorrect dispatch queue.")
    }

    @Test func usingAQueueConfinedRealmOffItsQueueTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let queue = DispatchQueue(label: "owner")
            let configuration = MisuseTests.freshConfiguration()
            nonisolated(unsafe) var escaped: Results<Dog>?
            queue.sync { escaped = try! Realm(configuration: configuration, queue: queue).objects(Dog.self) }
            _ = escaped!.count
        }
        expectMessage(result, "Realm accessed from incorrect thread.")
    }

    @Test func usingAThreadRealmsObjectOnAnotherThreadTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let realm = MisuseTests.freshRealm()
            let dog = Dog()
            try! realm.write { realm.add(dog) }
            nonisolated(unsafe) let escaped = dog
            onAnotherThread { _ = escaped.name }
        }
        expectMessage(result, "Realm accessed from incorrect thread.")
    }

    @Test func usingAnActorsRealmOutsideTheActorTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let store = DogStore(configuration: MisuseTests.freshConfiguration())
            let escaped = try! await store.leakRealm()
            _ = escaped.value.objects(Dog.self).count
        }
        expectMessage(result, "Realm accessed from incorrect thread.")
    }
}

/// An actor that owns a realm across suspension points.
actor DogStore {
    let configuration: Realm.Configuration
    private var realm: Realm?

    init(configuration: Realm.Configuration) {
        self.configuration = configuration
    }

    private func opened() async throws -> Realm {
        if let realm { return realm }
        let realm = try await Realm.open(configuration: configuration)
        self.realm = realm
        return realm
    }

    /// Adds a dog through an asynchronous write; returns the count after it.
    func add(name: String, age: Int) async throws -> Int {
        let realm = try await opened()
        try await realm.asyncWrite { realm.add(Dog(value: ["name": name, "age": age])) }
        await Task.yield()
        return realm.objects(Dog.self).count
    }

    /// The names of the dogs, read after a refresh.
    func names() async throws -> [String] {
        let realm = try await opened()
        await realm.asyncRefresh()
        return realm.objects(Dog.self).sorted(byKeyPath: "name").map(\.name)
    }

    /// Hands the realm out of the actor, which is a programmer error.
    func leakRealm() async throws -> UncheckedBox<Realm> {
        UncheckedBox(try await opened())
    }
}

/// A global actor of the test suite's own, to isolate a realm to.
@globalActor actor ArchiveActor {
    static let shared = ArchiveActor()
}

@Suite struct GlobalActorRealmTests {
    @ArchiveActor @Test func aRealmIsolatedToAGlobalActorWorksAcrossSuspensionPoints() async throws {
        let directory = TestDirectory()
        let realm = try await Realm(configuration: directory.configuration(), actor: ArchiveActor.shared)
        for age in 0..<5 {
            try await realm.asyncWrite { realm.add(Dog(value: ["name": "d\(age)", "age": age])) }
            try await Task.sleep(for: .milliseconds(1))  // resumes on whatever thread the pool gives
        }
        #expect(realm.objects(Dog.self).count == 5)
        let again = try await Realm.open(configuration: directory.configuration())
        #expect(again == realm)  // the actor's cached instance
    }
}

/// `Realm()` on the main actor when the main queue runs off the main thread, as under the test
/// runner (which called `dispatchMain()`): the main actor may resume on another thread after
/// each `await`, so the realm is the main queue's.
@Suite struct MainQueueRealmTests {
    @MainActor @Test func theMainActorOffTheMainThreadUsesTheMainQueuesRealmAcrossSuspensionPoints() async throws {
        let directory = TestDirectory()
        let configuration = directory.configuration()
        let realm = try Realm(configuration: configuration)
        // On the main thread itself (a program whose main thread runs the main queue), the realm
        // is that thread's, which the main queue may use too (MainQueueWritesTests).
        #expect(realm.internals.isConfinedToTheMainQueue == !Thread.isMainThread)
        var threads = Set<UInt>()
        for age in 0..<30 {
            try realm.write { realm.add(Dog(value: ["name": "d\(age)", "age": age])) }
            try await Task.sleep(for: .milliseconds(1))  // resumes on whichever thread runs the main queue
            threads.insert(UInt(pthread_self()))
            #expect(realm.objects(Dog.self).count == age + 1)
            #expect(try Realm(configuration: configuration).internals.identity == realm.internals.identity)
        }
        print("the main actor ran on \(threads.count) thread(s)")
        // Elsewhere, a realm of its own.
        let elsewhere = try await Task.detached { try Realm(configuration: configuration).internals.isConfinedToTheMainQueue }.value
        #expect(!elsewhere)
    }
}
