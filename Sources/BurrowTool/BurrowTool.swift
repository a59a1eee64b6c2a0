import Burrow
import Foundation

/// The `burrow` command: reads its subcommand and arguments, runs it, and returns the exit
/// status (0 done, 1 failed, 2 misused).
enum BurrowTool {
    /// The tool's version, which is the package's (CHANGELOG.md).
    static let version = "0.21.0"

    static let usage = """
        usage: burrow <command> [arguments]      burrow <command> --help: that command's help

        look into a file:
          info FILE [--json]  format, schema version, classes and object counts, file size,
                              used and free space, readers and the versions they pin
          readers FILE [--clear-stale]
                              the processes holding versions; clear those of dead ones
          schema FILE [--json | --swift]
                              the stored schema, or Swift model classes that open the file
          query FILE CLASS ['PREDICATE'] [--sort K] [--limit N] [--format table|json|jsonl|csv]
                              the objects that match, in the query language of filter(_:)
          dump FILE [CLASS]   every object of FILE (or of CLASS), every property and element
          report FILE -o REPORT.html
                              one self-contained page: the schema drawn, counts, space,
                              readers, the first objects of each class
          shell FILE          a prompt for queries (Dog where age < 2 sort name) and .schema,
                              .info, .mode, with line editing and history

        change a file:
          set FILE CLASS 'PREDICATE' PROPERTY=VALUE... [--yes]
                              change the objects that match, in one transaction, after asking
          delete FILE CLASS 'PREDICATE' [--yes]
                              delete the objects that match, after asking

        move data in and out:
          export FILE [--class C] [--format jsonl|json|csv]
                              every object, streamed: the whole file, or one class
          import FILE CLASS DATA | import FILE EXPORT
                              objects from JSON lines, JSON or CSV, in one transaction

        check and maintain a file:
          verify FILE         check every record (rows, indexes, links, collections, the
                              change log) in a child process; exit status 1 when damaged
          compact SRC [DST]   copy-compact SRC in place (atomically) or into DST; refuses a
                              file that another process has open
          copy SRC DST [--new-key-file K | --decrypt]
                              a compacted copy, with the same key, another, or none
          recover DAMAGED NEW every object that can still be read, into a new file, with a
                              count of what was lost and why; exit status 1 when some was

        make a file:
          demo FILE           a sample file (people, dogs, links, lists, maps) to try things on
          stress [options]    threads in processes against one file, killing some, checking
                              every invariant

        sync through PostgreSQL:
          sync setup CONNECTION FILE
                              create Burrow's tables for the classes of FILE
          sync status FILE [--json]
                              the server, the last pull, the uploads waiting, the connection
          sync adopt CONNECTION [--follow]
                              turn other programs' SQL writes into changes

          help, --help, -h    this text;  --version: the tool's version

        An encrypted file's key is read from BURROW_ENCRYPTION_KEY (128 hex digits) or from the
        file named by --key-file, never from an argument, which other users can see.

        Exit status: 0 done; 1 a finding (verify: damage) or a failure; 2 a misused command
        line or bad input (a missing file, not a Burrow file, a wrong or missing key, an
        unknown class, a malformed query). Errors go to standard error, one line each.
        """

    /// The help of the commands without a usage text of their own.
    static let commandHelp = [
        "compact": """
            usage: burrow compact SRC [DST] [--key-file PATH] [--quiet]

            Copy-compacts the realm file SRC: in place (atomically, keeping its mode) or into
            DST, which must not exist. Refuses a file that another process has open. On a
            terminal, a line on standard error shows the megabytes written (not with --quiet).

            example:
              burrow compact app.realm                  # in place
              burrow compact app.realm /backup/app.realm

            Exit status: 0 compacted, 1 failed, 2 misused or bad input.
            """,
        "dump": """
            usage: burrow dump FILE [CLASS] [--key-file PATH]

            Prints every object of FILE (or of CLASS): every property and collection element,
            links as the target's class and primary key, Data as base64. Opens the file
            read-only. For a table, JSON or CSV, use burrow query.

            example:
              burrow dump app.realm Dog

            Exit status: 0 printed, 2 misused or bad input (a missing or foreign file, a wrong
            or missing key, no such class).
            """,
        "verify": """
            usage: burrow verify FILE [--key-file PATH] [--quiet]

            Checks every record of the realm file FILE (rows, indexes, links, collections, the
            change log), in a child process, so that damage LMDB trips over is reported, not
            fatal; a check that reads no record for 60 s is caught in damaged pages that loop,
            and is stopped and reported so. On a terminal, a line on standard error counts the
            records read (not with --quiet).

            example:
              burrow verify app.realm && echo intact

            Exit status: 0 intact, 1 damaged, 2 misused or bad input (a missing file, a file
            that is not a Burrow file, a wrong or missing key).
            """,
    ]

