import LMDB
import Burrow
import Foundation
import Testing

/// Writes that never block the caller while others write: `asyncWrite` on actors, and
/// `writeAsync` and friends on queue-confined realms, all served in order by the file's writer
/// gate.
@Suite struct AsyncWriteTests {
    @Test func anActorWritesAcrossSuspensionPoints() async throws {
        let directory = TestDirectory()
        let store = DogStore(configuration: directory.configuration())
        for age in 0..<10 {
            let count = try await store.add(name: "dog\(age)", age: age)
            #expect(count == age + 1)
        }
        #expect(try await store.names().count == 10)
    }

    @Test func manyActorsWriteOneFileConcurrently() async throws {
        let directory = TestDirectory()
        let configuration = directory.configuration()
        let stores = (0..<4).map { _ in DogStore(configuration: configuration) }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (index, store) in stores.enumerated() {
                group.addTask {
                    for round in 0..<25 { _ = try await store.add(name: "s\(index)-\(round)", age: round) }
                }
            }
            try await group.waitForAll()
        }
        let names = try await stores[0].names()
        #expect(names.count == 100)
        #expect(Set(names).count == 100)
    }

    @MainActor @Test func aThrowingAsyncWriteChangesNothing() async throws {
        let directory = TestDirectory()
        let configuration = directory.configuration()
        let realm = try await Realm.open(configuration: configuration)
        struct Refused: Error {}
        await #expect(throws: Refused.self) {
            try await realm.asyncWrite {
                realm.add(Dog())
                throw Refused()
            }
        }
        #expect(realm.objects(Dog.self).isEmpty)
        #expect(!realm.isInWriteTransaction)
        // The turn was given back: the next write proceeds.
        let added = try await realm.asyncWrite { realm.create(Dog.self, value: ["name": "Rex"]) }
        #expect(added.name == "Rex")
    }

    @MainActor @Test func anAsyncWriteCountsAsPendingUntilItReturns() async throws {
        // RealmSwift's testAsyncWriteBasics.
        let directory = TestDirectory()
        let realm = try await Realm.open(configuration: directory.configuration())
        #expect(!realm.isPerformingAsynchronousWriteOperations)
        let seen = try await realm.asyncWrite {
            realm.add(Dog())
            return (realm.isInWriteTransaction, realm.isPerformingAsynchronousWriteOperations)
        }
        #expect(seen == (true, true))
        #expect(!realm.isInWriteTransaction && !realm.isPerformingAsynchronousWriteOperations)
        await #expect(throws: CancellationError.self) {
            try await realm.asyncWrite { throw CancellationError() }
        }
        #expect(!realm.isPerformingAsynchronousWriteOperations)
    }

    @MainActor @Test func aCancelledTaskDoesNotWrite() async throws {
        let directory = TestDirectory()
        let realm = try await Realm.open(configuration: directory.configuration())
        let task = Task { @MainActor [configuration = directory.configuration()] in
            let realm = try await Realm.open(configuration: configuration)
            withUnsafeCurrentTask { $0?.cancel() }
            try await realm.asyncWrite { realm.add(Dog()) }
        }
        await #expect(throws: CancellationError.self) { try await task.value }
        await realm.asyncRefresh()
        #expect(realm.objects(Dog.self).isEmpty)
    }

    @Test func cancellingATaskWaitingForItsTurnTakesItOutOfTheQueue() async throws {
        // RealmSwift's testAsyncWriteTaskCancellation: another realm holds the write.
        let directory = TestDirectory()
        let configuration = directory.configuration()
        let holder = ConfinedThread()
        defer { holder.stop() }
        let held = try holder.run { () -> UncheckedBox<Realm> in
            let realm = try Realm(configuration: configuration)
            realm.beginWrite()
            return UncheckedBox(realm)
        }
        let store = DogStore(configuration: configuration)
        let finished = Locked(false)
        let task = Task {
            defer { finished.withLock { $0 = true } }
            return try await store.add(name: "never", age: 1)
        }
        try await Task.sleep(for: .milliseconds(200))  // it waits for its turn by now
        task.cancel()
        for _ in 0..<1_000 where !finished.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(10)) }
        #expect(finished.withLock { $0 }, "the cancelled write went on waiting for its turn")
        try holder.run { held.value.cancelWrite() }
        await #expect(throws: CancellationError.self) { try await task.value }
        // The queue goes on: the next writer is served, and the cancelled one wrote nothing.
        #expect(try await store.add(name: "next", age: 2) == 1)
        #expect(try await store.names() == ["next"])
    }

    @Test func writeAsyncOnAQueueCommitsAndCallsBack() throws {
        let directory = TestDirectory()
        let configuration = directory.configuration()
        let queue = DispatchQueue(label: "writer")
        let finished = DispatchSemaphore(value: 0)
        let outcome = Locked<(error: String?, busyDuring: Bool, busyAfter: Bool)>((nil, false, true))
        queue.async {
            let realm = try! Realm(configuration: configuration, queue: queue)
            let box = UncheckedBox(realm)
            realm.writeAsync({
                realm.add(Dog(value: ["name": "queued"]))
            }, onComplete: { error in
                outcome.withLock { $0.error = error.map { "\($0)" } }
                queue.async {
                    outcome.withLock { $0.busyAfter = box.value.isPerformingAsynchronousWriteOperations }
                    finished.signal()
                }
            })
            outcome.withLock { $0.busyDuring = realm.isPerformingAsynchronousWriteOperations }
        }
        finished.wait()
        waitUntilReleased(configuration, on: queue)
        let seen = outcome.withLock { $0 }
        #expect(seen.error == nil)
        #expect(seen.busyDuring)
        #expect(!seen.busyAfter)
        let realm = try Realm(configuration: configuration)
        #expect(realm.objects(Dog.self).map(\.name) == ["queued"])
    }

    @Test func aCancelledAsyncWriteNeverRuns() throws {
        let directory = TestDirectory()
        let configuration = directory.configuration()
        let queue = DispatchQueue(label: "cancel")
        let ran = Locked<[String]>([])
        let finished = DispatchSemaphore(value: 0)
        queue.async {
            let realm = try! Realm(configuration: configuration, queue: queue)
            // Holding a write keeps the async ones waiting until this block ends.
            realm.beginWrite()
            let cancelled = realm.beginAsyncWrite {
                ran.withLock { $0.append("cancelled") }
                realm.add(Dog(value: ["name": "never"]))
                realm.commitAsyncWrite()
            }
            realm.beginAsyncWrite {
                ran.withLock { $0.append("kept") }
                realm.add(Dog(value: ["name": "kept"]))
                realm.commitAsyncWrite { _ in finished.signal() }
            }
            try! realm.cancelAsyncWrite(cancelled)
            try! realm.commitWrite()
        }
        finished.wait()
        waitUntilReleased(configuration, on: queue)
        #expect(ran.withLock { $0 } == ["kept"])
        let realm = try Realm(configuration: configuration)
        #expect(realm.objects(Dog.self).map(\.name) == ["kept"])
    }

    @MainActor @Test func aBlockThatCancelsItsWriteAndBeginsAnotherCommitsThatOne() async throws {
        // RealmSwift's testAsyncWriteBeginNewWriteAfterCancel: the write the block began is not
        // in the group of writes; it commits as any synchronous write does.
        let directory = TestDirectory()
        let realm = try await Realm.open(configuration: directory.configuration())
        try await realm.asyncWrite {
            realm.create(Dog.self, value: ["name": "foo"])
            realm.cancelWrite()
            realm.beginWrite()
            realm.create(Dog.self, value: ["name": "bar"])
        }
        #expect(!realm.isInWriteTransaction)
        #expect(realm.objects(Dog.self).map(\.name) == ["bar"])
        // And through writeAsync on a queue.
        let configuration = directory.configuration()
        let queue = DispatchQueue(label: "rebegin")
        let finished = DispatchSemaphore(value: 0)
        let outcome = Locked<String?>("not called")
        queue.async {
            let realm = try! Realm(configuration: configuration, queue: queue)
            realm.writeAsync({
                realm.create(Dog.self, value: ["name": "dropped"])
                realm.cancelWrite()
                realm.beginWrite()
                realm.create(Dog.self, value: ["name": "baz"])
            }, onComplete: { error in
                outcome.withLock { $0 = error.map { "\($0)" } }
                finished.signal()
            })
        }
        #expect(finished.wait(timeout: .now() + 60) == .success)
        waitUntilReleased(configuration, on: queue)
        #expect(outcome.withLock { $0 } == nil)
        realm.refresh()
        #expect(realm.objects(Dog.self).map(\.name).sorted() == ["bar", "baz"])
    }

    @Test func anAsyncWriteBlockThatReturnsWithoutEndingItsWriteCancelsIt() throws {
        // RealmSwift's testAsyncTransactionShouldCancelWithoutCommit, SyncAfterAsyncWithoutCommit
        // and testAsyncTransactionCommit.
        let directory = TestDirectory()
        let configuration = directory.configuration()
        let queue = DispatchQueue(label: "uncommitted")
        let finished = DispatchSemaphore(value: 0)
        let seen = Locked<[String]>([])
        queue.async {
            let realm = try! Realm(configuration: configuration, queue: queue)
            realm.beginAsyncWrite {
                realm.add(Dog(value: ["name": "committed"]))
                realm.commitAsyncWrite()
            }
            realm.beginAsyncWrite {
                realm.add(Dog(value: ["name": "left open"]))
            }
            realm.beginAsyncWrite {
                seen.withLock { $0.append("in write: \(realm.isInWriteTransaction), dogs: \(realm.objects(Dog.self).count)") }
                realm.cancelWrite()
                seen.withLock { $0.append("after: \(realm.isInWriteTransaction)") }
                try! realm.write { realm.add(Dog(value: ["name": "synchronous"])) }
                finished.signal()
            }
        }
        #expect(finished.wait(timeout: .now() + 60) == .success)
        waitUntilReleased(configuration, on: queue)
        // The third block began after the second's write was cancelled: it saw one dog.
        #expect(seen.withLock { $0 } == ["in write: true, dogs: 1", "after: false"])
        let realm = try Realm(configuration: configuration)
        #expect(realm.objects(Dog.self).map(\.name).sorted() == ["committed", "synchronous"])
    }

    @Test func writeAsyncOnAThreadConfinedRealmTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let realm = MisuseTests.freshRealm()
            realm.writeAsync { realm.add(Dog()) }
        }
        expectMessage(result, "Asynchronous writes need a Realm confined to a queue, an actor or the main thread")
    }

    @Test func asyncWriteOnAThreadConfinedRealmTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let thread = ConfinedThread()
            let realm = UncheckedBox(try! thread.run { MisuseTests.freshRealm() })
            let task = Task { @MainActor in _ = try? await realm.value.asyncWrite { } }
            await task.value
        }
        expectMessage(result, "asyncWrite() can only be called on actor-isolated Realms")
    }

    @Test func writersOfOneProcessGetTheirTurnInOrder() throws {
        let directory = TestDirectory()
        let configuration = directory.configuration()
        let order = Locked<[Int]>([])
        let holder = ConfinedThread()
        let holding = try holder.run { () -> Realm in
            let realm = try Realm(configuration: configuration)
            realm.beginWrite()
            return realm
        }
        // Writers queue one after the other while the holder keeps the turn.
        let started = DispatchSemaphore(value: 0)
        let done = DispatchGroup()
        let gate = try holder.run { holding.internals.writerQueue }
        for index in 0..<6 {
            done.enter()
            Thread {
                do {
                    let realm = try! Realm(configuration: configuration)
                    started.signal()
                    try! realm.write { order.withLock { $0.append(index) } }
                }
                done.leave()  // after the realm is released
            }.start()
            started.wait()
            // Wait until this writer is queued before starting the next.
            while gate.waitingCount < index + 1 { usleep(1_000) }
        }
        try holder.run { try holding.commitWrite() }
        done.wait()
        #expect(order.withLock { $0 } == Array(0..<6))
        holder.stop()
    }

    /// Waits until the blocks `queue` ran have let go of the realm they captured: a block is
    /// released after it returns, so its realm may outlive the moment the test was signalled.
    private func waitUntilReleased(_ configuration: Realm.Configuration, on queue: DispatchQueue) {
        queue.sync {}
        for _ in 0..<1_000 where Internals.isOpen(configuration) { usleep(1_000) }
    }
}

