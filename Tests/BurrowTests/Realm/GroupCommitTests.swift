import LMDB
import Burrow
import Dispatch
import Foundation
import Testing

/// Group commit: asynchronous writes of many realms that wait for the writer turn together run
/// one after another in one LMDB transaction, each nested in it, and commit once.
@Suite struct GroupCommitTests {
    /// A realm on a thread of its own holding the file's writer turn, so that writers queue.
    private final class TurnHolder: @unchecked Sendable {
        let thread = ConfinedThread()
        let realm: Realm
        let queue: WriterQueue
        let environment: Environment

        init(_ configuration: Realm.Configuration) throws {
            let (realm, queue, environment) = try thread.run { () -> (Realm, WriterQueue, Environment) in
                let realm = try Realm(configuration: configuration)
                realm.beginWrite()
                realm.add(Dog(value: ["name": "holder"]))
                return (realm, realm.internals.writerQueue, realm.internals.environment)
            }
            self.realm = realm
            self.queue = queue
            self.environment = environment
        }

        /// Waits until `count` writers queue behind the holder.
        func waitForWriters(_ count: Int) async throws {
            for _ in 0..<2_000 where queue.waitingCount < count { try await Task.sleep(for: .milliseconds(5)) }
            #expect(queue.waitingCount == count)
        }

        /// Commits the holder's write; returns the version it committed. Read before the
        /// commit: once it is made, the writers behind it may commit before this thread reads.
        func commit() throws -> Int {
            try thread.run {
                let before = environment.lastTransactionID
                try realm.commitWrite()
                return before + 1
            }
        }

        func stop() { thread.stop() }
    }

    /// An actor with a realm of its own, writing one dog at a time.
    private actor Writer {
        let configuration: Realm.Configuration
        private var realm: Realm?

        init(_ configuration: Realm.Configuration) {
            self.configuration = configuration
        }

        private func opened() async throws -> Realm {
            if let realm { return realm }
            let realm = try await Realm.open(configuration: configuration)
            self.realm = realm
            return realm
        }

        /// Adds a dog named `name` (then throws `failure`, when given); returns whether the realm
        /// reads the dog once `asyncWrite` returned.
        func add(_ name: String, thenThrow failure: (any Error)? = nil) async throws -> Bool {
            let realm = try await opened()
            try await realm.asyncWrite {
                realm.add(Dog(value: ["name": name]))
                if let failure { throw failure }
            }
            return realm.objects(Dog.self).filter("name == %@", name).count == 1
        }
    }

    private struct Refused: Error {}

    /// A fresh file whose writer turn a thread holds.
    private func holdingTheTurn() throws -> (TestDirectory, Realm.Configuration, TurnHolder) {
        let directory = TestDirectory()
        let configuration = directory.configuration()
        return (directory, configuration, try TurnHolder(configuration))
    }

    /// Waits for `semaphore` on a thread of Dispatch's, leaving the task's own free.
    private func waitOffTheActor(_ semaphore: DispatchSemaphore) async {
        await withCheckedContinuation { continuation in DispatchQueue.global().async { semaphore.wait(); continuation.resume() } }
    }

    private func names(_ configuration: Realm.Configuration) throws -> [String] {
        let realm = try Realm(configuration: configuration)
        return realm.objects(Dog.self).map(\.name).sorted()
    }

