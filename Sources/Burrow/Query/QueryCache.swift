import Synchronization

/// Tokens of recently used query strings, so that a query run many times with different
/// arguments is lexed once.
enum QueryCache {
    private static let capacity = 512
    private static let tokens = Mutex<[String: [QueryLexer.Token]]>([:])

    /// Parses `format`, reusing its tokens when it was seen before.
    static func parse(_ format: String, arguments: [Any]) throws -> ParsedQuery {
        if let known = tokens.withLock({ $0[format] }) {
            return try QueryParser.parse(tokens: known, arguments: arguments)
        }
        let lexed = try QueryLexer.tokens(of: format)
        tokens.withLock { cache in
            if cache.count >= capacity { cache.removeAll(keepingCapacity: true) }
            cache[format] = lexed
        }
        return try QueryParser.parse(tokens: lexed, arguments: arguments)
    }
}