/// Waiting for another process's write happens off the writer's actor.
@Suite struct ProcessWriterTurnTests {
    @MainActor @Test(.plainFilesOnly("its child process opens the file with a configuration of its own")) func anActorIsFreeWhileItsWriteWaitsForAnotherProcess() async throws {
        let directory = TestDirectory()
        let path = directory.file().path
        let holding = directory.file("holding").path
        let release = directory.file("release").path
        do {
            let realm = try Realm(configuration: directory.configuration())
            try realm.write { realm.add(Dog(value: ["name": "seed"])) }
        }
        // The child holds a write until told to let go (or ten seconds pass).
        async let child = #expect(processExitsWith: .success) { [path = path as String, holding = holding as String,
                                                                 release = release as String] in
            let realm = try! Realm(fileURL: URL(fileURLWithPath: path))
            realm.beginWrite()
            realm.add(Dog(value: ["name": "child"]))
            _ = FileManager.default.createFile(atPath: holding, contents: nil)
            for _ in 0..<1_000 where !FileManager.default.fileExists(atPath: release) { usleep(10_000) }
            try! realm.commitWrite()
        }
        while !FileManager.default.fileExists(atPath: holding) { try await Task.sleep(for: .milliseconds(10)) }
        let realm = try await Realm.open(configuration: directory.configuration())
        let clock = ContinuousClock()
        let started = clock.now
        // Runs on the main actor while the write below waits, if nothing blocks the actor, and
        // only then lets the child commit: a blocked actor would wait out the child's ten seconds.
        let probe = Task { @MainActor in
            _ = FileManager.default.createFile(atPath: release, contents: nil)
            return clock.now
        }
        try await realm.asyncWrite { realm.add(Dog(value: ["name": "parent"])) }
        let probeRan = started.duration(to: await probe.value)
        _ = await child
        #expect(probeRan < .seconds(3), "the main actor was blocked for \(probeRan)")
        #expect(realm.objects(Dog.self).map(\.name) == ["seed", "child", "parent"])
    }
}
