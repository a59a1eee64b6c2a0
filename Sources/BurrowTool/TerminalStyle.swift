import Foundation

/// Colour and weight for text shown on a terminal: only when the stream is a terminal, never
/// with `NO_COLOR` set (https://no-color.org) or on a `dumb` terminal.
enum TerminalStyle {
    static let standardOutput = isEnabled(for: STDOUT_FILENO)
    static let standardError = isEnabled(for: STDERR_FILENO)

    private static func isEnabled(for descriptor: Int32) -> Bool {
        let environment = ProcessInfo.processInfo.environment
        guard isatty(descriptor) == 1, environment["NO_COLOR"].map(\.isEmpty) ?? true else { return false }
        return environment["TERM"] != "dumb"
    }

    static func bold(_ text: String, on enabled: Bool) -> String { enabled ? "\u{1B}[1m\(text)\u{1B}[0m" : text }
    static func red(_ text: String, on enabled: Bool) -> String { enabled ? "\u{1B}[31m\(text)\u{1B}[0m" : text }
    static func yellow(_ text: String, on enabled: Bool) -> String { enabled ? "\u{1B}[33m\(text)\u{1B}[0m" : text }
}
