import Burrow
import Foundation

/// `burrow stress`: worker processes hammer one file with transfers, notes filed and removed,
/// checks of every snapshot they read, frozen reads on other threads, hand-overs and actor
/// writes, while this process kills some of them with SIGKILL and starts new ones. It prints a
/// progress line a second and a summary, and fails on any violated invariant, crash of a
/// process it did not kill, or stall (a watchdog).
enum StressCommand {
    static let usage = """
        usage: burrow stress [--threads N] [--processes M] [--seconds S] [--file PATH]
                             [--accounts K] [--kill-every S] [--watchdog S]

          --threads N      threads in each worker process (default 4)
          --processes M    worker processes (default 2)
          --seconds S      how long to run (default 10)
          --file PATH      the realm file to use (default: a new one in a temporary folder,
                           removed afterwards); it is created and seeded when missing
          --accounts K     accounts money moves between (default 50)
          --kill-every S   SIGKILL a random worker every S seconds and start another in its
                           place (default 3; 0: never)
          --watchdog S     fail as deadlocked when nothing commits or reads for S seconds
                           (default 15)
          --force          use a --file that holds classes of its own (refused otherwise: the
                           run adds its classes and objects to it)
        example:
          burrow stress --threads 8 --processes 4 --seconds 60

        exit status: 0 when every invariant held, 1 on a violation, crash or deadlock,
        2 on a misused command line or a --file that holds other classes
        """

    struct Options {
        var threads = 4
        var processes = 2
        var seconds = 10
        var file: String?
        var accounts = 50
        var killEvery = 3
        var watchdog = 15
        var breakInvariant = false
        var force = false

        init(_ arguments: [String]) throws(CommandLineOptions.UsageError) {
            let parsed = try CommandLineOptions(arguments, valued: ["threads", "processes", "seconds", "file", "accounts",
                                                                    "kill-every", "watchdog"],
                                                flags: ["break-invariant", "force"])
            guard parsed.positional.isEmpty else {
                throw CommandLineOptions.UsageError(message: "stress takes no arguments but options: '\(parsed.positional[0])'")
            }
            threads = try parsed.integer("threads", default: threads, in: 1...256)
            processes = try parsed.integer("processes", default: processes, in: 1...64)
            seconds = try parsed.integer("seconds", default: seconds, in: 1...86_400)
            accounts = try parsed.integer("accounts", default: accounts, in: 2...1_000_000)
            killEvery = try parsed.integer("kill-every", default: killEvery, in: 0...86_400)
            watchdog = try parsed.integer("watchdog", default: watchdog, in: 2...86_400)
            file = parsed.string("file")
            breakInvariant = parsed.flags.contains("break-invariant")
            force = parsed.flags.contains("force")
        }
    }

    /// Runs `burrow stress`; returns the exit status.
    static func run(_ arguments: [String]) -> Int32 {
        if arguments.contains("--help") || arguments.contains("-h") {
            print(usage)
            return 0
        }
        // The file is encrypted with BURROW_ENCRYPTION_KEY when it is set; a malformed one stops here.
        guard ToolEncryptionKey.read(for: "stress") != nil else { return 2 }
        let options: Options
        do {
            options = try Options(arguments)
        } catch {
            BurrowTool.printError("burrow stress: \(error.message)\n\n\(usage)")
            return 2
        }
        let folder = options.file == nil ? FileManager.default.temporaryDirectory
            .appendingPathComponent("burrow-stress-\(UUID().uuidString)", isDirectory: true) : nil
        if let folder { try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        defer { folder.map { try? FileManager.default.removeItem(at: $0) } }
        let path = options.file ?? folder!.appendingPathComponent("stress.realm").path
        if options.file != nil && !options.force, let foreign = foreignClasses(in: path) {
            BurrowTool.printError("burrow stress: \(path) holds classes of its own (\(foreign.joined(separator: ", "))); "
                                  + "the run would add its classes and objects to it: use a new file, or --force")
            return 2
        }
        do {
            let realm = try Realm(configuration: StressLedger.configuration(path))
            try StressLedger.seed(realm, accounts: options.accounts)
        } catch {
            BurrowTool.printError("burrow stress: cannot prepare '\(path)': \(error.localizedDescription)")
            return 1
        }
        print("burrow stress: \(options.threads) threads x \(options.processes) processes for \(options.seconds) s on \(path)")
        let outcome = StressRun(options: options, path: path).execute()
        return outcome.passed ? 0 : 1
    }

    /// The classes of the existing file at `path` that are not the run's, or `nil` when there
    /// are none (or no file).
    private static func foreignClasses(in path: String) -> [String]? {
        guard FileManager.default.fileExists(atPath: path),
              let realm = try? Realm(configuration: Realm.Configuration(fileURL: URL(fileURLWithPath: path),
                                                                        encryptionKey: (try? ToolEncryptionKey.fromEnvironment()) ?? nil,
                                                                        readOnly: true, objectTypes: [])) else { return nil }
        let own = Set(StressLedger.objectTypes.map { $0.className() })
        let foreign = realm.fileSchema.objectSchema.map(\.className).filter { !own.contains($0) }.sorted()
        return foreign.isEmpty ? nil : foreign
    }

    /// Runs the hidden `stress-worker` command a stress run starts its processes with.
    static func runWorker(_ arguments: [String]) -> Int32 {
        do {
            let parsed = try CommandLineOptions(arguments, valued: ["file", "threads", "seconds"], flags: ["break-invariant"])
            guard let path = parsed.string("file") else { throw CommandLineOptions.UsageError(message: "--file is required") }
            let options = StressWorker.Options(path: path, threads: try parsed.integer("threads", default: 4, in: 1...256),
                                               seconds: try parsed.integer("seconds", default: 10, in: 1...86_400),
                                               breakInvariant: parsed.flags.contains("break-invariant"))
            return StressWorker(options).run()
        } catch {
            BurrowTool.printError("burrow stress-worker: \((error as? CommandLineOptions.UsageError)?.message ?? "\(error)")")
            return 2
        }
    }
}
