import LMDB

/// Recently used query strings, parsed once into templates whose `%@` and `%K` arguments are
/// bound at each use: a query run many times with different arguments is lexed and parsed once.
enum QueryCache {
    /// Boxed: an entry is copied out of the caches at every use, which then costs one retain.
    private indirect enum Entry: Sendable {
        /// A template to bind.
        case template(ParsedQuery)
        /// Tokens of a query that needs its arguments to be parsed.
        case tokens([QueryLexer.Token])
    }

    private static let capacity = 512
    private static let entries = Locked<[String: Entry]>([:])
    /// The query a thread parsed last, which a loop filtering with one string finds again.
    private static let last = ThreadSlot { LastFound<String, Entry>() }

    /// Parses `format` with `arguments`, reusing what was learnt of `format` before.
    static func parse(_ format: String, arguments: [Any]) throws -> ParsedQuery {
        let entry = try last.value.value(for: format, orMake: { try entries.withLock { $0[format] } ?? learn(format) })
        switch entry {
        case .template(let template): return try template.binding(arguments)
        case .tokens(let tokens): return try QueryParser.parse(tokens: tokens, arguments: arguments)
        }
    }

    private static func learn(_ format: String) throws -> Entry {
        let tokens = try QueryLexer.tokens(of: format)
        let entry: Entry = if let template = try QueryParser.template(tokens: tokens) { .template(template) } else { .tokens(tokens) }
        entries.withLock { cache in
            if cache.count >= capacity { cache.removeAll(keepingCapacity: true) }
            cache[format] = entry
        }
        return entry
    }
}
