/// Splits a query string into tokens, each with its character position.
struct QueryLexer {
    enum Kind: Equatable {
        case identifier(String)
        case keyword(String)        // upper-cased: AND, OR, NOT, TRUEPREDICATE, …
        case number(String)
        case string(String)
        case symbol(String)         // == != <= >= < > = ! && || ( ) [ ] , {
        case argument(Int?)         // %@ (nil: next) with optional index
        case keyPathArgument        // %K
        case end
    }

    struct Token {
        let kind: Kind
        let position: Int
    }

    static let keywords: Set<String> = [
        "AND", "OR", "NOT", "TRUEPREDICATE", "FALSEPREDICATE", "TRUE", "FALSE", "NIL", "NULL",
        "BEGINSWITH", "ENDSWITH", "CONTAINS",
    ]

    private let characters: [Character]
    private var index = 0

    init(_ text: String) { characters = Array(text) }

    /// Every token, ending with `.end`.
    static func tokens(of text: String) throws(Realm.Error) -> [Token] {
        var lexer = QueryLexer(text)
        var tokens: [Token] = []
        while true {
            let token = try lexer.next()
            tokens.append(token)
            if token.kind == .end { return tokens }
        }
    }

    private mutating func next() throws(Realm.Error) -> Token {
        while index < characters.count, characters[index].isWhitespace { index += 1 }
        let start = index
        guard index < characters.count else { return Token(kind: .end, position: start) }
        let c = characters[index]
        if c.isLetter || c == "_" || c == "$" || c == "@" {
            var word = ""
            while index < characters.count, characters[index].isLetter || characters[index].isNumber
                || characters[index] == "_" || characters[index] == "." || characters[index] == "$" || characters[index] == "@" {
                word.append(characters[index]); index += 1
            }
            let upper = word.uppercased()
            return Token(kind: Self.keywords.contains(upper) ? .keyword(upper) : .identifier(word), position: start)
        }
        if c.isNumber || (c == "-" && index + 1 < characters.count && characters[index + 1].isNumber) {
            var text = String(c); index += 1
            while index < characters.count, characters[index].isNumber || characters[index] == "."
                || characters[index] == "e" || characters[index] == "E"
                || ((characters[index] == "-" || characters[index] == "+") && (text.last == "e" || text.last == "E")) {
                text.append(characters[index]); index += 1
            }
            return Token(kind: .number(text), position: start)
        }
        if c == "\"" || c == "'" {
            return Token(kind: .string(try quoted(c)), position: start)
        }
        if c == "%" {
            index += 1
            var digits = ""
            while index < characters.count, characters[index].isNumber { digits.append(characters[index]); index += 1 }
            if digits.isEmpty, index < characters.count, characters[index] == "K" {
                index += 1
                return Token(kind: .keyPathArgument, position: start)
            }
            guard index < characters.count, characters[index] == "@" else {
                throw QueryError.at(start, "expected '%@' or '%K' for an argument")
            }
            index += 1
            return Token(kind: .argument(Int(digits)), position: start)
        }
        for symbol in ["==", "!=", "<=", ">=", "=<", "=>", "<>", "&&", "||"] where matches(symbol) {
            index += symbol.count
            let canonical = ["=<": "<=", "=>": ">=", "<>": "!="][symbol] ?? symbol
            return Token(kind: .symbol(canonical), position: start)
        }
        if "<>=!()[],{}".contains(c) {
            index += 1
            return Token(kind: .symbol(String(c)), position: start)
        }
        throw QueryError.at(start, "unexpected character '\(c)'")
    }

    private func matches(_ symbol: String) -> Bool {
        let symbolCharacters = Array(symbol)
        guard index + symbolCharacters.count <= characters.count else { return false }
        return Array(characters[index..<index + symbolCharacters.count]) == symbolCharacters
    }

    private mutating func quoted(_ quote: Character) throws(Realm.Error) -> String {
        let start = index
        index += 1
        var text = ""
        while index < characters.count {
            let c = characters[index]
            index += 1
            if c == quote { return text }
            if c == "\\" {
                guard index < characters.count else { break }
                let escaped = characters[index]
                index += 1
                switch escaped {
                case "n": text.append("\n")
                case "t": text.append("\t")
                case "r": text.append("\r")
                case "0": text.append("\0")
                default: text.append(escaped)
                }
            } else {
                text.append(c)
            }
        }
        throw QueryError.at(start, "unterminated string")
    }
}

/// Builds `invalidQuery` errors that name the position.
enum QueryError {
    static func at(_ position: Int, _ message: String) -> Realm.Error {
        Realm.Error(.invalidQuery, "Invalid query at position \(position): \(message).")
    }
}
