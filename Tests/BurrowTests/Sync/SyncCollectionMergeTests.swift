import Burrow
import Foundation
import PostgreSQL
import TemporaryPostgres
import Testing

final class MergedNote: Object {
    @Persisted(primaryKey: true) var id: String = ""
    @Persisted var lines: List<String>
    @Persisted var readings: List<Double>
    @Persisted var labels: MutableSet<String>
    @Persisted var counts: Map<String, Int>
}

/// Collections edited on two machines at once merge element by element: every insert into a
/// list is kept, in clock order; sets merge element by element and maps key by key, the later
/// edit of one element or key winning.
@Suite(.enabled(if: TemporaryPostgres.isAvailable, "\(TemporaryPostgres.unavailableReason ?? "")"), .serialized,
       .plainFilesOnly("the server sees values, not files: encryption is covered by the local tests"))
final class SyncCollectionMergeTests {
    let fixture: SyncFixture
    var server: TemporaryPostgres { fixture.server }
    var directory: TestDirectory { fixture.directory }

    init() throws {
        fixture = try SyncFixture()
    }

    func configuration(_ name: String) -> Realm.Configuration {
        fixture.configuration(name, objectTypes: [MergedNote.self]) { $0.append(QuerySubscription<MergedNote>()) }
    }

    func converge(_ realms: Realm...) throws {
        try fixture.converge(realms)
    }