    static func run(_ arguments: [String]) -> Int32 {
        guard let command = arguments.first else { return misuse("no command given") }
        let rest = Array(arguments.dropFirst())
        if rest.contains("--help") || rest.contains("-h") {
            switch command {
            case "sync": print(SyncCommand.usage); return 0
            case "stress": print(StressCommand.usage); return 0
            case "query": print(QueryCommand.usage); return 0
            case "schema": print(SchemaCommand.usage); return 0
            case "demo": print(DemoCommand.usage); return 0
            case "info": print(InfoCommand.usage); return 0
            case "readers": print(ReadersCommand.usage); return 0
            case "export": print(ExportCommand.usage); return 0
            case "copy": print(CopyCommand.usage); return 0
            case "shell": print(ShellCommand.usage); return 0
            case "report": print(ReportCommand.usage); return 0
            case "set": print(ChangeCommand.setUsage); return 0
            case "delete": print(ChangeCommand.deleteUsage); return 0
            case "recover": print(RecoverCommand.usage); return 0
            case "import": print(ImportCommand.usage); return 0
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
        case "query": return QueryCommand.run(rest)
        case "schema": return SchemaCommand.run(rest)
        case "demo": return DemoCommand.run(rest)
        case "info": return InfoCommand.run(rest)
        case "readers": return ReadersCommand.run(rest)
        case "export": return ExportCommand.run(rest)
        case "copy": return CopyCommand.run(rest)
        case "shell": return ShellCommand.run(rest)
        case "report": return ReportCommand.run(rest)
        case "set": return ChangeCommand.run(rest, deleting: false)
        case "delete": return ChangeCommand.run(rest, deleting: true)
        case "recover": return RecoverCommand.run(rest)
        case RecoverReader.command: return RecoverReader.run(rest)
        case "import": return ImportCommand.run(rest)
        case "--version", "version":
            print("burrow \(version)")
            return 0
        case "help", "--help", "-h":
            print(usage)
            return 0
        default: return misuse("unknown command '\(command)'")
        }
    }

    private static func compact(_ arguments: [String]) -> Int32 {
        running("compact") { () throws(ToolFailure) in
            let options = try CommandLineOptions(arguments, command: "compact", valued: ["key-file"], flags: ["quiet"])
            guard (1...2).contains(options.positional.count) else { throw .usage("compact takes SRC and an optional DST", command: "compact") }
            let file = try ToolFile(options.positional[0], options: options)
            let destination = options.positional.count == 2 ? URL(fileURLWithPath: options.positional[1]) : nil
            let started = Date()
            do {
                let progress = FileGrowthProgress(paths: FileCompaction.filesWritten(copyingTo: (destination ?? file.url).path),
                                                  label: "compacting", quiet: options.flags.contains("quiet"))
                let outcome: FileCompaction.Outcome
                do {
                    defer { progress.stop() }
                    outcome = try FileCompaction.compact(file.url, into: destination, encryptionKey: file.key)
                }
                let seconds = Date().timeIntervalSince(started)
                let target = destination.map { " into \($0.path)" } ?? " in place"
                print("compacted \(file.path)\(target): \(outcome.bytesBefore) -> \(outcome.bytesAfter) bytes "
                      + "(\(percent(outcome.bytesAfter, of: outcome.bytesBefore)) of before) in \(String(format: "%.2f", seconds)) s")
                return 0
            } catch let error as Realm.Error where error.code == .invalidDatabase || error.code == .unsupportedFileFormatVersion {
                throw .input(ToolFile.describe(error, path: file.path))
            } catch {
                throw .failed(ToolFile.describe(error, path: file.path))
            }
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
