import Burrow
import Foundation

/// `burrow readers FILE [--clear-stale] [--json]`: the processes whose read transactions hold
/// a version of the file; `--clear-stale` frees the slots of those that died.
enum ReadersCommand {
    static let usage = """
        usage: burrow readers FILE [--clear-stale] [--json] [--key-file PATH]

        Lists the processes whose read transactions hold a version of FILE: process id,
        whether it still runs, the version and how many commits behind the latest it is.

          --clear-stale       clear the slots of processes that died (LMDB's mdb_reader_check),
                              so that the file can reuse the pages their versions held
          --json              the list as JSON
          --key-file PATH     the encryption key (64 bytes or 128 hex digits); or set
                              BURROW_ENCRYPTION_KEY

        example:
          burrow readers app.realm --clear-stale

        Exit status: 0 done, 2 misused or bad input.
        """

    static func run(_ arguments: [String]) -> Int32 {
        BurrowTool.running("readers") { () throws(ToolFailure) in
            let options = try CommandLineOptions(arguments, command: "readers", valued: ["key-file"], flags: ["clear-stale", "json"])
            guard options.positional.count == 1 else { throw .usage("readers takes one FILE", command: "readers") }
            let file = try ToolFile(options.positional[0], options: options)
            do {
                var cleared: Int?
                if options.flags.contains("clear-stale") { cleared = try Realm.clearStaleReaders(at: file.url, encryptionKey: file.key) }
                let report = try Realm.fileReport(at: file.url, encryptionKey: file.key)
                if options.flags.contains("json") {
                    var members: [(key: String, value: ToolValue)] = [("readers", .array(report.readers.map(InfoCommand.readerJSON)))]
                    if let cleared { members.insert(("cleared", .integer(Int64(cleared))), at: 0) }
                    print(ToolValue.object(members).json)
                    return 0
                }
                if let cleared { print("cleared \(cleared) stale reader \(cleared == 1 ? "slot" : "slots")") }
                print("\(report.readers.count) of \(report.readerSlots) reader slots hold a version; latest version \(report.latestVersion)")
                for reader in report.readers {
                    print("  process \(reader.processID) (\(reader.isProcessAlive ? "running" : "gone")): version \(reader.version), "
                          + "\(reader.versionsBehind) commits behind")
                }
                return 0
            } catch {
                throw .input(ToolFile.describe(error, path: file.path))
            }
        }
    }
}
