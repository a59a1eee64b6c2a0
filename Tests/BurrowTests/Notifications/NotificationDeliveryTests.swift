import Burrow
@testable import LMDB
import Foundation
import Testing

/// Where notifications arrive: on actors as async sequences, from other threads and from other
/// processes, including after a process died mid-write.
@Suite struct NotificationDeliveryTests {
    let directory = TestDirectory()

    @MainActor @Test func anActorRealmStreamsLiveChanges() async throws {
        let configuration = directory.configuration(objectTypes: [Dog.self])
        let realm = try await Realm.open(configuration: configuration)
        var step = 0
        for await change in realm.objects(Dog.self).sorted(byKeyPath: "age").changes {
            step += 1
            switch (step, change) {
            case (1, .initial(let initial)):
                #expect(initial.isEmpty && !initial.isFrozen)
                try await realm.asyncWrite { realm.add(Dog(value: ["age": 5])) }
            case (2, .update(let dogs, let deletions, let insertions, _)):
                #expect(dogs.count == 1 && deletions.isEmpty && insertions == [0])
                onAnotherThread {
                    let other = try! Realm(configuration: configuration)
                    try! other.write { other.add(Dog(value: ["age": 1])) }
                }
            case (3, .update(let dogs, _, let insertions, _)):
                #expect(insertions == [0])
                #expect(dogs.map(\.age) == [1, 5])
            default:
                Issue.record("unexpected change \(step): \(change)")
            }
            if step == 3 { break }
        }
        #expect(step == 3)
    }

    @Test
    func aThreadRealmStreamsFrozenChangesAndEndsWhenCancelled() async throws {
        let configuration = directory.configuration(objectTypes: [Dog.self])
        let owner = ConfinedThread()
        defer { owner.stop() }
        // Only the task holds the stream: the observation ends when the task's loop does.
        var stream: AsyncStream<RealmCollectionChange<Results<Dog>>>? = try owner.run {
            let realm = try Realm(configuration: configuration)
            return realm.objects(Dog.self).changes
        }
        let seen = Task { [stream] in
            var counts: [Int] = []
            for await change in stream! {
                if case .initial(let dogs) = change { counts.append(dogs.count); #expect(dogs.isFrozen) }
                if case .update(let dogs, _, _, _) = change { counts.append(dogs.count); #expect(dogs.isFrozen) }
                // Two commits may arrive as one notification: wait for what they add up to.
                if counts.last == 2 { break }
            }
            return counts
        }
        // A notification that never comes fails the test rather than hanging it. Generous: the
        // whole suite shares two cores' worth of tasks, and a full run once held this task and
        // the stream's consumer off the pool for more than a minute.
        let watchdog = Task {
            try await Task.sleep(for: .seconds(240))
            seen.cancel()
        }
        defer { watchdog.cancel() }
        stream = nil
        for _ in 0..<2 {
            try await Task.sleep(for: .milliseconds(50))
            try owner.run {
                let realm = try Realm(configuration: configuration)
                try realm.write { realm.add(Dog()) }
            }
        }
        let counts = await seen.value
        #expect(counts.first == 0)
        #expect(counts.last == 2)
        let cancelled = Task {
            for await _ in try owner.run({ try Realm(configuration: configuration).objects(Dog.self).changes }) {}
            return true
        }
        try await Task.sleep(for: .milliseconds(50))
        cancelled.cancel()
        #expect(try await cancelled.value)
        // The queues' realms close once the streams have ended.
        for _ in 0..<500 where Internals.isOpen(configuration) { try await Task.sleep(for: .milliseconds(10)) }
        #expect(!Internals.isOpen(configuration))
    }

    @Test func aThreadThatRunsItsRunLoopIsNotifiedWithoutRefreshing() throws {
        let configuration = directory.configuration(objectTypes: [Dog.self])
        let seen = Locked<[String]>([])
        let initialArrived = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
        let thread = Thread {
            // The realm goes before the thread says it has finished.
            do {
                let realm = try! Realm(configuration: configuration)
                let token = realm.objects(Dog.self).observe { change in
                    switch change {
                    case .initial(let dogs): seen.withLock { $0.append("initial \(dogs.count)") }
                    case .update(let dogs, _, let insertions, _): seen.withLock { $0.append("update \(dogs.count) \(insertions)") }
                    case .error: break
                    }
                }
                // Only the run loop runs here: no refresh, no write.
                let deadline = Date(timeIntervalSinceNow: 60)
                var toldInitial = false
                while seen.withLock({ $0.count }) < 2, Date() < deadline {
                    RunLoop.current.run(until: Date(timeIntervalSinceNow: 0.05))
                    if !toldInitial, seen.withLock({ $0.count }) == 1 {
                        toldInitial = true
                        initialArrived.signal()
                    }
                }
                token.invalidate()
            }
            finished.signal()
        }
        thread.start()
        #expect(initialArrived.wait(timeout: .now() + 60) == .success)
        let writer = try Realm(configuration: configuration)
        try writer.write { writer.add(Dog()) }
        finished.wait()
        #expect(seen.withLock { $0 } == ["initial 0", "update 1 [0]"])
    }

    @Test func commitsOfOtherProcessesAreDeliveredOnceEach() async throws {
        let path = directory.file().path
        let configuration = Realm.Configuration(fileURL: directory.file(), objectTypes: [Dog.self])
        let queue = DispatchQueue(label: "observer")
        let inserted = Locked<[Int]>([])
        let owner = ConfinedThread()
        defer { owner.stop() }
        let token = try owner.run {
            let realm = try Realm(configuration: configuration)
            return realm.objects(Dog.self).observe(on: queue) { change in
                if case .update(let dogs, _, let insertions, _) = change {
                    inserted.withLock { $0 += insertions.map { dogs[$0].age } }
                }
            }
        }
        // A writer killed in the middle of its write leaves the others' notifications going.
        await #expect(processExitsWith: .signal(SIGKILL)) { [path = path as String] in
            let child = try! Realm(configuration: Realm.Configuration(fileURL: URL(fileURLWithPath: path), objectTypes: [Dog.self]))
            child.beginWrite()
            child.add(Dog(value: ["age": -1]))
            kill(getpid(), SIGKILL)
        }
        await #expect(processExitsWith: .success) { [path = path as String] in
            let child = try! Realm(configuration: Realm.Configuration(fileURL: URL(fileURLWithPath: path), objectTypes: [Dog.self]))
            for age in 1...20 { try! child.write { child.add(Dog(value: ["age": age])) } }
        }
        let deadline = Date(timeIntervalSinceNow: 60)
        while inserted.withLock({ $0.count }) < 20, Date() < deadline { try await Task.sleep(for: .milliseconds(10)) }
        #expect(inserted.withLock { $0.sorted() } == Array(1...20))
        token.invalidate()
        queue.sync {}
    }
}
