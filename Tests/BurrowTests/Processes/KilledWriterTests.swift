import Burrow
import Foundation
import Testing

/// A writer killed (SIGKILL) at random moments, 100 times: every commit before the kill is
/// whole, nothing after it shows, and no lock stays held.
@Suite struct KilledWriterTests {
    let directory = TestDirectory()

    /// Each transaction adds a batch of people named after it and a ledger entry (`id` =
    /// -batch) counting them, so a half-applied transaction would show as a mismatch.
    static let batchSize = 25

    @Test func commitsSurviveAWriterKilledAtRandomMoments() async throws {
        let path = directory.file().path
        let rounds = 100
        var committedBefore = 0
        for round in 0..<rounds {
            await #expect(processExitsWith: .signal(SIGKILL)) { [path = path as String, round = round as Int] in
                let realm = try! Realm(fileURL: URL(fileURLWithPath: path))
                // A killer thread ends the process after a random delay, wherever the writer is.
                var generator = SystemRandomNumberGenerator()
                let delay = useconds_t(Int.random(in: 0...15_000, using: &generator))
                Thread { usleep(delay); kill(getpid(), SIGKILL) }.start()
                var batch = (realm.objects(Person.self).filter("id < 0").min(ofProperty: "id") as Int? ?? 0) - 1
                while true {
                    try! realm.write {
                        let first = -batch * 1000
                        for offset in 0..<KilledWriterTests.batchSize {
                            realm.add(Person(value: ["id": first + offset, "name": "batch \(-batch) round \(round)"]))
                        }
                        realm.add(Person(value: ["id": batch, "name": "ledger", "age": KilledWriterTests.batchSize]))
                    }
                    batch -= 1
                }
            }
            let realm = try Realm(fileURL: URL(fileURLWithPath: path))
            let ledgers = realm.objects(Person.self).filter("id < 0")
            #expect(ledgers.count >= committedBefore, "round \(round) lost commits")
            committedBefore = ledgers.count
            // Every committed batch is whole; no person exists without its ledger entry.
            let people = realm.objects(Person.self).filter("id > 0 OR (id == 0 AND name != 'ledger')")
            #expect(people.count == ledgers.count * Self.batchSize, "round \(round): a half-applied transaction")
            // The dead writer's lock is free: this process writes at once.
            try realm.write { realm.add(Person(value: ["id": 999_999_000 + round])) }
            try realm.write { realm.delete(realm.object(ofType: Person.self, forPrimaryKey: 999_999_000 + round)!) }
        }
        #expect(committedBefore > 0)
        expectIntact(URL(fileURLWithPath: path), encryptionKey: nil)
        print("killed writer: \(rounds) rounds, \(committedBefore) transactions committed and intact")
    }
}
