import Burrow
import Foundation

/// `burrow recover DAMAGED NEW`: every object that can still be read from a damaged file is
/// written to a new one, with a count of what was lost and why (sqlite3's `.recover`).
///
/// The damaged file is read by child processes (``RecoverReader``), since damage inside LMDB's
/// pages can end the process reading them; this process imports what they print, skips the
/// object a reader died on and starts another after it, and writes NEW in one transaction.
enum RecoverCommand {
    static let usage = """
        usage: burrow recover DAMAGED NEW [--key-file PATH] [--quiet]

        Reads every object that can still be read from DAMAGED and writes them to NEW, which
        must not exist (encrypted with DAMAGED's key, if it has one), then prints, class by
        class, how many objects were recovered of how many the file counted, and why the rest
        were lost: an object whose reading ended the reader (damage in LMDB's pages or a row
        Burrow cannot decode), values that do not fit their property, a class whose objects
        could not be listed. Links to objects that were lost are cleared.

        DAMAGED is only read. Each read runs in a child process, so that damage that makes
        LMDB stop the process stops only that reader.

        example:
          burrow verify app.realm || burrow recover app.realm recovered.realm

        Exit status: 0 every object recovered, 1 some lost (or none could be read), 2 misused
        or bad input (a missing DAMAGED, an existing NEW, a wrong or missing key).
        """

    static func run(_ arguments: [String]) -> Int32 {
        BurrowTool.running("recover") { () throws(ToolFailure) in
            let options = try CommandLineOptions(arguments, command: "recover", valued: ["key-file"], flags: ["quiet"])
            guard options.positional.count == 2 else { throw .usage("recover takes DAMAGED and NEW", command: "recover") }
            let file = try ToolFile(options.positional[0], options: options)
            let target = options.positional[1]
            guard !FileManager.default.fileExists(atPath: target) else { throw .input("\(target) exists; recover writes a new file") }
            var recovery = Recovery(source: file, keyFile: options.string("key-file"), target: target,
                                    progress: Progress(label: "recovered", quiet: options.flags.contains("quiet")))
            let outcome: Recovery.Outcome
            do {
                outcome = try recovery.run()
            } catch {
                try? FileManager.default.removeItem(atPath: target)
                try? FileManager.default.removeItem(atPath: target + "-lock")
                if let failure = error as? ToolFailure { throw failure }
                throw .failed(ToolFile.describe(error, path: target))
            }
            print(outcome.report(source: file.path, target: target), terminator: "")
            return outcome.lostCount == 0 ? 0 : 1
        }
    }
}
