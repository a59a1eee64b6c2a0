/// A command's arguments: `--name value` options, `--flag`s, and positional words.
struct CommandLineOptions {
    /// A misused command line, with what is wrong.
    struct UsageError: Error {
        let message: String
    }

    private var values: [String: String] = [:]
    private(set) var flags: Set<String> = []
    private(set) var positional: [String] = []

    /// Reads `arguments`; options in `valued` take the next argument as their value, names in
    /// `flags` take none. Anything else starting with `--` is an error.
    init(_ arguments: [String], valued: Set<String>, flags known: Set<String>) throws(UsageError) {
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            guard argument.hasPrefix("--") else {
                positional.append(argument)
                continue
            }
            let name = String(argument.dropFirst(2))
            if known.contains(name) {
                flags.insert(name)
            } else if valued.contains(name) {
                guard let value = remaining.popFirst() else { throw UsageError(message: "\(argument) needs a value") }
                values[name] = value
            } else {
                throw UsageError(message: "unknown option \(argument)")
            }
        }
    }

    /// The value of `--name`, or `nil` when it was not given.
    func string(_ name: String) -> String? { values[name] }

    /// The whole number given for `--name` (`fallback` when absent), which must lie in `range`.
    func integer(_ name: String, default fallback: Int, in range: ClosedRange<Int>) throws(UsageError) -> Int {
        guard let text = values[name] else { return fallback }
        guard let value = Int(text), range.contains(value) else {
            throw UsageError(message: "--\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text)'")
        }
        return value
    }
}
