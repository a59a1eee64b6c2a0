import Burrow
import Dispatch
import Foundation
import Synchronization

/// One process of `burrow stress`: threads running the workload on one file until a deadline,
/// notification listeners checking every commit they hear of (``StressListener``), and a line of
/// counters on standard output every second (``StressReport``).
final class StressWorker: Sendable {
    struct Options: Sendable {
        var path: String
        var threads: Int
        var seconds: Int
        /// Makes some transfers debit without crediting, to prove the checks catch it.
        var breakInvariant: Bool
    }

    private let options: Options
    private let configuration: Realm.Configuration
    private let deadline: Date
    private let transactions = Atomic<Int>(0)
    private let reads = Atomic<Int>(0)
    private let violations = Atomic<Int>(0)
    private let notifications = Atomic<Int>(0)
    private let waits = LockedHistogram()
    private let listener = StressListener()

    init(_ options: Options) {
        self.options = options
        configuration = StressLedger.configuration(options.path)
        deadline = Date().addingTimeInterval(TimeInterval(options.seconds))
    }

    /// Runs the threads until the deadline; returns the exit status.
    func run() -> Int32 {
        do {
            try listener.start(configuration: configuration, notified: { [self] in notifications.add(1, ordering: .relaxed) },
                               violation: { [self] in violation($0) })
        } catch {
            violation("cannot listen for notifications: \(error)")
        }
        let finished = DispatchGroup()
        for index in 0..<options.threads {
            finished.enter()
            let thread = Thread { [self] in
                runThread(index)
                finished.leave()
            }
            thread.stackSize = 1 << 20
            thread.start()
        }
        while finished.wait(timeout: .now() + 1) == .timedOut { report() }
        listener.stop()
        report()
        return 0
    }

    private func report() {
        let line = StressReport(transactions: transactions.load(ordering: .relaxed), reads: reads.load(ordering: .relaxed),
                                violations: violations.load(ordering: .relaxed), notifications: notifications.load(ordering: .relaxed),
                                waits: waits.snapshot).line
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    /// Counts a violation; the first ten of a process are printed.
    private func violation(_ what: String) {
        let count = violations.add(1, ordering: .relaxed).newValue
        guard count <= 10 else { return }
        FileHandle.standardError.write(Data("burrow stress: violation in process \(getpid()): \(what)\n".utf8))
    }

    // MARK: The workload

    private func runThread(_ index: Int) {
        let realm: Realm
        do {
            realm = try Realm(configuration: configuration)
        } catch {
            violation("cannot open the file: \(error)")
            return
        }
        let accounts = realm.objects(StressAccount.self).count
        guard accounts >= 2 else { return violation("the file has \(accounts) accounts") }
        let writer = StressActor(configuration: configuration)
        var lastTick = StressLedger.tick(in: realm)
        var round = 0
        while Date() < deadline {
            round += 1
            switch Int.random(in: 0..<100) {
            case ..<35: transfer(in: realm, accounts: accounts)
            case ..<45: fileNote(in: realm, accounts: accounts)
            case ..<55: removeNote(in: realm, accounts: accounts)
            case ..<80: check(realm, accounts: accounts, lastTick: &lastTick, fully: round % 20 == 0)
            case ..<88: checkFrozen(realm)
            case ..<95: handOver(realm, accounts: accounts)
            default: transferOnActor(writer, accounts: accounts)
            }
        }
    }

    /// A write that also moves the clock, timing the wait for the writer's turn.
    private func write(_ realm: Realm, _ body: () -> Void) {
        let asked = DispatchTime.now().uptimeNanoseconds
        do {
            try realm.write {
                waits.record(microseconds: Int((DispatchTime.now().uptimeNanoseconds - asked) / 1_000))
                body()
                realm.objects(StressClock.self).first!.tick += 1
            }
            transactions.add(1, ordering: .relaxed)
        } catch {
            violation("a write failed: \(error)")
        }
    }

    private func twoAccounts(_ count: Int) -> (Int, Int) {
        let first = Int.random(in: 0..<count)
        return (first, (first + Int.random(in: 1..<count)) % count)
    }

    private func transfer(in realm: Realm, accounts: Int) {
        let (from, to) = twoAccounts(accounts)
        let amount = Int.random(in: 1...50)
        let broken = options.breakInvariant && Int.random(in: 0..<20) == 0
        write(realm) {
            realm.object(ofType: StressAccount.self, forPrimaryKey: from)!.balance -= amount
            if !broken { realm.object(ofType: StressAccount.self, forPrimaryKey: to)!.balance += amount }
        }
    }

    private func fileNote(in realm: Realm, accounts: Int) {
        let id = Int.random(in: 0..<accounts)
        write(realm) {
            let account = realm.object(ofType: StressAccount.self, forPrimaryKey: id)!
            let note = StressNote(value: ["id": UUID().uuidString, "text": "filed by \(getpid())"])
            note.account = account
            account.notes.append(note)
            account.noteCount += 1
        }
    }

    private func removeNote(in realm: Realm, accounts: Int) {
        let id = Int.random(in: 0..<accounts)
        write(realm) {
            let account = realm.object(ofType: StressAccount.self, forPrimaryKey: id)!
            guard let note = account.notes.last else { return }
            account.noteCount -= 1
            realm.delete(note)
        }
    }

    /// Refreshes and checks the invariants; the clock must not go back.
    private func check(_ realm: Realm, accounts: Int, lastTick: inout Int, fully: Bool) {
        realm.refresh()
        let tick = StressLedger.tick(in: realm)
        if tick < lastTick { violation("a snapshot went back in time: tick \(lastTick) -> \(tick)") }
        lastTick = tick
        if let problem = StressLedger.problem(in: realm, checking: fully ? nil : Int.random(in: 0..<accounts)) {
            violation(problem)
        }
        reads.add(1, ordering: .relaxed)
    }

    /// Freezes the realm and checks the snapshot on two other threads at once.
    private func checkFrozen(_ realm: Realm) {
        let snapshot = Frozen(realm.freeze())
        let problems = LockedValue<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 2) { _ in
            if let problem = StressLedger.problem(in: snapshot.value) { problems.update { $0.append(problem) } }
        }
        problems.value.forEach { violation("frozen: \($0)") }
        reads.add(2, ordering: .relaxed)
    }

