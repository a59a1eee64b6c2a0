import Burrow
import Foundation

/// The state of one `burrow shell` (the file, the output mode) and what each line does.
struct ShellSession {
    let file: ToolFile
    let realm: Realm
    var format: ObjectPrinter.Format = isatty(STDOUT_FILENO) == 1 ? .table : .jsonl

    /// Runs `line`; `false` when it asks to leave. Mistakes are printed on standard error.
    mutating func run(_ line: String) -> Bool {
        let text = line.trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty, !text.hasPrefix("--") else { return true }
        // Each line reads the latest version: other processes may have written since.
        realm.refresh()
        do {
            if text.hasPrefix(".") { return try dotCommand(text) }
            try query(ShellQuery(text))
        } catch {
            BurrowTool.printError(TerminalStyle.red("error:", on: TerminalStyle.standardError) + " \(error.message)")
        }
        // What print() buffered goes out before the next line's objects, which are written
        // straight to the file descriptor.
        fflush(nil)
        return true
    }

    private mutating func dotCommand(_ text: String) throws(ToolFailure) -> Bool {
        let words = text.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        switch words[0] {
        case ".quit", ".exit", ".q":
            fflush(nil)
            return false
        case ".help":
            print(ShellCommand.usage.split(separator: "\n").dropFirst(6).prefix(9).joined(separator: "\n"))
        case ".mode":
            guard words.count == 2, let chosen = ObjectPrinter.Format(rawValue: words[1]) else {
                throw .input(".mode takes one of \(ObjectPrinter.Format.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            format = chosen
        case ".schema":
            var classes = realm.fileSchema.objectSchema.sorted { $0.className < $1.className }
            if words.count == 2 { classes = [try file.objectSchema(words[1], in: realm, embeddedAllowed: true)] }
            print(SchemaCommand.text(classes, version: (try? Realm.schemaVersion(at: file.url, encryptionKey: file.key)) ?? 0), terminator: "")
        case ".info":
            do {
                let report = try Realm.fileReport(at: file.url, encryptionKey: file.key)
                print(InfoCommand.text(report, schema: realm.fileSchema, path: file.path), terminator: "")
            } catch {
                throw .input(ToolFile.describe(error, path: file.path))
            }
        default:
            throw .input("unknown command \(words[0]); .help lists them")
        }
        return true
    }

    private func query(_ query: ShellQuery) throws(ToolFailure) {
        let schema = try file.objectSchema(query.className, in: realm)
        var results = realm.dynamicObjects(schema.className)
        if let predicate = query.predicate { results = results.filter(try QueryText.predicate(predicate, for: results)) }
        if let keys = query.sort { results = results.sorted(by: try QueryText.sortDescriptors(keys, for: results)) }
        if let limit = query.limit { results = results.limit(limit) }
        if query.counts {
            print(results.count)
            return
        }
        var printer = ObjectPrinter(format: format, properties: schema.properties)
        printer.begin()
        for object in results { printer.print(object) }
        printer.end()
        var output = printer.output
        try output.finish()
    }
}

/// A query line of the shell: `CLASS [count] [where PREDICATE] [sort KEYS] [limit N]`.
struct ShellQuery: Equatable {
    var className: String
    var counts = false
    var predicate: String?
    var sort: String?
    var limit: Int?

    /// Reads `text`; the clause words are found outside quotes, in any case.
    ///
    /// - Throws: ``ToolFailure`` (status 2) for a line that is not a query.
    init(_ text: String) throws(ToolFailure) {
        let clauses = Self.clauses(of: text)
        let head = clauses.head.split(separator: " ").map(String.init)
        guard let name = head.first, head.count <= 2, head.count == 1 || head[1].lowercased() == "count" else {
            throw .input("expected CLASS [count] [where PREDICATE] [sort KEYS] [limit N], not '\(text)'")
        }
        className = name
        counts = head.count == 2
        for (word, body) in clauses.rest {
            let value = body.trimmingCharacters(in: .whitespaces)
            guard !value.isEmpty else { throw .input("\(word) needs something after it") }
            switch word {
            case "where": predicate = value
            case "sort": sort = value.replacingOccurrences(of: " ", with: "")
            default:
                guard let number = Int(value), number >= 0 else { throw .input("limit takes a whole number, not '\(value)'") }
                limit = number
            }
        }
    }

    /// The text before the first clause word, and each clause's word and text.
    private static func clauses(of text: String) -> (head: String, rest: [(String, String)]) {
        let characters = Array(text)
        var quote: Character?
        var marks: [(word: String, start: Int, end: Int)] = []
        var index = 0
        while index < characters.count {
            let character = characters[index]
            if let open = quote {
                if character == "\\" { index += 2; continue }
                if character == open { quote = nil }
            } else if character == "\"" || character == "'" {
                quote = character
            } else if index == 0 || characters[index - 1] == " " {
                for word in ["where", "sort", "limit"] where index + word.count <= characters.count
                    && String(characters[index..<index + word.count]).lowercased() == word
                    && (index + word.count == characters.count || characters[index + word.count] == " ") {
                    marks.append((word, index, index + word.count))
                }
            }
            index += 1
        }
        let headEnd = marks.first?.start ?? characters.count
        let head = String(characters[..<headEnd]).trimmingCharacters(in: .whitespaces)
        let rest = marks.enumerated().map { position, mark in
            let end = position + 1 < marks.count ? marks[position + 1].start : characters.count
            return (mark.word, String(characters[mark.end..<end]))
        }
        return (head, rest)
    }
}
