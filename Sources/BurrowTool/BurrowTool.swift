import Burrow
import Foundation

/// The `burrow` command: reads its subcommand and arguments, runs it, and returns the exit
/// status (0 done, 1 failed, 2 misused).
enum BurrowTool {
    static let usage = """
        usage: burrow <command> [arguments]

        commands:
          compact SRC [DST]   copy-compact the realm file SRC: in place (atomically, keeping
                              its mode) or into DST, which must not exist; refuses a file
                              that another process has open
          dump FILE [CLASS]   print every object of FILE (or of CLASS): every property
                              and collection element, read-only
          verify FILE         check every record of the realm file FILE (rows, indexes,
                              links, collections, the change log), in a child process so
                              that damage LMDB trips over is reported, not fatal; exit
                              status 0 intact, 1 damaged
          sync setup CONNECTION FILE
                              create Burrow's tables in a PostgreSQL database (libpq
                              connection string) for the classes of FILE
          sync status FILE [--json]
                              the server, the last sequence pulled, the uploads waiting
                              (count and oldest) and the connection state of a synced file
          sync adopt CONNECTION [--follow]
                              turn other programs' SQL writes into changes, with a role
                              row-level security does not bind; --follow keeps at it
          stress [options]    run threads in processes against one file, killing some, and
                              check every invariant (burrow stress --help)
          help                print this text (COMMAND --help: that command's)

        An encrypted file's key is read from BURROW_ENCRYPTION_KEY (128 hex digits), never
        from the arguments, which other users can see.
        """

    /// The help of the commands without a usage text of their own.
    static let commandHelp = [
        "compact": """
            usage: burrow compact SRC [DST]

            Copy-compacts the realm file SRC: in place (atomically, keeping its mode) or into
            DST, which must not exist. Refuses a file that another process has open.
            Exit status: 0 compacted, 1 failed, 2 misused.
            """,
        "dump": """
            usage: burrow dump FILE [CLASS]

            Prints every object of FILE (or of CLASS): every property and collection element.
            Opens the file read-only. Exit status: 0 printed, 1 the file cannot be opened or
            has no such class, 2 misused.
            """,
        "verify": """
            usage: burrow verify FILE

            Checks every record of the realm file FILE (rows, indexes, links, collections, the
            change log), in a child process, so that damage LMDB trips over is reported, not
            fatal. Exit status: 0 intact, 1 damaged, 2 misused.
            """,
    ]

    static func run(_ arguments: [String]) -> Int32 {
        guard let command = arguments.first else { return misuse("no command given") }
        let rest = Array(arguments.dropFirst())
        if rest.contains("--help") || rest.contains("-h") {
            switch command {
            case "sync": print(SyncCommand.usage); return 0
            case "stress": print(StressCommand.usage); return 0
            case "help", "--help", "-h": print(usage); return 0
            default:
                guard let help = commandHelp[command] else { return misuse("unknown command '\(command)'") }
                print(help)
                return 0
            }
        }
        switch command {
        case "compact": return compact(rest)
        case "verify": return VerifyCommand.run(rest)
        case "dump": return DumpCommand.run(rest)
        case "sync": return SyncCommand.run(rest)
        case "stress": return StressCommand.run(rest)
        case "stress-worker": return StressCommand.runWorker(rest)
        case "help", "--help", "-h":
            print(usage)
            return 0
        default: return misuse("unknown command '\(command)'")
        }
    }

    private static func compact(_ arguments: [String]) -> Int32 {
        guard (1...2).contains(arguments.count), !arguments.contains(where: { $0.hasPrefix("-") }) else {
            return misuse("compact takes SRC and an optional DST")
        }
        guard let key = ToolEncryptionKey.read(for: "compact") else { return 2 }
        let source = URL(fileURLWithPath: arguments[0])
        let destination = arguments.count == 2 ? URL(fileURLWithPath: arguments[1]) : nil
        let started = Date()
        do {
            let outcome = try FileCompaction.compact(source, into: destination, encryptionKey: key)
            let seconds = Date().timeIntervalSince(started)
            let target = destination.map { " into \($0.path)" } ?? " in place"
            print("compacted \(source.path)\(target): \(outcome.bytesBefore) -> \(outcome.bytesAfter) bytes "
                  + "(\(percent(outcome.bytesAfter, of: outcome.bytesBefore)) of before) in \(String(format: "%.2f", seconds)) s")
            return 0
        } catch {
            printError("burrow compact: \(error.localizedDescription)")
            return 1
        }
    }

    private static func percent(_ part: Int, of whole: Int) -> String {
        whole == 0 ? "100%" : String(format: "%.1f%%", Double(part) * 100 / Double(whole))
    }

    private static func misuse(_ problem: String) -> Int32 {
        printError("burrow: \(problem)\n\n\(usage)")
        return 2
    }

    static func printError(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }
}