    @Test func writersThatWaitTogetherCommitOnce() async throws {
        let (directory, configuration, holder) = try holdingTheTurn()
        defer { withExtendedLifetime(directory) { holder.stop() } }
        let writers = (0..<8).map { _ in Writer(configuration) }
        let before = holder.environment.lastTransactionID
        async let results = withThrowingTaskGroup(of: Bool.self) { group in
            for (index, writer) in writers.enumerated() { group.addTask { try await writer.add("dog\(index)") } }
            return try await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        try await holder.waitForWriters(8)
        #expect(try holder.commit() == before + 1)
        // Each write returned once durable, and its realm read it then.
        #expect(try await results == Array(repeating: true, count: 8))
        #expect(holder.environment.lastTransactionID == before + 2, "the eight writes took more than one commit")
        #expect(try names(configuration) == ["dog0", "dog1", "dog2", "dog3", "dog4", "dog5", "dog6", "dog7", "holder"])
    }

    @Test func aWriteThatThrowsUndoesOnlyItself() async throws {
        let (directory, configuration, holder) = try holdingTheTurn()
        defer { withExtendedLifetime(directory) { holder.stop() } }
        let writers = (0..<5).map { _ in Writer(configuration) }
        async let outcomes = withTaskGroup(of: (Int, Bool?).self) { group in
            for (index, writer) in writers.enumerated() {
                group.addTask { (index, try? await writer.add("dog\(index)", thenThrow: index == 2 ? Refused() : nil)) }
            }
            return await group.reduce(into: [Int: Bool?]()) { $0[$1.0] = $1.1 }
        }
        try await holder.waitForWriters(5)
        let committed = try holder.commit()
        let results = await outcomes
        #expect(results[2] == .some(nil), "the throwing write should have thrown")
        for index in [0, 1, 3, 4] { #expect(results[index] == .some(true)) }
        #expect(holder.environment.lastTransactionID == committed + 1)
        #expect(try names(configuration) == ["dog0", "dog1", "dog3", "dog4", "holder"])
    }

    @Test func queuesAndActorsShareAGroupAndQueuesHearOnceDurable() async throws {
        let (directory, configuration, holder) = try holdingTheTurn()
        defer { withExtendedLifetime(directory) { holder.stop() } }
        let queue = DispatchQueue(label: "group-commit-queue")
        let completed = Locked<[String: Bool]>([:])
        let queued = DispatchGroup()
        // Two writes from a queue-confined realm, one from an actor.
        queue.sync {
            let realm = try! Realm(configuration: configuration, queue: queue)
            for name in ["q0", "q1"] {
                queued.enter()
                realm.writeAsync({ realm.add(Dog(value: ["name": name])) }, onComplete: { error in
                    // Called once durable: the realm reads its write.
                    let reads = error == nil && realm.objects(Dog.self).filter("name == %@", name).count == 1
                    completed.withLock { $0[name] = reads }
                    queued.leave()
                })
            }
        }
        let writer = Writer(configuration)
        async let actorResult = writer.add("a0")
        try await holder.waitForWriters(3)
        let committed = try holder.commit()
        #expect(try await actorResult)
        await withCheckedContinuation { continuation in queued.notify(queue: .global()) { continuation.resume() } }
        #expect(completed.withLock { $0 } == ["q0": true, "q1": true])
        // q0 with the actor's write; q1, of the same realm as q0, in a group of its own.
        #expect(holder.environment.lastTransactionID == committed + 2)
        #expect(try names(configuration) == ["a0", "holder", "q0", "q1"])
    }

    /// Each write of one realm is a version of its own to that realm: its observers hear each
    /// one, as RealmSwift's do, even when the writes waited together.
    @Test func aRealmHearsEachOfItsOwnWrites() async throws {
        let (directory, configuration, holder) = try holdingTheTurn()
        defer { withExtendedLifetime(directory) { holder.stop() } }
        let queue = DispatchQueue(label: "group-commit-own-writes")
        let updates = Locked<[Int]>([])
        let completed = DispatchGroup()
        let token = queue.sync {
            let realm = try! Realm(configuration: configuration, queue: queue)
            let token = realm.objects(Dog.self).observe { change in
                switch change {
                // The initial state may already hold the holder's dog: it is read when the queue
                // first runs, which can come after the holder's commit.
                case .initial(let dogs): updates.withLock { $0.append(dogs.count) }
                case .update(_, _, let insertions, _): updates.withLock { $0.append(insertions.count) }
                case .error: break
                }
            }
            for name in ["first", "second", "third"] {
                completed.enter()
                realm.writeAsync({ realm.add(Dog(value: ["name": name])) }, onComplete: { _ in completed.leave() })
            }
            return token
        }
        try await holder.waitForWriters(3)
        let committed = try holder.commit()
        await withCheckedContinuation { continuation in completed.notify(queue: .global()) { continuation.resume() } }
        for _ in 0..<1_000 where updates.withLock({ $0.reduce(0, +) }) < 4 { try await Task.sleep(for: .milliseconds(5)) }
        // Three versions: the writes of one realm were not grouped together.
        #expect(holder.environment.lastTransactionID == committed + 3)
        // The holder's dog and the three writes', each in the initial state or an insertion
        // (versions the realm reaches at once are reported together, so the number of
        // notifications is not fixed).
        #expect(updates.withLock { $0.reduce(0, +) } == 4)
        queue.sync { token.invalidate() }
    }

    @Test func aThreadWaitingForItsTurnGoesBetweenGroups() async throws {
        let (directory, configuration, holder) = try holdingTheTurn()
        defer { withExtendedLifetime(directory) { holder.stop() } }
        let writers = (0..<5).map { _ in Writer(configuration) }
        async let first = withThrowingTaskGroup(of: Bool.self) { group in
            for index in 0..<3 { group.addTask { try await writers[index].add("early\(index)") } }
            return try await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        try await holder.waitForWriters(3)
        // A synchronous writer queues next: the group of three commits before it writes.
        let seenBySyncWriter = Locked<Int>(-1)
        let syncDone = DispatchSemaphore(value: 0)
        Thread {
            let realm = try! Realm(configuration: configuration)
            try! realm.write {
                seenBySyncWriter.withLock { $0 = realm.objects(Dog.self).count }
                realm.add(Dog(value: ["name": "thread"]))
            }
            syncDone.signal()
        }.start()
        try await holder.waitForWriters(4)
        async let second = withThrowingTaskGroup(of: Bool.self) { group in
            for index in 3..<5 { group.addTask { try await writers[index].add("late\(index)") } }
            return try await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        try await holder.waitForWriters(6)
        let committed = try holder.commit()
        #expect(try await first == [true, true, true])
        #expect(try await second == [true, true])
        await waitOffTheActor(syncDone)
        // The holder's dog and the first group's three.
        #expect(seenBySyncWriter.withLock { $0 } == 4)
        // The first group, the thread's write, the second group.
        #expect(holder.environment.lastTransactionID == committed + 3)
        #expect(try names(configuration).count == 7)
    }

    @Test func anExplicitAsyncCommitInAGroupCommitsTheGroupAtOnce() async throws {
        let (directory, configuration, holder) = try holdingTheTurn()
        defer { withExtendedLifetime(directory) { holder.stop() } }
        let writer = Writer(configuration)
        async let actorResult = writer.add("actor")
        try await holder.waitForWriters(1)
        let queue = DispatchQueue(label: "group-commit-explicit")
        let readAfterCommit = Locked<Int>(-1)
        let completed = DispatchSemaphore(value: 0)
        let completion = Locked<String?>(nil)
        queue.sync {
            let realm = try! Realm(configuration: configuration, queue: queue)
            realm.beginAsyncWrite {
                realm.add(Dog(value: ["name": "explicit"]))
                realm.commitAsyncWrite { error in
                    completion.withLock { $0 = error.map { "\($0)" } ?? "none" }
                    completed.signal()
                }
                // Committed (and durable) in the call: the realm reads it, and the actor's write.
                readAfterCommit.withLock { $0 = realm.objects(Dog.self).count }
            }
        }
        try await holder.waitForWriters(2)
        let committed = try holder.commit()
        #expect(try await actorResult)
        await waitOffTheActor(completed)
        #expect(completion.withLock { $0 } == "none")
        #expect(readAfterCommit.withLock { $0 } == 3)
        #expect(holder.environment.lastTransactionID == committed + 1)
        #expect(try names(configuration) == ["actor", "explicit", "holder"])
    }

    /// A realm whose asynchronous write was handed the turn inside a group writes synchronously
    /// first (borrowing the turn): that write joins the group, and the group is committed before
    /// the turn goes back to the realm's asynchronous write, which opens a group of its own.
    @Test(arguments: [true, false]) func aSynchronousWriteBorrowingATurnInAGroupEndsTheGroup(commits: Bool) async throws {
        let (directory, configuration, holder) = try holdingTheTurn()
        defer { withExtendedLifetime(directory) { holder.stop() } }
        let writer = Writer(configuration)
        async let actorResult = writer.add("actor")
        try await holder.waitForWriters(1)
        let queue = DispatchQueue(label: "group-commit-borrow")
        let unblock = DispatchSemaphore(value: 0)
        let completed = DispatchSemaphore(value: 0)
        let completion = Locked<String?>(nil)
        let realmBox = Locked<Realm?>(nil)
        queue.sync {
            let realm = try! Realm(configuration: configuration, queue: queue)
            realmBox.withLock { $0 = realm }
            realm.writeAsync({ realm.add(Dog(value: ["name": "async"])) }, onComplete: { error in
                completion.withLock { $0 = error.map { "\($0)" } ?? "none" }
                completed.signal()
            })
            // The queue is busy until the asynchronous write was handed the turn.
            nonisolated(unsafe) let sameRealm = realm
            queue.async {
                unblock.wait()
                sameRealm.beginWrite()
                sameRealm.add(Dog(value: ["name": "sync"]))
                if commits { try! sameRealm.commitWrite() } else { sameRealm.cancelWrite() }
            }
        }
        try await holder.waitForWriters(2)
        let committed = try holder.commit()
        // The actor's write ran and handed the turn to the queue's, inside the group.
        for _ in 0..<2_000 where holder.queue.waitingCount != 0 { try await Task.sleep(for: .milliseconds(1)) }
        unblock.signal()
        #expect(try await actorResult)
        await waitOffTheActor(completed)
        #expect(completion.withLock { $0 } == "none")
        // The actor's group (with the synchronous write when it committed), then the queue's.
        #expect(holder.environment.lastTransactionID == committed + 2)
        #expect(try names(configuration) == (commits ? ["actor", "async", "holder", "sync"] : ["actor", "async", "holder"]))
        queue.sync { realmBox.withLock { $0 = nil } }
    }

    @Test func aGroupTakesAtMostSixtyFourWrites() async throws {
        let (directory, configuration, holder) = try holdingTheTurn()
        defer { withExtendedLifetime(directory) { holder.stop() } }
        let writers = (0..<70).map { _ in Writer(configuration) }
        async let results = withThrowingTaskGroup(of: Bool.self) { group in
            for (index, writer) in writers.enumerated() { group.addTask { try await writer.add("dog\(index)") } }
            return try await group.reduce(into: 0) { $0 += $1 ? 1 : 0 }
        }
        try await holder.waitForWriters(70)
        let committed = try holder.commit()
        #expect(try await results == 70)
        #expect(holder.environment.lastTransactionID == committed + 2)
        #expect(try names(configuration).count == 71)
    }

    @Test func aFailedGroupCommitFailsEveryWriteAndKeepsNone() async throws {
        let (directory, configuration, holder) = try holdingTheTurn()
        defer { withExtendedLifetime(directory) { holder.stop() } }
        let writers = (0..<4).map { _ in Writer(configuration) }
        async let outcomes = withTaskGroup(of: Realm.Error.Code?.self) { group in
            for (index, writer) in writers.enumerated() {
                group.addTask {
                    do {
                        _ = try await writer.add("dog\(index)")
                        return nil
                    } catch let error as Realm.Error {
                        return error.code
                    } catch {
                        return .fail
                    }
                }
            }
            return await group.reduce(into: [Realm.Error.Code?]()) { $0.append($1) }
        }
        try await holder.waitForWriters(4)
        // The holder's own commit goes first; the group's is the one that fails.
        holder.realm.internals.faults.inject(ENOSPC, at: .commit, skipping: 1)
        let committed = try holder.commit()
        #expect(try await outcomes == Array(repeating: .outOfDiskSpace, count: 4))
        #expect(holder.environment.lastTransactionID == committed)
        #expect(try names(configuration) == ["holder"])
        // The turn moved on: the writers write again.
        #expect(try await writers[0].add("again"))
        #expect(try names(configuration) == ["again", "holder"])
    }

    @Test func observersHearEveryWriteOfAGroup() async throws {
        let directory = TestDirectory()
        let configuration = directory.configuration()
        let observerQueue = DispatchQueue(label: "group-commit-observer")
        let insertions = Locked<Int>(0)
        let modifications = Locked<[Int]>([])
        let counts = Locked<[Int]>([])
        let token = try observerQueue.sync {
            let realm = try Realm(configuration: configuration, queue: observerQueue)
            try realm.write { realm.add(Dog(value: ["name": "old", "age": 1])) }
            return realm.objects(Dog.self).sorted(byKeyPath: "name").observe { change in
                if case .update(let results, _, let inserted, let modified) = change {
                    insertions.withLock { $0 += inserted.count }
                    modifications.withLock { $0 += modified }
                    counts.withLock { $0.append(results.count) }
                }
            }
        }
        defer { token.invalidate() }
        let holder = try TurnHolder(configuration)
        defer { holder.stop() }
        let writers = (0..<4).map { _ in Writer(configuration) }
        let modifier = ModifyingWriter(configuration)
        async let added = withThrowingTaskGroup(of: Bool.self) { group in
            for (index, writer) in writers.enumerated() { group.addTask { try await writer.add("new\(index)") } }
            group.addTask { try await modifier.ageDog(named: "old") }
            return try await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        try await holder.waitForWriters(5)
        _ = try holder.commit()
        #expect(try await added.allSatisfy { $0 })
        for _ in 0..<1_000 where counts.withLock({ $0.last }) != 6 { try await Task.sleep(for: .milliseconds(5)) }
        // The holder's dog and the group's four, each reported once; the old dog modified.
        #expect(insertions.withLock { $0 } == 5)
        #expect(modifications.withLock { $0 }.count == 1, "the modification of 'old' was not reported once")
        #expect(counts.withLock { $0.last } == 6)
    }

    /// An actor that changes an existing dog in an asynchronous write.
    private actor ModifyingWriter {
        let configuration: Realm.Configuration

        init(_ configuration: Realm.Configuration) {
            self.configuration = configuration
        }

        func ageDog(named name: String) async throws -> Bool {
            let realm = try await Realm.open(configuration: configuration)
            try await realm.asyncWrite { realm.objects(Dog.self).filter("name == %@", name).first!.age += 1 }
            return realm.objects(Dog.self).filter("name == %@", name).first!.age == 2
        }
    }
}
