import Burrow
import Foundation
import PostgreSQL
import Synchronization
import TemporaryPostgres
import Testing

/// Machines apart: the server in a network namespace of its own and each client process in
/// another, joined by veth pairs. Links are cut and healed at random while every client
/// writes; afterwards every client and the server's table hold the same data.
@Suite(.enabled(if: TemporaryPostgres.isAvailable && NetworkNamespaces.unavailableReason == nil,
                "\(TemporaryPostgres.unavailableReason ?? NetworkNamespaces.unavailableReason ?? "")"),
       .serialized, .plainFilesOnly("the server sees values, not files: encryption is covered by the local tests"))
final class SyncPartitionTests {
    static let seconds = 25.0

    @Test func clientsCutOffAndHealedWhileEveryoneWritesConverge() async throws {
        let namespaces = try NetworkNamespaces(clients: 3)
        let fixture = try SyncFixture(networkNamespace: namespaces.server)
        defer { fixture.stopSessions() }
        let server = fixture.server
        let seed = UInt64.random(in: 1...UInt64.max)
        print("sync partition seed \(seed)")
        // Cut links for four to six seconds (longer than a client takes to notice), a client
        // at a time or two, for as long as they write.
        let cutsFile = fixture.directory.file("cuts").path
        let cutter = Thread {
            var random = SplitMix64(seed: seed)
            let deadline = Date().addingTimeInterval(Self.seconds - 2)
            var cuts = 0
            while Date() < deadline {
                Thread.sleep(forTimeInterval: Double(500 + random.next(below: 1500)) / 1000)
                let victims = Set((0..<(1 + Int(random.next(below: 2)))).map { _ in Int(random.next(below: 3)) })
                for victim in victims { try? namespaces.setLink(of: victim, up: false) }
                Thread.sleep(forTimeInterval: Double(4000 + random.next(below: 2000)) / 1000)
                for victim in victims { try? namespaces.setLink(of: victim, up: true) }
                cuts += victims.count
            }
            try? String(cuts).write(toFile: cutsFile, atomically: true, encoding: .utf8)
        }
        cutter.start()
        await withTaskGroup(of: Void.self) { group in
            for client in 0..<3 {
                let path = fixture.directory.file("client\(client).realm").path
                let namespace = namespaces.clients[client]
                // Failures show within seconds: the links are cut for seconds at a time.
                let url = "host=\(namespaces.serverAddress(client)) port=\(server.port) user=\(server.superuser) "
                    + "password=\(server.superuserPassword) dbname=\(server.database) connect_timeout=2 "
                    + "keepalives_idle=1 keepalives_interval=1 keepalives_count=2 tcp_user_timeout=3000"
                group.addTask {
                    await #expect(processExitsWith: .success) { [path = path as String, url = url as String, client = client as Int,
                                                                seed = seed as UInt64, namespace = namespace as String] in
                        try! NetworkNamespaces.enter(namespace)
                        var random = SplitMix64(seed: seed &+ UInt64(client + 1) &* 0x9E37_79B9)
                        var configuration = SyncFuzzTests.configuration(path: path, server: url)
                        let lost = Atomic<Int>(0)
                        configuration.syncConfiguration?.errorHandler = { error, _ in
                            if error.code == .connectionLost { lost.add(1, ordering: .relaxed) }
                        }
                        let realm = try! Realm(configuration: configuration)
                        let writer = FuzzWriter(realm: realm, client: client)
                        let deadline = Date().addingTimeInterval(SyncPartitionTests.seconds)
                        var writes = 0
                        while Date() < deadline {
                            try! writer.randomWrite(&random)
                            writes += 1
                            usleep(useconds_t(random.next(below: 30_000)))
                        }
                        try! realm.syncSession!.waitUntilSynced(timeout: 120)
                        let report = "\(writes) \(lost.load(ordering: .relaxed))"
                        try! report.write(toFile: path.replacingOccurrences(of: ".realm", with: ".writes"), atomically: true, encoding: .utf8)
                    }
                }
            }
        }
        while !cutter.isFinished { try await Task.sleep(nanoseconds: 10_000_000) }
        let cuts = Int((try? String(contentsOf: fixture.directory.file("cuts"), encoding: .utf8)) ?? "") ?? 0
        let reports = (0..<3).map { ((try? String(contentsOf: fixture.directory.file("client\($0).writes"), encoding: .utf8)) ?? "0 0")
            .split(separator: " ").compactMap { Int($0) } }
        print("sync partition: \(reports.map { "\($0.first ?? 0)" }.joined(separator: ", ")) writes; links cut \(cuts) times; "
              + "\(reports.map { $0.last ?? 0 }.reduce(0, +)) connections lost")
        // Whether a cut breaks a connection or only stalls it depends on the load: either way
        // the clients must end as the server does.
        #expect(cuts >= 3, "the links were cut too seldom to test anything")
        // Read over the socket, which no namespace cuts.
        let expected = try SyncFuzzTests.serverDump(server.connectionString)
        #expect(expected.count > 5, "the clients left too little to compare")
        for client in 0..<3 {
            let dump = try SyncFuzzTests.clientDump(path: fixture.directory.file("client\(client).realm").path,
                                                    server: server.connectionString, fixture: fixture)
            #expect(dump == expected, "client \(client) differs from the server (seed \(seed)): \(Set(dump).symmetricDifference(expected).sorted().prefix(6))")
        }
    }
}
