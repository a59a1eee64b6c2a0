import Burrow
import Foundation

/// `burrow copy SRC DST [--new-key-file K | --decrypt]`: a compacted copy of a file, with the
/// same key, another key, or none.
enum CopyCommand {
    static let usage = """
        usage: burrow copy SRC DST [--key-file PATH] [--new-key-file PATH | --decrypt] [--quiet]

        Writes a compacted copy of SRC's latest version to DST, which must not exist, while
        other processes go on using SRC. The copy keeps SRC's key (or its lack of one) unless:

          --new-key-file PATH  encrypt the copy with the key in PATH (64 bytes or 128 hex
                               digits): re-keying, or encrypting a file that was not
          --decrypt            write the copy without encryption
          --key-file PATH      SRC's key; or set BURROW_ENCRYPTION_KEY
          --quiet              no line of megabytes written on a terminal

        examples:
          burrow copy app.realm backup.realm
          BURROW_ENCRYPTION_KEY=$(cat old.hex) burrow copy app.realm rekeyed.realm --new-key-file new.key

        Exit status: 0 copied, 1 failed writing (no DST is left), 2 misused or bad input.
        """

    static func run(_ arguments: [String]) -> Int32 {
        BurrowTool.running("copy") { () throws(ToolFailure) in
            let options = try CommandLineOptions(arguments, command: "copy", valued: ["key-file", "new-key-file"], flags: ["decrypt", "quiet"])
            guard options.positional.count == 2 else { throw .usage("copy takes SRC and DST", command: "copy") }
            guard !(options.flags.contains("decrypt") && options.string("new-key-file") != nil) else {
                throw .usage("--new-key-file and --decrypt exclude each other", command: "copy")
            }
            let file = try ToolFile(options.positional[0], options: options)
            let destination = URL(fileURLWithPath: options.positional[1])
            guard !FileManager.default.fileExists(atPath: destination.path) else { throw .input("\(destination.path) exists; copy writes a new file") }
            let newKey: Data?
            let how: String
            if options.flags.contains("decrypt") {
                newKey = nil
                how = file.key == nil ? "not encrypted" : "decrypted"
            } else if let keyFile = options.string("new-key-file") {
                do { newKey = try ToolEncryptionKey.fromFile(keyFile) } catch { throw .input("\(error)") }
                how = "encrypted with the new key"
            } else {
                newKey = file.key
                how = file.key == nil ? "not encrypted" : "encrypted with the same key"
            }
            let realm = try file.openReadOnly()
            let progress = FileGrowthProgress(paths: FileCompaction.filesWritten(copyingTo: destination.path),
                                              label: "copying", quiet: options.flags.contains("quiet"))
            do {
                defer { progress.stop() }
                try realm.writeCopy(toFile: destination, encryptionKey: newKey)
            } catch {
                throw .failed(ToolFile.describe(error, path: destination.path))
            }
            let size = (try? FileManager.default.attributesOfItem(atPath: destination.path)[.size] as? Int) ?? 0
            print("copied \(file.path) to \(destination.path) (\(how)): \(size) bytes")
            return 0
        }
    }
}
