import CLibEdit
import Foundation

/// Lines typed at a terminal, with line editing and a history kept in a file (libedit); lines
/// read plainly when standard input is not a terminal (a script piped in).
final class LineEditor {
    private let historyPath: String?
    private let isInteractive: Bool

    /// `historyPath`: where the history is read from and kept; `nil` for none.
    init(historyPath: String?) {
        isInteractive = isatty(STDIN_FILENO) == 1
        self.historyPath = isInteractive ? historyPath : nil
        guard let historyPath = self.historyPath else { return }
        using_history()
        stifle_history(1000)
        _ = read_history(historyPath)
    }

    /// The next line without its line break, or `nil` at the end of the input (Ctrl-D).
    func line(prompt: String) -> String? {
        guard isInteractive else { return readLine(strippingNewline: true) }
        guard let typed = readline(prompt) else { return nil }
        defer { free(typed) }
        let line = String(cString: typed)
        if !line.trimmingCharacters(in: .whitespaces).isEmpty {
            add_history(typed)
            // Written at once: a shell ended by a signal keeps what was typed.
            if let historyPath { _ = write_history(historyPath) }
        }
        return line
    }

    /// The history file: `BURROW_HISTORY`, or `.burrow_history` in the home folder.
    static var defaultHistoryPath: String? {
        let environment = ProcessInfo.processInfo.environment
        if let path = environment["BURROW_HISTORY"] { return path.isEmpty ? nil : path }
        return environment["HOME"].map { $0 + "/.burrow_history" }
    }
}