    /// Two files holding the note `id` with `lines`, `labels` and `counts`, paused: their
    /// writes wait, as on machines apart.
    func twoPausedFiles(note values: [String: Any]) throws -> (Realm, Realm, MergedNote, MergedNote) {
        let a = try Realm(configuration: configuration("a"))
        let b = try Realm(configuration: configuration("b"))
        try a.write { a.create(MergedNote.self, value: values) }
        try converge(a, b)
        a.syncSession!.pause()
        b.syncSession!.pause()
        let id = values["id"] as! String
        return (a, b, try #require(a.object(ofType: MergedNote.self, forPrimaryKey: id)),
                try #require(b.object(ofType: MergedNote.self, forPrimaryKey: id)))
    }

    func resumeAndConverge(_ a: Realm, _ b: Realm) throws {
        a.syncSession!.resume()
        b.syncSession!.resume()
        try converge(a, b)
    }

    func serverColumn(_ column: String, of id: String) throws -> String? {
        try PostgresConnection(server.connectionString).execute("SELECT \(column)::text FROM \"MergedNote\" WHERE id = $1", [id])[0, 0]
    }

    @Test func concurrentInsertsIntoOneListAreAllKeptInClockOrder() throws {
        let (a, b, onA, onB) = try twoPausedFiles(note: ["id": "n", "lines": ["first", "last"]])
        try a.write { onA.lines.insert("a between", at: 1); onA.lines.append("a at the end") }
        usleep(5_000)
        try b.write { onB.lines.insert("b between", at: 1); onB.lines.append("b at the end") }
        try resumeAndConverge(a, b)
        let expected = ["first", "a between", "b between", "last", "a at the end", "b at the end"]
        #expect(Array(onA.lines) == expected)
        #expect(Array(onB.lines) == expected)
        #expect(try serverColumn("lines", of: "n") == #"["first", "a between", "b between", "last", "a at the end", "b at the end"]"#)
    }

    @Test func aListRemovalAndAConcurrentInsertBothTakeEffect() throws {
        let (a, b, onA, onB) = try twoPausedFiles(note: ["id": "n", "lines": ["x", "y", "z"]])
        try a.write { onA.lines.remove(at: 1) }
        try b.write { onB.lines.insert("after y", at: 2); onB.lines[0] = "X" }
        try resumeAndConverge(a, b)
        #expect(Array(onA.lines) == ["X", "after y", "z"])
        #expect(Array(onB.lines) == Array(onA.lines))
    }

    @Test func aListElementRemovedOnBothMachinesIsRemovedOnce() throws {
        let (a, b, onA, onB) = try twoPausedFiles(note: ["id": "n", "lines": ["keep", "drop", "keep too"]])
        try a.write { onA.lines.remove(at: 1) }
        try b.write { onB.lines.remove(at: 1); onB.lines.append("new") }
        try resumeAndConverge(a, b)
        #expect(Array(onA.lines) == ["keep", "keep too", "new"])
        #expect(Array(onB.lines) == Array(onA.lines))
    }

    @Test func setsMergeElementByElement() throws {
        let (a, b, onA, onB) = try twoPausedFiles(note: ["id": "n", "labels": ["shared", "old"]])
        try a.write { onA.labels.insert("from a"); onA.labels.remove("old") }
        try b.write { onB.labels.insert("from b") }
        try resumeAndConverge(a, b)
        #expect(Set(onA.labels) == ["shared", "from a", "from b"])
        #expect(Set(onB.labels) == Set(onA.labels))
    }

    @Test func stringsThatDifferOnlyInTheirNormalFormStayApart() throws {
        let composed = "caf\u{E9}", decomposed = "cafe\u{301}"
        let (a, b, onA, onB) = try twoPausedFiles(note: ["id": "n", "labels": [composed], "counts": [composed: 1]])
        try a.write {
            onA.labels.insert(decomposed)
            onA.counts[decomposed] = 2
            onA.lines.append(objectsIn: [composed, decomposed])
        }
        try b.write { onB.labels.insert("other") }
        try resumeAndConverge(a, b)
        let c = try Realm(configuration: configuration("c"))
        try converge(c)
        let onC = try #require(c.object(ofType: MergedNote.self, forPrimaryKey: "n"))
        // In every file, and in one that starts from the server's tables.
        for note in [onA, onB, onC] {
            #expect(note.lines.map { Array($0.utf8) } == [Array(composed.utf8), Array(decomposed.utf8)])
            #expect(Set(note.labels.map { Array($0.utf8) }) == [Array(composed.utf8), Array(decomposed.utf8), Array("other".utf8)])
        }
        for note in [onA, onB, onC] {
            let counts = note.counts.map { (Array($0.key.utf8), $0.value) }
            #expect(counts.count == 2, "\(counts)")
            #expect(counts.contains { $0.0 == Array(composed.utf8) && $0.1 == 1 } && counts.contains { $0.0 == Array(decomposed.utf8) && $0.1 == 2 })
        }
    }

    @Test func aStringChangedToAnotherNormalFormIsAChange() throws {
        let composed = "caf\u{E9}", decomposed = "cafe\u{301}"
        let (a, b, onA, onB) = try twoPausedFiles(note: ["id": "n", "lines": [composed], "counts": ["k": 1]])
        try b.write {
            onB.lines[0] = decomposed
            onB.readings.append(1)
        }
        try resumeAndConverge(a, b)
        #expect(onA.lines.map { Array($0.utf8) } == [Array(decomposed.utf8)])
        #expect(try serverColumn("lines", of: "n").map { Array($0.utf8) } == Array(#"["cafe\#u{301}"]"#.utf8))
    }

    @Test func theLaterOfAnAddAndARemovalOfOneSetElementWins() throws {
        let (a, b, onA, onB) = try twoPausedFiles(note: ["id": "n", "labels": ["shared"]])
        /// The server gets `element` from a, which b has not seen; then a removes it and b
        /// adds it, the first of them `removalFirst`.
        func contest(_ element: String, removalFirst: Bool) throws {
            a.syncSession!.resume()
            try a.write { onA.labels.insert(element) }
            try a.syncSession!.waitUntilSynced()
            a.syncSession!.pause()
            let remove = { try a.write { onA.labels.remove(element) } }
            let add = { try b.write { onB.labels.insert(element) } }
            try removalFirst ? remove() : add()
            usleep(5_000)
            try removalFirst ? add() : remove()
            try resumeAndConverge(a, b)
            a.syncSession!.pause()
            b.syncSession!.pause()
        }
        try contest("added later", removalFirst: true)
        try contest("removed later", removalFirst: false)
        #expect(Set(onA.labels) == ["shared", "added later"])
        #expect(Set(onB.labels) == Set(onA.labels))
    }

    @Test func mapsMergeKeyByKeyAndTheLaterSetOfAKeyWins() throws {
        let (a, b, onA, onB) = try twoPausedFiles(note: ["id": "n", "counts": ["kept": 1, "removed by a": 2, "both": 3]])
        try a.write {
            onA.counts["from a"] = 10
            onA.counts["both"] = 30
            onA.counts.removeObject(for: "removed by a")
        }
        usleep(5_000)
        try b.write {
            onB.counts["from b"] = 20
            onB.counts["both"] = 300
            onB.counts["kept"] = 1
        }
        try resumeAndConverge(a, b)
        let expected = ["kept": 1, "both": 300, "from a": 10, "from b": 20]
        #expect(Dictionary(uniqueKeysWithValues: onA.counts.map { ($0.key, $0.value) }) == expected)
        #expect(Dictionary(uniqueKeysWithValues: onB.counts.map { ($0.key, $0.value) }) == expected)
        #expect(try serverColumn("counts", of: "n") == #"{"both": 300, "kept": 1, "from a": 10, "from b": 20}"#)
    }

    @Test func theSamePrimaryKeyCreatedOnTwoMachinesKeepsBothListsElements() throws {
        let a = try Realm(configuration: configuration("a"))
        let b = try Realm(configuration: configuration("b"))
        a.syncSession!.pause()
        b.syncSession!.pause()
        try a.write { a.create(MergedNote.self, value: ["id": "twice", "lines": ["a1", "a2"], "labels": ["a", "both"]]) }
        usleep(5_000)
        try b.write { b.create(MergedNote.self, value: ["id": "twice", "lines": ["b1"], "labels": ["b", "both"]]) }
        try resumeAndConverge(a, b)
        for realm in [a, b] {
            let note = try #require(realm.object(ofType: MergedNote.self, forPrimaryKey: "twice"))
            #expect(Set(note.lines) == ["a1", "a2", "b1"] && note.lines.count == 3)
            #expect(Set(note.labels) == ["a", "b", "both"])
        }
        let onA = a.object(ofType: MergedNote.self, forPrimaryKey: "twice")!
        let onB = b.object(ofType: MergedNote.self, forPrimaryKey: "twice")!
        #expect(Array(onA.lines) == Array(onB.lines))
    }

    @Test func numbersRespelledByTheServerAreStillTheSameElements() throws {
        let (a, b, onA, onB) = try twoPausedFiles(note: ["id": "n", "readings": [1e20, 1e-7, 0.5, -0.0]])
        try a.write { onA.readings.append(2.5) }
        try b.write { onB.readings.insert(3.5, at: 0) }
        try resumeAndConverge(a, b)
        #expect(Array(onA.readings) == [3.5, 1e20, 1e-7, 0.5, -0.0, 2.5])
        #expect(Array(onB.readings) == Array(onA.readings))
    }

    @Test func anOfflineMachineMergesManyEditsWithManyOthers() throws {
        let (a, b, onA, onB) = try twoPausedFiles(note: ["id": "n", "lines": (0..<20).map { "line \($0)" }])
        for round in 0..<50 {
            try a.write {
                onA.lines.insert("a\(round)", at: round % (onA.lines.count + 1))
                if round % 3 == 0 { onA.lines.remove(at: 0) }
                onA.counts["a\(round % 7)"] = round
            }
            try b.write {
                onB.lines.append("b\(round)")
                if round % 4 == 0, onB.lines.count > 5 { onB.lines.remove(at: 5) }
                onB.counts["b\(round % 5)"] = round
                onB.labels.insert("b\(round % 9)")
            }
        }
        let linesOnA = Array(onA.lines), linesOnB = Array(onB.lines)
        // Only a reconnects for a while: b's edits all wait.
        a.syncSession!.resume()
        try a.syncSession!.waitUntilSynced()
        try resumeAndConverge(a, b)
        let merged = Array(onA.lines)
        #expect(merged == Array(onB.lines))
        // Each machine's own elements are all kept, in its order; an original line is kept
        // unless either machine removed it.
        #expect(merged.filter { $0.hasPrefix("a") } == linesOnA.filter { $0.hasPrefix("a") })
        #expect(merged.filter { $0.hasPrefix("b") } == linesOnB.filter { $0.hasPrefix("b") })
        #expect(merged.filter { $0.hasPrefix("line") } == linesOnA.filter { $0.hasPrefix("line") && linesOnB.contains($0) })
        #expect(Dictionary(uniqueKeysWithValues: onA.counts.map { ($0.key, $0.value) })
                    == Dictionary(uniqueKeysWithValues: onB.counts.map { ($0.key, $0.value) }))
        #expect(onA.counts.count == 12 && Set(onA.labels) == Set((0..<9).map { "b\($0)" }))
    }
}
