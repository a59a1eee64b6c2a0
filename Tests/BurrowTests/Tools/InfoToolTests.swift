import Burrow
import Foundation
import Testing

/// `burrow info` and `burrow readers`: counts and space by class, and the processes holding
/// old versions, including one that died holding one, which `readers --clear-stale` clears.
@Suite(.enabled(if: BuildDirectory.product("burrow") != nil, "the burrow tool was not built beside the tests (run swift build --build-tests)"),
       .plainFilesOnly("the tool is run without BURROW_ENCRYPTION_KEY (EncryptedToolTests runs it with one)"))
struct InfoToolTests {
    let directory = TestDirectory()

    private func json(_ run: BurrowToolRun) throws -> [String: Any] {
        #expect(run.status == 0, "\(run.errors)")
        return try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any], "\(run.output)")
    }

    @Test func countsAndSpaceByClass() throws {
        let path = directory.file("demo.realm").path
        #expect(try BurrowToolRun(["demo", path, "--people", "400"]).status == 0)
        let info = try json(try BurrowToolRun(["info", path, "--json"]))
        let classes = try #require(info["classes"] as? [[String: Any]])
        #expect(classes.map { $0["name"] as? String } == ["Address", "Dog", "Person", "Visit"])
        #expect(classes.map { $0["objects"] as? Int } == [400, 600, 400, 300])
        let person = try #require(classes.first { $0["name"] as? String == "Person" })
        #expect((person["rowBytes"] as? Int ?? 0) > 0 && (person["indexBytes"] as? Int ?? 0) > 0 && (person["collectionBytes"] as? Int ?? 0) > 0)
        #expect((person["properties"] as? [[String: Any]])?.first?["primaryKey"] as? Bool == true)
        let fileBytes = try #require(info["fileBytes"] as? Int), used = try #require(info["usedBytes"] as? Int)
        let free = try #require(info["freeBytes"] as? Int)
        #expect(fileBytes == (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int))
        #expect(used + free == fileBytes && used > 0)
        let classBytes = classes.reduce(0) { $0 + ($1["rowBytes"] as! Int) + ($1["indexBytes"] as! Int) + ($1["collectionBytes"] as! Int) }
        #expect(classBytes + (info["metadataBytes"] as! Int) == used)
        #expect((info["readers"] as? [Any])?.isEmpty == true && (info["warnings"] as? [Any])?.isEmpty == true)

        let text = try BurrowToolRun(["info", path])
        #expect(text.status == 0)
        for line in ["  format 4, schema version 0, latest version ", "class Dog (primary key id)", "readers: 0 of "] {
            #expect(text.output.contains(line), "missing '\(line)' in\n\(text.output)")
        }
        #expect(text.output.split(separator: "\n").contains { $0.hasPrefix("Person ") && $0.split(separator: " ").dropFirst().first == "400" },
                "\(text.output)")
    }

    @Test func readersFarBehindAndDeadOnesAreNamedAndTheDeadCleared() async throws {
        let path = directory.file("demo.realm").path
        #expect(try BurrowToolRun(["demo", path, "--people", "20"]).status == 0)
        let url = URL(fileURLWithPath: path)
        // This process holds the first version; a child holds it too, writes 150 commits past
        // it, and is killed holding it (and the latest, which its live realm reads).
        let owner = ConfinedThread()
        defer { owner.stop() }
        var held: Realm?
        try owner.run { held = try Realm(configuration: Realm.Configuration(fileURL: url, readOnly: true, objectTypes: [])).freeze() }
        await #expect(processExitsWith: .signal(SIGKILL)) { [url = url as URL] in
            let realm = try! Realm(configuration: Realm.Configuration(fileURL: url, objectTypes: []))
            let pinned = realm.freeze()
            for commit in 0..<150 {
                try! realm.write { realm.dynamicCreate("Visit", value: ["note": "visit \(commit)", "at": Date()]) }
            }
            withExtendedLifetime(pinned) { _ = kill(getpid(), SIGKILL) }
        }
        let info = try json(try BurrowToolRun(["info", path, "--json"]))
        let readers = try #require(info["readers"] as? [[String: Any]])
        let mine = readers.filter { $0["pid"] as? Int == Int(getpid()) }, dead = readers.filter { $0["pid"] as? Int != Int(getpid()) }
        #expect(mine.count == 1 && mine.first?["alive"] as? Bool == true && mine.first?["versionsBehind"] as? Int == 150, "\(readers)")
        #expect(!dead.isEmpty && dead.allSatisfy { $0["alive"] as? Bool == false }, "\(readers)")
        #expect(dead.contains { $0["versionsBehind"] as? Int == 150 } && Set(dead.map { $0["pid"] as? Int }).count == 1, "\(readers)")
        let warnings = try #require(info["warnings"] as? [String])
        #expect(warnings.contains { $0.hasPrefix("process \(getpid()) holds version") && $0.contains("the file cannot reuse the pages freed since") })
        #expect(warnings.contains { $0.contains("died holding version") && $0.contains("burrow readers \(path) --clear-stale") }, "\(warnings)")

        let text = try BurrowToolRun(["info", path])
        #expect(text.output.contains("readers: \(readers.count) of ") && text.output.contains("(gone): version ")
                && text.output.contains("warning: process \(getpid()) holds version"), "\(text.output)")

        let cleared = try json(try BurrowToolRun(["readers", path, "--clear-stale", "--json"]))
        #expect(cleared["cleared"] as? Int == dead.count)
        #expect((cleared["readers"] as? [[String: Any]])?.map { $0["pid"] as? Int } == [Int(getpid())])
        try owner.run { held = nil }
        let after = try BurrowToolRun(["readers", path])
        #expect(after.status == 0 && after.output.hasPrefix("0 of "), "\(after.output)")
        _ = held
    }
}
