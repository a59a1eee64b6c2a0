import Burrow
import Foundation
import Synchronization
import PostgreSQL
import TemporaryPostgres
import Testing

final class FuzzNote: Object {
    @Persisted(primaryKey: true) var id: String = ""
    @Persisted var title: String = ""
    @Persisted var priority: Int = 0
    @Persisted var lines: List<String>
    @Persisted var labels: MutableSet<String>
    @Persisted var counts: Map<String, Int>
    @Persisted var next: FuzzNote?
    @Persisted var related: List<FuzzNote>
    @Persisted var place: FuzzPlace?
}

final class FuzzPlace: EmbeddedObject {
    @Persisted var street: String = ""
    @Persisted var number: Int = 0
}

/// Three client processes write at random for a minute (objects created, changed and
/// deleted; list, set and map elements inserted, replaced, moved and removed), pausing their
/// sessions at random while the server cuts every connection now and then; afterwards every
/// client and the server's table hold exactly the same data, and every file verifies clean.
@Suite(.enabled(if: TemporaryPostgres.isAvailable, "\(TemporaryPostgres.unavailableReason ?? "")"), .serialized,
       .plainFilesOnly("the server sees values, not files: encryption is covered by the local tests"))
final class SyncFuzzTests {
    let fixture: SyncFixture
    var server: TemporaryPostgres { fixture.server }
    var directory: TestDirectory { fixture.directory }
    static let seconds = 60.0

    init() throws {
        fixture = try SyncFixture()
    }

    static func configuration(path: String, server: String) -> Realm.Configuration {
        var configuration = Realm.Configuration(fileURL: URL(fileURLWithPath: path), objectTypes: [FuzzNote.self, FuzzPlace.self])
        configuration.syncConfiguration = SyncConfiguration(server: server,
                                                            initialSubscriptions: { $0.append(QuerySubscription<FuzzNote>()) })
        return configuration
    }

    /// What a note holds, as any holder of it reads it.
    struct NoteDump {
        var id: String, title: String, priority: Int, lines: [String], labels: Set<String>, counts: [String: Int]
        var next: String?, related: [String], place: String?
    }

    /// One line per note, sorted: what two holders of the same data print alike.
    static func dump(_ notes: [NoteDump]) -> [String] {
        notes.map { note in
            let counts = note.counts.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
            return "\(note.id)|\(note.title)|\(note.priority)|\(note.lines)|\(note.labels.sorted())|\(counts)|\(note.next ?? "-")|\(note.related)|\(note.place ?? "-")"
        }.sorted()
    }

    func clientDump(_ name: String) throws -> [String] {
        try Self.clientDump(path: directory.file(name).path, server: server.connectionString, fixture: fixture)
    }

    /// The notes of the file at `path` once it holds everything `server` has.
    static func clientDump(path: String, server: String, fixture: SyncFixture) throws -> [String] {
        let configuration = Self.configuration(path: path, server: server)
        fixture.track(configuration)
        let realm = try Realm(configuration: configuration)
        try realm.syncSession!.waitUntilSynced(timeout: 120)
        realm.refresh()
        return Self.dump(realm.objects(FuzzNote.self).map { note in
            NoteDump(id: note.id, title: note.title, priority: note.priority, lines: Array(note.lines), labels: Set(note.labels),
                     counts: Dictionary(uniqueKeysWithValues: note.counts.map { ($0.key, $0.value) }),
                     next: note.next?.id, related: note.related.map(\.id), place: note.place.map { "\($0.street)#\($0.number)" })
        })
    }

    /// The server table's notes. A link to a note deleted at the same time as it was made
    /// stays in the row until the owner next changes; every client reads it as no link, and
    /// so does this.
    func serverDump() throws -> [String] {
        try Self.serverDump(server.connectionString)
    }

    /// The notes of the server's table, as ``serverDump()``.
    static func serverDump(_ server: String) throws -> [String] {
        let rows = try PostgresConnection(server).execute(
            "SELECT id, title, priority, lines::text, labels::text, counts::text, next, related::text, place::text FROM \"FuzzNote\"")
        let ids = Set((0..<rows.rowCount).map { rows[$0, 0]! })
        return try Self.dump((0..<rows.rowCount).map { row in
            func json(_ column: Int) throws -> Any? { try rows[row, column].map { try JSONSerialization.jsonObject(with: Data($0.utf8)) } }
            let place = try json(8) as? [String: Any]
            return NoteDump(id: rows[row, 0]!, title: rows[row, 1]!, priority: Int(rows[row, 2]!)!, lines: try json(3) as! [String],
                            labels: Set(try json(4) as! [String]), counts: try json(5) as! [String: Int],
                            next: rows[row, 6].flatMap { ids.contains($0) ? $0 : nil },
                            related: (try json(7) as! [String]).filter(ids.contains),
                            place: place.map { "\($0["street"] as! String)#\($0["number"] as! Int)" })
        })
    }

