import Burrow
import Foundation

/// `burrow import FILE [CLASS] DATA`: objects read from JSON lines, a JSON array or CSV,
/// written in one transaction; the first value that does not fit aborts the whole import,
/// naming its line and property, and the file is left as it was.
enum ImportCommand {
    static let usage = """
        usage: burrow import FILE CLASS DATA [--format jsonl|json|csv] [--update modified|all]
               burrow import FILE EXPORT            (a whole-file export of burrow export)
                              [--key-file PATH] [--quiet]

        Adds the objects in DATA (a path, or - for standard input) to CLASS of FILE, in one
        transaction: a value that does not fit its property (a wrong type, a malformed date,
        nil for a required property, an unknown property, a primary key the class holds
        already) aborts the whole import with its line and property, and FILE is left as it
        was. Objects are as burrow query and burrow export print them: links as the target's
        primary key (a target not yet in the file is created with that key and filled when
        its own line comes), embedded objects and collections inline, Data as base64, dates
        in ISO 8601. In CSV, the header row names the properties, an empty field is nil (an
        empty string for a required string), and collections, embedded objects and mixed
        values are JSON.

        With EXPORT, the output of burrow export FILE2 without --class: FILE is created when
        missing, with the export's classes, which it must otherwise have the same. A new FILE
        is written beside it as .FILE.importing-PID, in constant memory, and appears under its
        name only once the whole export is in.

          --format F          jsonl, json or csv; by default from DATA's extension
                              (.jsonl/.ndjson, .json, .csv), jsonl for standard input
          --update modified   an object whose primary key the class holds replaces the values
                              given (all: every value, the rest reset); without --update it
                              is an error
          --key-file PATH     the encryption key (64 bytes or 128 hex digits); or set
                              BURROW_ENCRYPTION_KEY
          --quiet             no progress line on a terminal

        examples:
          burrow import app.realm Person people.csv
          burrow export old.realm > all.jsonl && burrow import new.realm all.jsonl

        Exit status: 0 imported, 1 failed writing, 2 misused or bad input (nothing written).
        """

    static func run(_ arguments: [String]) -> Int32 {
        BurrowTool.running("import") { () throws(ToolFailure) in
            let options = try CommandLineOptions(arguments, command: "import", valued: ["format", "update", "key-file"], flags: ["quiet"])
            guard (2...3).contains(options.positional.count) else { throw .usage("import takes FILE, CLASS and DATA, or FILE and an EXPORT", command: "import") }
            let update: UpdatePolicy
            let format: ObjectPrinter.Format?
            do throws(CommandLineOptions.UsageError) {
                switch try options.choice("update", of: ["modified", "all", "error"], default: "error") {
                case "modified": update = .modified
                case "all": update = .all
                default: update = .error
                }
                format = options.string("format") == nil ? nil
                    : ObjectPrinter.Format(rawValue: try options.choice("format", of: ["jsonl", "json", "csv"], default: "jsonl"))
            } catch {
                throw .usage(error.message, command: "import")
            }
            let path = options.positional[0]
            let dataPath = options.positional.last!
            let input = try ByteInput(path: dataPath)
            let key = try ToolEncryptionKey.resolve(keyFile: options.string("key-file"))
            let isWholeFile = options.positional.count == 2
            let creates = !FileManager.default.fileExists(atPath: path)
            guard !creates || isWholeFile else { throw .input("\(path): No such file or directory (only a whole-file export makes a new file)") }
            if !creates { try ToolFile.checkIsLMDBFile(path) }
            // A new file is written as a staging file beside it, committed in pieces so that
            // memory stays constant however long the input, and put in place only when the
            // whole input is in: nobody sees it half made.
            let staging = creates ? stagingPath(for: path) : nil
            let realm: Realm
            do {
                realm = try Realm(configuration: Realm.Configuration(fileURL: URL(fileURLWithPath: staging ?? path), encryptionKey: key, objectTypes: []))
            } catch {
                throw .input(ToolFile.describe(error, path: path))
            }
            var importer = ObjectImporter(realm: realm, update: update, source: dataPath == "-" ? "standard input" : dataPath,
                                          progress: Progress(label: "imported", quiet: options.flags.contains("quiet")))
            importer.commitEvery = staging == nil ? nil : stagedCommitSize()
            realm.beginWrite()
            do {
                if isWholeFile {
                    try importer.importExport(from: input)
                } else {
                    let className = options.positional[1]
                    guard let schema = realm.fileSchema[className] else {
                        let names = realm.fileSchema.objectSchema.map(\.className).sorted()
                        throw ToolFailure.input("\(path) has no class '\(className)'; its classes: \(names.isEmpty ? "none" : names.joined(separator: ", "))")
                    }
                    try importer.importObjects(of: schema, from: input, format: format ?? defaultFormat(of: dataPath))
                }
                try realm.commitWrite()
                if let staging { try putInPlace(staging, at: path) }
            } catch {
                if realm.isInWriteTransaction { realm.cancelWrite() }
                if let staging {
                    try? FileManager.default.removeItem(atPath: staging)
                    try? FileManager.default.removeItem(atPath: staging + "-lock")
                }
                if let failure = error as? ToolFailure { throw failure }
                throw .failed(ToolFile.describe(error, path: path))
            }
            importer.progress.finish()
            var summary = "imported \(importer.imported) \(importer.imported == 1 ? "object" : "objects") into \(path)"
            if importer.updated > 0 { summary += " (\(importer.updated) updated)" }
            print(summary)
            let unfilled = importer.unfilledLinkTargets
            if unfilled.count > 0 {
                BurrowTool.printError("burrow import: note: \(unfilled.count) linked objects were not in the input and were created with "
                                      + "their primary key alone, such as \(unfilled.examples.joined(separator: ", "))")
            }
            return 0
        }
    }

    /// Objects per commit of an import into a new file: a few megabytes of LMDB's dirty
    /// pages, and a sync to disk per hundred thousand objects. `BURROW_IMPORT_COMMIT_SIZE`
    /// sets it (tests make small inputs span several commits with it).
    static func stagedCommitSize() -> Int {
        ProcessInfo.processInfo.environment["BURROW_IMPORT_COMMIT_SIZE"].flatMap(Int.init).map { max(1, $0) } ?? 100_000
    }

    /// The staging file of a new file at `path`: hidden, beside it (so that putting it in place
    /// is a rename on one file system), and named for this process.
    static func stagingPath(for path: String) -> String {
        let url = URL(fileURLWithPath: path)
        return url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).importing-\(getpid())").path
    }

    /// Puts the finished staging file at `path`, unless a file appeared there meanwhile: a
    /// hard link fails where a rename would replace it.
    private static func putInPlace(_ staging: String, at path: String) throws(ToolFailure) {
        guard link(staging, path) == 0 else {
            throw .failed("\(path): the import cannot be put in place (\(String(cString: strerror(errno))))")
        }
        unlink(staging)
        // The lock file is made again, for the new name, when the file is next opened.
        unlink(staging + "-lock")
    }

    static func defaultFormat(of path: String) -> ObjectPrinter.Format {
        switch URL(fileURLWithPath: path).pathExtension.lowercased() {
        case "json": .json
        case "csv": .csv
        default: .jsonl
        }
    }
}
