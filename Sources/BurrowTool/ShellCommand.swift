import Burrow
import Foundation

/// `burrow shell FILE`: a prompt that runs queries and the other commands on one file, for
/// people who live in `sqlite3`.
enum ShellCommand {
    static let usage = """
        usage: burrow shell FILE [--key-file PATH]

        An interactive prompt on FILE (read-only), with line editing and a history kept in
        ~/.burrow_history (BURROW_HISTORY names another file; empty for none). Each line is a
        query or a dot command:

          Dog                                   every Dog
          Dog where age < 2 sort -age limit 5   a predicate, sort keys (- descending), a limit
          Dog count where age < 2               how many match
          .schema [CLASS]                       the stored schema
          .info                                 counts, space, readers (as burrow info)
          .mode table|json|jsonl|csv            how objects print (table on a terminal)
          .help                                 this list
          .quit                                 leave (or Ctrl-D)

        Lines piped in are run the same way, without a prompt. A mistake prints its message
        and the shell goes on.

        Exit status: 0 at the end of the input, 2 misused or bad input (FILE).
        """

    static func run(_ arguments: [String]) -> Int32 {
        BurrowTool.running("shell") { () throws(ToolFailure) in
            let options = try CommandLineOptions(arguments, command: "shell", valued: ["key-file"])
            guard options.positional.count == 1 else { throw .usage("shell takes one FILE", command: "shell") }
            let file = try ToolFile(options.positional[0], options: options)
            let realm = try file.openReadOnly()
            var session = ShellSession(file: file, realm: realm)
            let editor = LineEditor(historyPath: LineEditor.defaultHistoryPath)
            if isatty(STDIN_FILENO) == 1 {
                print("burrow \(BurrowTool.version) shell on \(file.path): \(realm.fileSchema.objectSchema.count) classes. .help for help, .quit to leave.")
            }
            while let line = editor.line(prompt: "burrow> ") {
                guard session.run(line) else { break }
            }
            return 0
        }
    }
}