    @Test func threeClientsWritingAtRandomWithDisconnectsConverge() async throws {
        let url = server.connectionString
        let seed = UInt64.random(in: 1...UInt64.max)
        print("sync fuzz seed \(seed)")
        // The server cuts every client connection every second or two, from a thread of its
        // own: the test's tasks wait on the child processes.
        let cutter = ConnectionCutter(server: url)
        cutter.start()
        await withTaskGroup(of: Void.self) { group in
            for client in 0..<3 {
                let path = directory.file("client\(client).realm").path
                group.addTask {
                    await #expect(processExitsWith: .success) { [path = path as String, url = url as String, client = client as Int,
                                                                seed = seed as UInt64] in
                        var random = SplitMix64(seed: seed &+ UInt64(client) &* 0x9E37_79B9)
                        let realm = try! Realm(configuration: SyncFuzzTests.configuration(path: path, server: url))
                        let writer = FuzzWriter(realm: realm, client: client)
                        let deadline = Date().addingTimeInterval(SyncFuzzTests.seconds)
                        var writes = 0
                        while Date() < deadline {
                            if random.next(below: 100) < 2 {
                                // Offline for a while: writes go on.
                                realm.syncSession!.pause()
                                let offline = Date().addingTimeInterval(Double(random.next(below: 1500)) / 1000)
                                while Date() < offline {
                                    try! writer.randomWrite(&random)
                                    writes += 1
                                    usleep(useconds_t(random.next(below: 20_000)))
                                }
                                realm.syncSession!.resume()
                            }
                            try! writer.randomWrite(&random)
                            writes += 1
                            usleep(useconds_t(random.next(below: 20_000)))
                        }
                        try! realm.syncSession!.waitUntilSynced(timeout: 120)
                        try! String(writes).write(toFile: path.replacingOccurrences(of: ".realm", with: ".writes"), atomically: true, encoding: .utf8)
                    }
                }
            }
        }
        let cuts = cutter.stop()
        let writes = (0..<3).map { (try? String(contentsOf: directory.file("client\($0).writes"), encoding: .utf8)) ?? "?" }
        print("sync fuzz: \(writes.joined(separator: ", ")) writes by the clients; the server cut the connections \(cuts) times")
        #expect(cuts > 10, "the server cut the connections too seldom to test anything")
        let expected = try serverDump()
        #expect(expected.count > 5, "the clients left too little to compare")
        for client in 0..<3 {
            let dump = try clientDump("client\(client).realm")
            #expect(dump == expected, "client \(client) differs from the server (seed \(seed)): \(Set(dump).symmetricDifference(expected).sorted().prefix(6))")
        }
        #expect(try clientDump("late.realm") == expected, "a new client differs from the server (seed \(seed))")
        fixture.stopSessions()
        for name in ["client0", "client1", "client2", "late"] {
            expectIntact(directory.file("\(name).realm"), encryptionKey: nil)
        }
    }
}

/// A thread that has the server cut every client connection every second or two.
final class ConnectionCutter: @unchecked Sendable {
    private let server: String
    private let stopped = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)
    private var cuts = 0

    init(server: String) {
        self.server = server
    }

    func start() {
        Thread { [self] in
            while !stopped.load(ordering: .acquiring) {
                usleep(useconds_t.random(in: 700_000...2_000_000))
                let admin = try? PostgresConnection(server)
                if (try? admin?.execute("""
                    SELECT pg_terminate_backend(pid) FROM pg_stat_activity
                    WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend'
                    """)) != nil { cuts += 1 }
            }
            finished.signal()
        }.start()
    }

    /// Stops cutting; returns how many times it cut.
    func stop() -> Int {
        stopped.store(true, ordering: .releasing)
        finished.wait()
        return cuts
    }
}

extension SplitMix64 {
    /// A number in `0..<bound`.
    mutating func next(below bound: Int) -> Int {
        Int.random(in: 0..<bound, using: &self)
    }
}

/// One random write of a fuzz client: over a few notes, so that clients often meet.
struct FuzzWriter {
    let realm: Realm
    let client: Int

    func randomWrite(_ random: inout SplitMix64) throws {
        let id = "note\(random.next(below: 12))"
        let words = ["alpha", "beta", "gamma", "delta", "ε", "名前", "", "🙂"]
        func word() -> String { words[random.next(below: words.count)] + "\(random.next(below: 5))" }
        try realm.write {
            guard let note = realm.object(ofType: FuzzNote.self, forPrimaryKey: id) else {
                if random.next(below: 3) > 0 {
                    realm.create(FuzzNote.self, value: ["id": id, "title": "made by \(client)", "priority": random.next(below: 100),
                                                        "lines": [word(), word()], "labels": [word()], "counts": [word(): 1]])
                }
                return
            }
            func anyNote() -> FuzzNote? { realm.object(ofType: FuzzNote.self, forPrimaryKey: "note\(random.next(below: 12))") }
            switch random.next(below: 18) {
            case 0: realm.delete(note)
            case 1: note.title = "\(word()) by \(client)"
            case 2: note.priority = random.next(below: 1000)
            case 3, 4: note.lines.insert(word(), at: random.next(below: note.lines.count + 1))
            case 5: note.lines.append(word())
            case 6: if !note.lines.isEmpty { note.lines.remove(at: random.next(below: note.lines.count)) }
            case 7: if !note.lines.isEmpty { note.lines[random.next(below: note.lines.count)] = word() }
            case 8:
                if note.lines.count > 1 {
                    note.lines.move(from: random.next(below: note.lines.count), to: random.next(below: note.lines.count))
                }
            case 9: note.labels.insert(word())
            case 10: if let label = note.labels.randomElement(using: &random) { note.labels.remove(label) }
            case 11: note.counts[word()] = random.next(below: 50)
            case 12: if let key = note.counts.keys.randomElement(using: &random) { note.counts.removeObject(for: key) }
            case 14: note.next = anyNote()
            case 15: if let other = anyNote() { note.related.append(other) }
            case 16: if !note.related.isEmpty { note.related.remove(at: random.next(below: note.related.count)) }
            case 17:
                if let place = note.place, random.next(below: 2) == 0 {
                    place.number = random.next(below: 100)
                } else {
                    note.place = FuzzPlace(value: ["street": word(), "number": random.next(below: 100)])
                }
            default:
                note.title = "both \(client)"
                note.lines.append("\(client)")
                note.labels.insert("\(client)")
            }
        }
    }
}