    /// Hands an account to another thread, which reads it in its own realm.
    private func handOver(_ realm: Realm, accounts: Int) {
        let reference = ThreadSafeReference(to: realm.object(ofType: StressAccount.self, forPrimaryKey: Int.random(in: 0..<accounts))!)
        let configuration = self.configuration
        let outcome = DispatchQueue.global().sync { () -> String? in
            do {
                let other = try Realm(configuration: configuration)
                guard let account = other.resolve(reference) else { return "a handed-over account is gone" }
                return account.notes.count == account.noteCount ? nil
                    : "handed-over account \(account.id) lists \(account.notes.count) notes but counts \(account.noteCount)"
            } catch {
                return "cannot open the file for a hand-over: \(error)"
            }
        }
        if let outcome { violation(outcome) }
        reads.add(1, ordering: .relaxed)
    }

    /// A transfer through an actor's asynchronous write, waited for on this thread.
    private func transferOnActor(_ writer: StressActor, accounts: Int) {
        let (from, to) = twoAccounts(accounts)
        let done = DispatchSemaphore(value: 0)
        let outcome = LockedValue<Result<Int, any Error>?>(nil)
        let amount = Int.random(in: 1...50)
        Task {
            do {
                let waited = try await writer.transfer(from: from, to: to, amount: amount)
                outcome.update { $0 = .success(waited) }
            } catch {
                outcome.update { $0 = .failure(error) }
            }
            done.signal()
        }
        done.wait()
        switch outcome.value {
        case .success(let waited)?:
            waits.record(microseconds: waited)
            transactions.add(1, ordering: .relaxed)
        case .failure(let error)?:
            violation("an actor's write failed: \(error)")
        case nil:
            violation("an actor's write never finished")
        }
    }
}

/// An actor writing through its own realm, with `asyncWrite`.
actor StressActor {
    private let configuration: Realm.Configuration
    private var realm: Realm?

    init(configuration: Realm.Configuration) {
        self.configuration = configuration
    }

    /// Moves `amount`; returns how long the write waited for its turn, in microseconds.
    func transfer(from: Int, to: Int, amount: Int) async throws -> Int {
        let realm = try await opened()
        let asked = DispatchTime.now().uptimeNanoseconds
        var waited = 0
        try await realm.asyncWrite {
            waited = Int((DispatchTime.now().uptimeNanoseconds - asked) / 1_000)
            realm.object(ofType: StressAccount.self, forPrimaryKey: from)!.balance -= amount
            realm.object(ofType: StressAccount.self, forPrimaryKey: to)!.balance += amount
            realm.objects(StressClock.self).first!.tick += 1
        }
        return waited
    }

    private func opened() async throws -> Realm {
        if let realm { return realm }
        let opened = try await Realm.open(configuration: configuration)
        realm = opened
        return opened
    }
}
