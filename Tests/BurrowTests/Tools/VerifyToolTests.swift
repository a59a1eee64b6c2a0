import Burrow
import Foundation
import Testing

/// `burrow verify`, run as its own process: it reports intact and damaged files, and survives
/// damage that ends the process reading it.
@Suite(.enabled(if: BuildDirectory.product("burrow") != nil, "the burrow tool was not built beside the tests (run swift build --build-tests)"), .plainFilesOnly("the tool is run without BURROW_ENCRYPTION_KEY (EncryptedToolTests runs it with one)"))
struct VerifyToolTests {
    let directory = TestDirectory()

    /// 2,000 people with names and pictures, closed again.
    private func file() throws -> URL {
        let realm = try Realm(configuration: directory.configuration())
        try realm.write {
            for id in 0..<2000 { realm.add(Person(value: ["id": id, "name": "person \(id)", "picture": Data(count: id % 200)])) }
        }
        return directory.file()
    }

    @Test func anIntactFileExitsZero() throws {
        let url = try file()
        let run = try BurrowToolRun(["verify", url.path])
        #expect(run.status == 0, "\(run.output) \(run.errors)")
        #expect(run.output.contains("Person: 2000 objects"))
        #expect(run.output.hasSuffix("result: intact\n"))
    }

    @Test func aFileThatIsNotARealmIsBadInputNotDamage() throws {
        let url = directory.file("text.realm")
        try Data(repeating: 0x41, count: 20_000).write(to: url)
        let run = try BurrowToolRun(["verify", url.path])
        #expect(run.status == 2 && run.output.isEmpty)
        #expect(run.errors == "burrow verify: \(url.path): not a Burrow file (no LMDB header)\n")
    }

    @Test func misuseExitsTwo() throws {
        #expect(try BurrowToolRun(["verify"]).status == 2)
        #expect(try BurrowToolRun(["verify", "a", "b"]).status == 2)
    }

    /// Copies with bytes of data pages overwritten, at random places: whatever the check meets,
    /// even damage that ends the checking process, the tool reports a result and never dies.
    @Test func damagedDataPagesNeverEndTheTool() throws {
        let original = try Data(contentsOf: file())
        let pageSize = 4096, pages = original.count / pageSize
        var generator = SplitMix64(seed: 20261201)
        var outcomes: [String: Int] = [:]
        for round in 0..<24 {
            var bytes = original
            let page = Int.random(in: 2..<pages, using: &generator)
            let length = [8, 64, pageSize][round % 3]
            let start = page * pageSize + Int.random(in: 0..<(pageSize - length + 1), using: &generator)
            for offset in start..<start + length { bytes[offset] = UInt8.random(in: 0...255, using: &generator) }
            let url = directory.file("damaged-\(round).realm")
            try bytes.write(to: url)
            let run = try BurrowToolRun(["verify", url.path])
            #expect(!run.wasSignalled && (run.status == 0 || run.status == 1), "round \(round): \(run.status) \(run.errors)")
            let result = run.output.split(separator: "\n").last { $0.hasPrefix("result: ") }
            #expect(result != nil, "round \(round): \(run.output)")
            let kind = run.output.contains("stopped with signal") ? "stopped LMDB" : run.output.contains("cannot be opened") ? "refused" : String(result ?? "none")
            outcomes[kind, default: 0] += 1
        }
        print("burrow verify on 24 copies with damaged data pages: " + outcomes.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", "))
    }
}
