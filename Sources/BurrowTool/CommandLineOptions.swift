/// A command's arguments: `--name value` (or `--name=value`) options, `--flag`s, and
/// positional words. A lone `-` and anything after `--` are positional.
struct CommandLineOptions {
    /// A misused command line, with what is wrong.
    struct UsageError: Error {
        let message: String
    }

    private var values: [String: String] = [:]
    private(set) var flags: Set<String> = []
    private(set) var positional: [String] = []

    /// Reads `arguments`; options in `valued` take a value (the next argument, or what follows
    /// `=`), names in `flags` take none. Anything else starting with `-` is an error.
    init(_ arguments: [String], valued: Set<String>, flags known: Set<String>) throws(UsageError) {
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            if argument == "--" {
                positional += remaining
                break
            }
            guard argument.hasPrefix("-"), argument != "-", !Self.isNegativeNumber(argument) else {
                positional.append(argument)
                continue
            }
            guard argument.hasPrefix("--") else { throw UsageError(message: "unknown option \(argument)") }
            let body = argument.dropFirst(2)
            let name = String(body.prefix { $0 != "=" })
            let inlineValue = body.firstIndex(of: "=").map { String(body[body.index(after: $0)...]) }
            if known.contains(name) {
                guard inlineValue == nil else { throw UsageError(message: "--\(name) takes no value") }
                flags.insert(name)
            } else if valued.contains(name) {
                guard let value = inlineValue ?? remaining.popFirst() else { throw UsageError(message: "--\(name) needs a value") }
                values[name] = value
            } else {
                throw UsageError(message: "unknown option --\(name)")
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

    /// The value of `--name`, which must be one of `choices` (`fallback` when absent).
    func choice(_ name: String, of choices: [String], default fallback: String) throws(UsageError) -> String {
        guard let text = values[name] else { return fallback }
        guard choices.contains(text) else {
            throw UsageError(message: "--\(name) must be one of \(choices.joined(separator: ", ")), not '\(text)'")
        }
        return text
    }

    /// `-5` is a value, not an option.
    private static func isNegativeNumber(_ argument: String) -> Bool {
        argument.count > 1 && argument.dropFirst().allSatisfy(\.isNumber)
    }
}

extension CommandLineOptions {
    /// Reads `arguments` for `command`, turning a misuse into a ``ToolFailure``.
    init(_ arguments: [String], command: String, valued: Set<String> = [], flags: Set<String> = []) throws(ToolFailure) {
        do {
            try self.init(arguments, valued: valued, flags: flags)
        } catch {
            throw .usage(error.message, command: command)
        }
    }
}
