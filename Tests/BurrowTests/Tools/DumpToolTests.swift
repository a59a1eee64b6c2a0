import Burrow
import Foundation
import Testing

/// `burrow dump`, run as its own process: it prints what the file holds, and on damaged data
/// pages it prints, or stops naming the damage, never with a crash of its own.
@Suite(.enabled(if: BuildDirectory.product("burrow") != nil, "the burrow tool was not built beside the tests (run swift build --build-tests)"), .plainFilesOnly("the tool is run without BURROW_ENCRYPTION_KEY (EncryptedToolTests runs it with one)"))
struct DumpToolTests {
    let directory = TestDirectory()

    @Test func everyPropertyAndElementIsPrinted() throws {
        let realm = try Realm(configuration: directory.configuration(objectTypes: [Kennel.self, Puppy.self, Owner.self, Contact.self, Address.self,
                                                                                   Geo.self, Ledger.self]))
        try realm.write {
            realm.add(Kennel(value: ["id": 7, "name": "Üni ✓", "dogs": [["name": "Rex", "owner": ["id": 3, "name": "Ann"]]], "tags": ["a", "b"], "scores": [1, nil]]))
            realm.add(Contact(value: ["id": 1, "address": ["street": "Main", "geo": ["latitude": 1.5]]]))
            realm.add(Ledger(value: ["id": 2, "scores": ["x": 5]]))
        }
        let run = try BurrowToolRun(["dump", directory.file().path])
        #expect(run.status == 0, "\(run.errors)")
        for expected in ["Kennel: 1 objects", "  name: Üni ✓", "  dogs: 1 elements", "    Puppy {\"name\":\"Rex\",\"age\":0}", "  tags: 2 elements", "    a", "    nil",
                         "Puppy: 1 objects", "  owner: Owner(id: 3)", "Contact: 1 objects", "  address: Address {", "    street: Main",
                         "      latitude: 1.5", "  scores: 1 elements", "    x: 5"] {
            #expect(run.output.contains(expected + "\n"), "missing \(expected) in\n\(run.output)")
        }
        #expect(!run.output.contains("Address: "))  // embedded objects print inside their owners

        let one = try BurrowToolRun(["dump", directory.file().path, "Owner"])
        #expect(one.output == "Owner: 1 objects\n  id: 3\n  name: Ann\n  partner: nil\n")
        #expect(try BurrowToolRun(["dump", directory.file().path, "Nothing"]).status == 2)
        #expect(try BurrowToolRun(["dump"]).status == 2)
    }

    /// Copies with bytes of data pages overwritten at random places, dumped in full. The tool
    /// prints, refuses the file, or stops on damage it names (Burrow's "The file is damaged",
    /// from a property read that cannot throw) or that LMDB meets in its own pages; nothing
    /// else. The outcomes are counted and printed.
    @Test func damagedDataPagesArePrintedRefusedOrNamed() throws {
        do {
            let realm = try Realm(configuration: directory.configuration())
            try realm.write {
                for id in 0..<2000 { realm.add(Person(value: ["id": id, "name": "person \(id)", "picture": Data(count: id % 200)])) }
            }
        }
        let original = try Data(contentsOf: directory.file())
        let pageSize = 4096, pages = original.count / pageSize
        var generator = SplitMix64(seed: 7)
        var outcomes: [String: Int] = [:]
        for round in 0..<24 {
            var bytes = original
            let length = [8, 64, pageSize][round % 3]
            let start = Int.random(in: 2..<pages, using: &generator) * pageSize + Int.random(in: 0..<(pageSize - length + 1), using: &generator)
            for offset in start..<start + length { bytes[offset] = UInt8.random(in: 0...255, using: &generator) }
            let url = directory.file("damaged-\(round).realm")
            try bytes.write(to: url)
            let run = try BurrowToolRun(["dump", url.path])
            let outcome = DamageOutcome(run)
            #expect(outcome != .unexplained, "round \(round): status \(run.status), signalled \(run.wasSignalled): \(run.errors.prefix(600))")
            outcomes["\(outcome)", default: 0] += 1
        }
        print("burrow dump on 24 copies with damaged data pages: " + outcomes.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", "))
    }
}

/// How a run of the tool on a damaged file ended.
enum DamageOutcome: String, CustomStringConvertible {
    case printed, refused
    /// Burrow met damage where it could not throw, and stopped saying so.
    case namedDamage = "stopped naming the damage"
    /// LMDB met damage in its own pages: its assertion, an LMDB error where Burrow cannot throw
    /// (`MDB_CORRUPTED`, `MDB_PAGE_NOTFOUND`), a fault following a damaged pointer, or a row
    /// that the table's own scan listed and its lookup then could not find.
    case lmdb = "stopped in LMDB's pages"
    case unexplained

    init(_ run: BurrowToolRun) {
        if run.status == 0 && !run.wasSignalled { self = .printed }
        else if run.status == 2 && !run.wasSignalled { self = .refused }
        else if run.errors.contains("The file is damaged") { self = .namedDamage }
        else if run.errors.contains("mdb.c") || run.errors.contains(": MDB_") || run.errors.contains("Object has been deleted or invalidated")
                    || (run.wasSignalled && [SIGSEGV, SIGBUS].contains(run.status)) { self = .lmdb }
        else { self = .unexplained }
    }

    var description: String { rawValue }
}
