import Foundation
import Testing

/// `writeAsync` and `beginAsyncWrite` on the main thread's realm run on the main queue, as
/// RealmSwift's run on the main run loop. Tests run off the main thread, so the writes run in a
/// program of their own, built here, whose main thread runs the main queue.
@Suite(.enabled(if: BuiltModule.compiler != nil && BuildDirectory.url != nil, "no swiftc or no built Burrow module beside the test binary"))
struct MainQueueWritesTests {
    let directory = TestDirectory()

    /// The main queue run by `dispatchMain()` (a thread of Dispatch's runs it from then on), by
    /// the main thread's run loop, and by an `async` main while it waits.
    @Test(arguments: ["dispatchMain()", "RunLoop.main.run(until: Date(timeIntervalSinceNow: 60))",
                      "try await Task.sleep(nanoseconds: 60_000_000_000)"])
    func asyncWritesOfTheMainThreadsRealmRunOnTheMainQueue(mainLoop: String) throws {
        let source = directory.file("main.swift"), binary = directory.file("main-writes")
        try """
            import Burrow
            import Foundation
            final class Note: Object {
                @Persisted var text = ""
            }
            let realm = try Realm(configuration: Realm.Configuration(fileURL: URL(fileURLWithPath: CommandLine.arguments[1] + "/main.realm")))
            var log: [String] = []
            // After dispatchMain(), a thread of Dispatch's runs the main queue.
            func note(_ line: String) {
                dispatchPrecondition(condition: .onQueue(.main))
                log.append("\\(line), \\(realm.objects(Note.self).count) stored")
                // Each callback comes once its write is durable: a's may come before or after
                // b's block, which may run as soon as a's group committed.
                if log.filter({ $0.contains(" done,") }).count == 2 {
                    print(log.joined(separator: "\\n"))
                    exit(0)
                }
            }
            _ = realm.writeAsync({ realm.add(Note(value: ["text": "a"])); note("block a") }, onComplete: { error in
                note("a done, error \\(error.map { "\\($0)" } ?? "none")")
            })
            let cancelled = realm.writeAsync({ note("cancelled block ran") })
            try realm.cancelAsyncWrite(cancelled)
            _ = realm.beginAsyncWrite {
                realm.add(Note(value: ["text": "b"]))
                note("block b")
                realm.commitAsyncWrite { error in
                    note("b done, error \\(error.map { "\\($0)" } ?? "none")")
                }
            }
            note("scheduled")
            DispatchQueue.main.asyncAfter(deadline: .now() + 60) { print("timed out:", log); exit(1) }
            \(mainLoop)
            """.write(to: source, atomically: true, encoding: .utf8)
        let compiled = try BuiltModule.compileProgram([source.path], into: binary.path)
        try #require(compiled.status == 0, "\(compiled.output)")
        let run = try BurrowToolRun.external(binary, [directory.url.path])
        #expect(run.status == 0 && !run.wasSignalled, "\(run.output) \(run.errors)")
        let lines = run.output.split(separator: "\n").map(String.init)
        // Blocks in the order they were asked for, each seeing the writes before it; each
        // callback after its block, without an error; the cancelled block never runs.
        #expect(lines.filter { !$0.contains(" done,") } == ["scheduled, 0 stored", "block a, 1 stored", "block b, 2 stored"], "\(run.output)")
        let aDone = try #require(lines.firstIndex { $0.hasPrefix("a done, error none,") }, "\(run.output)")
        let bDone = try #require(lines.firstIndex { $0.hasPrefix("b done, error none,") }, "\(run.output)")
        #expect(aDone > (lines.firstIndex(of: "block a, 1 stored") ?? lines.count) && lines[bDone] == "b done, error none, 2 stored", "\(run.output)")
        #expect(lines.count == 5, "\(run.output)")
    }
}
