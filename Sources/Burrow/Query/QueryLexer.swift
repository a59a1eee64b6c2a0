import Foundation

/// Splits a query string into tokens, each with its character position.
struct QueryLexer {
    enum Kind: Equatable, Sendable {
        case identifier(String)
        case keyword(String)        // upper-cased: AND, OR, NOT, TRUEPREDICATE, …
        case number(String)
        case string(String)
        case symbol(String)         // == != <= >= < > = ! && || ( ) [ ] , { } *
        case argument(Int?)         // %@, or %N@ for argument N
        case keyPathArgument        // %K
        case literal(_PersistedValue) // dates, uuid(…), oid(…), B64"…"
        case end
    }

    struct Token: Sendable {
        let kind: Kind
        let position: Int
    }

    static let keywords: Set<String> = [
        "AND", "OR", "NOT", "TRUEPREDICATE", "FALSEPREDICATE", "TRUE", "FALSE", "NIL", "NULL",
        "BEGINSWITH", "ENDSWITH", "CONTAINS", "LIKE", "BETWEEN", "IN", "GEOWITHIN", "ANY", "SOME", "ALL", "NONE",
        "SORT", "DISTINCT", "LIMIT", "ASC", "DESC", "ASCENDING", "DESCENDING",
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

    private func peek(_ offset: Int = 0) -> Character? {
        index + offset < characters.count ? characters[index + offset] : nil
    }

    private mutating func next() throws(Realm.Error) -> Token {
        while let c = peek(), c.isWhitespace { index += 1 }
        let start = index
        guard let c = peek() else { return Token(kind: .end, position: start) }
        if c == "T", peek(1)?.isASCIIDigit == true || (peek(1) == "-" && peek(2)?.isASCIIDigit == true) {
            index += 1
            return Token(kind: .literal(.date(try timestamp(at: start))), position: start)
        }
        if c.isASCIIDigit, isDateAhead() {
            return Token(kind: .literal(.date(try calendarDate(at: start))), position: start)
        }
        if c == ".", let next = peek(1), next == "@" || next.isLetter || next == "_" {
            // `SUBQUERY(…).@count`, `map['key'].name`: a key path going on after `)` or `]`.
            index += 1
            let word = scan { $0.isLetter || $0.isNumber || "_.@".contains($0) }
            return Token(kind: .identifier("." + word), position: start)
        }
        if c == "$", peek(1)?.isASCIIDigit == true {
            // `$0`, realm-core's spelling of argument 0 (`%0@`).
            index += 1
            return Token(kind: .argument(Int(scan { $0.isASCIIDigit })), position: start)
        }
        if c.isLetter || c == "_" || c == "$" || c == "@" {
            var word = ""
            while let next = peek(), next.isLetter || next.isNumber || "_.$@".contains(next) {
                word.append(next); index += 1
            }
            if let literal = try wrappedLiteral(word, at: start) { return Token(kind: .literal(literal), position: start) }
            let upper = word.uppercased()
            return Token(kind: Self.keywords.contains(upper) ? .keyword(upper) : .identifier(word), position: start)
        }
        if c.isASCIIDigit || ((c == "-" || c == "+") && (peek(1)?.isASCIIDigit == true || peek(1) == ".")) || (c == "." && peek(1)?.isASCIIDigit == true) {
            return Token(kind: .number(number()), position: start)
        }
        if c == "\"" || c == "'" {
            return Token(kind: .string(try quoted(c)), position: start)
        }
        if c == "%" {
            index += 1
            var digits = ""
            while let next = peek(), next.isASCIIDigit { digits.append(next); index += 1 }
            if digits.isEmpty, peek() == "K" {
                index += 1
                return Token(kind: .keyPathArgument, position: start)
            }
            if digits.isEmpty, let width = printfConversionLength() {
                // NSPredicate's printf-style arguments (`%d`, `%ld`, `%f`…) stand for one value, as `%@`.
                index += width
                return Token(kind: .argument(nil), position: start)
            }
            guard peek() == "@" else { throw QueryError.at(start, "expected '%@' or '%K' for an argument") }
            index += 1
            return Token(kind: .argument(Int(digits)), position: start)
        }
        for symbol in ["==", "!=", "<=", ">=", "=<", "=>", "<>", "&&", "||"] where matches(symbol) {
            index += symbol.count
            let canonical = ["=<": "<=", "=>": ">=", "<>": "!="][symbol] ?? symbol
            return Token(kind: .symbol(canonical), position: start)
        }
        if "<>=!()[],{}*".contains(c) {
            index += 1
            return Token(kind: .symbol(String(c)), position: start)
        }
        throw QueryError.at(start, "unexpected character '\(c)'")
    }

    /// The length of a printf conversion at the cursor (length modifiers, then one of
    /// `d i u f e g`), or `nil`.
    private func printfConversionLength() -> Int? {
        var offset = 0
        while let modifier = peek(offset), "lhqz".contains(modifier), offset < 2 { offset += 1 }
        guard let conversion = peek(offset), "diufegDUO".contains(conversion) else { return nil }
        return offset + 1
    }

    private func matches(_ symbol: String) -> Bool {
        for (offset, character) in symbol.enumerated() where peek(offset) != character { return false }
        return true
    }

    private mutating func number() -> String {
        var text = ""
        if let sign = peek(), sign == "-" || sign == "+" { text.append(sign); index += 1 }
        while let c = peek(), c.isASCIIDigit || c == "." || c == "e" || c == "E"
            || ((c == "-" || c == "+") && (text.last == "e" || text.last == "E")) {
            text.append(c); index += 1
        }
        return text
    }

    /// `uuid(…)`, `oid(…)` and `B64"…"` literals.
    private mutating func wrappedLiteral(_ word: String, at start: Int) throws(Realm.Error) -> _PersistedValue? {
        switch word.lowercased() {
        case "uuid", "oid":
            guard peek() == "(" else { return nil }
            index += 1
            var body = ""
            while let c = peek(), c != ")" { body.append(c); index += 1 }
            guard peek() == ")" else { throw QueryError.at(start, "unterminated \(word)(…) literal") }
            index += 1
            let text = body.trimmingCharacters(in: .whitespaces)
            if word.lowercased() == "uuid" {
                guard let uuid = UUID(uuidString: text) else { throw QueryError.at(start, "'\(text)' is not a UUID") }
                return .uuid(uuid)
            }
            guard let id = try? ObjectId(string: text) else { throw QueryError.at(start, "'\(text)' is not an ObjectId") }
            return .objectId(id)
        case "b64":
            guard let quote = peek(), quote == "\"" || quote == "'" else { return nil }
            let text = try quoted(quote)
            guard let data = Data(base64Encoded: text) else { throw QueryError.at(start, "'\(text)' is not base64") }
            return .data(data)
        default:
            return nil
        }
    }

    /// Whether a `YYYY-MM-DD@…` date starts here.
    private func isDateAhead() -> Bool {
        var offset = 0
        while let c = peek(offset), c.isASCIIDigit { offset += 1 }
        return offset >= 4 && peek(offset) == "-" && peek(offset + 1)?.isASCIIDigit == true
    }

    /// `Tseconds:nanoseconds` since 1970.
    private mutating func timestamp(at start: Int) throws(Realm.Error) -> Date {
        let text = scan { $0.isASCIIDigit || $0 == ":" || $0 == "-" }
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let seconds = Int64(parts[0]),
              let nanoseconds = parts.count == 2 ? Int64(parts[1]) : 0 else {
            throw QueryError.at(start, "'T\(text)' is not a timestamp (Tseconds:nanoseconds)")
        }
        return Date(timeIntervalSince1970: Double(seconds) + Double(nanoseconds) / 1e9)
    }

    /// `YYYY-MM-DD@HH:MM:SS[:nanoseconds]`, or with `T` for `@`, in UTC.
    private mutating func calendarDate(at start: Int) throws(Realm.Error) -> Date {
        let text = scan { $0.isASCIIDigit || "-:@T.".contains($0) }
        let fields = text.split(whereSeparator: { "-:@T".contains($0) }).map(String.init)
        guard fields.count >= 3, fields.count != 4, fields.count != 5, fields.count <= 7,
              let year = Int(fields[0]), let month = Int(fields[1]), let day = Int(fields[2]) else {
            throw QueryError.at(start, "'\(text)' is not a date (YYYY-MM-DD@HH:MM:SS)")
        }
        var components = DateComponents()
        components.calendar = Calendar(identifier: .gregorian)
        components.timeZone = TimeZone(identifier: "UTC")
        components.year = year; components.month = month; components.day = day
        if fields.count >= 6 {
            guard let hour = Int(fields[3]), (0..<24).contains(hour), let minute = Int(fields[4]), (0..<60).contains(minute) else {
                throw QueryError.at(start, "'\(text)' is not a valid time (HH:MM:SS[:nanoseconds])")
            }
            components.hour = hour; components.minute = minute
            // Seconds may carry a fraction; anything outside a minute is not a time of day.
            guard let seconds = Double(fields[5]), (0..<61).contains(seconds),
                  let extraNanoseconds = fields.count == 7 ? Int(fields[6]) : 0, (0..<1_000_000_000).contains(extraNanoseconds) else {
                throw QueryError.at(start, "'\(text)' is not a valid time (HH:MM:SS[:nanoseconds])")
            }
            components.second = Int(seconds)
            components.nanosecond = Int((seconds - seconds.rounded(.down)) * 1e9) + extraNanoseconds
        }
        guard (0...9999).contains(year), (1...12).contains(month), (1...31).contains(day), let date = components.date else {
            throw QueryError.at(start, "'\(text)' is not a valid date")
        }
        return date
    }

    private mutating func scan(while accept: (Character) -> Bool) -> String {
        var text = ""
        while let c = peek(), accept(c) { text.append(c); index += 1 }
        return text
    }

    private mutating func quoted(_ quote: Character) throws(Realm.Error) -> String {
        let start = index
        index += 1
        var text = ""
        while let c = peek() {
            index += 1
            if c == quote { return text }
            guard c == "\\" else { text.append(c); continue }
            guard let escaped = peek() else { break }
            index += 1
            switch escaped {
            case "n": text.append("\n")
            case "t": text.append("\t")
            case "r": text.append("\r")
            case "0": text.append("\0")
            case "u":
                var hex = ""
                while hex.count < 4, let digit = peek(), digit.isHexDigit { hex.append(digit); index += 1 }
                guard hex.count == 4, let scalar = UInt32(hex, radix: 16).flatMap(Unicode.Scalar.init) else {
                    throw QueryError.at(index, "expected four hexadecimal digits after '\\u'")
                }
                text.unicodeScalars.append(scalar)
            default: text.append(escaped)
            }
        }
        throw QueryError.at(start, "unterminated string")
    }
}

extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}

/// Builds `invalidQuery` errors that name the position.
enum QueryError {
    static func at(_ position: Int, _ message: String) -> Realm.Error {
        // A message that ends in a question ("did you mean 'age'?") takes no full stop.
        Realm.Error(.invalidQuery, "Invalid query at position \(position): \(message)\(message.hasSuffix("?") ? "" : ".")")
    }
}
