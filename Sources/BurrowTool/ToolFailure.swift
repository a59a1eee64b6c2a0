/// Why a command stopped, with the exit status it ends the tool with: 2 for a misused command
/// line or bad input (a missing file, a file that is not a Burrow file, a wrong or missing key,
/// an unknown class, a malformed query), 1 for a failure or a finding (damage).
struct ToolFailure: Error {
    let status: Int32
    /// One line, printed on standard error after `burrow COMMAND: `.
    let message: String

    /// A misused command line; the message points at the command's `--help`.
    static func usage(_ message: String, command: String) -> ToolFailure {
        ToolFailure(status: 2, message: "\(message) (see burrow \(command) --help)")
    }

    /// Input the tool cannot work on: a file, a key, a class, a query.
    static func input(_ message: String) -> ToolFailure {
        ToolFailure(status: 2, message: message)
    }

    /// Work that was begun and failed.
    static func failed(_ message: String) -> ToolFailure {
        ToolFailure(status: 1, message: message)
    }
}

extension BurrowTool {
    /// Runs `body` for `command`; a thrown ``ToolFailure`` is printed on one line and becomes
    /// the exit status.
    static func running(_ command: String, _ body: () throws(ToolFailure) -> Int32) -> Int32 {
        do {
            return try body()
        } catch {
            printError(TerminalStyle.red("burrow \(command):", on: TerminalStyle.standardError) + " \(error.message)")
            return error.status
        }
    }
}
