import Foundation

/// Parses the string query language into a ``PredicateNode``, binding `%@` and `%K`
/// arguments as it goes.
///
/// Grammar (case-insensitive keywords):
///
///     predicate  := or
///     or         := and (("OR" | "||") and)*
///     and        := unary (("AND" | "&&") unary)*
///     unary      := ("NOT" | "!") unary | "(" predicate ")" | "TRUEPREDICATE" | "FALSEPREDICATE" | comparison
///     comparison := operand operator ["[c]" | "[d]" | "[cd]"] operand
///     operator   := "==" | "=" | "!=" | "<>" | "<" | "<=" | ">" | ">=" | "BEGINSWITH" | "ENDSWITH" | "CONTAINS"
///     operand    := keyPath | "%K" | number | string | "true" | "false" | "nil" | "NULL" | "%@"
struct QueryParser {
    private let tokens: [QueryLexer.Token]
    private let arguments: [Any]
    private var position = 0
    private var nextArgument = 0

    /// Parses `format` with `arguments`.
    ///
    /// - Throws: ``Realm/Error/Code/invalidQuery`` naming the position and the problem.
    static func parse(_ format: String, arguments: [Any]) throws(Realm.Error) -> PredicateNode {
        var parser = QueryParser(tokens: try QueryLexer.tokens(of: format), arguments: arguments)
        let node = try parser.parseOr()
        guard case .end = parser.current.kind else {
            throw QueryError.at(parser.current.position, "unexpected \(parser.describe(parser.current.kind))")
        }
        return node
    }

    private init(tokens: [QueryLexer.Token], arguments: [Any]) {
        self.tokens = tokens
        self.arguments = arguments
    }

    private var current: QueryLexer.Token { tokens[position] }

    private mutating func advance() { if position < tokens.count - 1 { position += 1 } }

    private mutating func accept(_ kind: QueryLexer.Kind) -> Bool {
        guard current.kind == kind else { return false }
        advance()
        return true
    }

    private mutating func parseOr() throws(Realm.Error) -> PredicateNode {
        var node = try parseAnd()
        while accept(.keyword("OR")) || accept(.symbol("||")) {
            node = .or(node, try parseAnd())
        }
        return node
    }

    private mutating func parseAnd() throws(Realm.Error) -> PredicateNode {
        var node = try parseUnary()
        while accept(.keyword("AND")) || accept(.symbol("&&")) {
            node = .and(node, try parseUnary())
        }
        return node
    }

    private mutating func parseUnary() throws(Realm.Error) -> PredicateNode {
        if accept(.keyword("NOT")) || accept(.symbol("!")) { return .not(try parseUnary()) }
        if accept(.keyword("TRUEPREDICATE")) { return .constant(true) }
        if accept(.keyword("FALSEPREDICATE")) { return .constant(false) }
        if current.kind == .symbol("(") {
            let open = current.position
            advance()
            let inner = try parseOr()
            guard accept(.symbol(")")) else { throw QueryError.at(current.position, "expected ')' to close '(' at position \(open)") }
            return inner
        }
        return .comparison(try parseComparison())
    }

    private mutating func parseComparison() throws(Realm.Error) -> Comparison {
        let lhs = try parseOperand()
        let operatorPosition = current.position
        let op: ComparisonOperator
        switch current.kind {
        case .symbol("=="), .symbol("="): op = .equal
        case .symbol("!="): op = .notEqual
        case .symbol("<"): op = .less
        case .symbol("<="): op = .lessOrEqual
        case .symbol(">"): op = .greater
        case .symbol(">="): op = .greaterOrEqual
        case .keyword("BEGINSWITH"): op = .beginsWith
        case .keyword("ENDSWITH"): op = .endsWith
        case .keyword("CONTAINS"): op = .contains
        default: throw QueryError.at(current.position, "expected a comparison operator, found \(describe(current.kind))")
        }
        advance()
        var comparison = Comparison(lhs: lhs, op: op, rhs: lhs, position: operatorPosition)
        if current.kind == .symbol("[") {
            advance()
            guard case .identifier(let flags) = current.kind, !flags.isEmpty,
                  flags.lowercased().allSatisfy({ $0 == "c" || $0 == "d" }) else {
                throw QueryError.at(current.position, "expected 'c', 'd' or 'cd' inside '[ ]'")
            }
            comparison.caseInsensitive = flags.lowercased().contains("c")
            comparison.diacriticInsensitive = flags.lowercased().contains("d")
            advance()
            guard accept(.symbol("]")) else { throw QueryError.at(current.position, "expected ']'") }
        }
        comparison.rhs = try parseOperand()
        return comparison
    }

    private mutating func parseOperand() throws(Realm.Error) -> Operand {
        let token = current
        advance()
        switch token.kind {
        case .identifier(let name):
            return .keyPath(name, position: token.position)
        case .keyPathArgument:
            guard let name = try takeArgument(at: token.position) as? String else {
                throw QueryError.at(token.position, "the argument for '%K' must be a property name string")
            }
            return .keyPath(name, position: token.position)
        case .number(let text):
            if let integer = Int64(text) { return .literal(.int(integer), position: token.position) }
            if let double = Double(text) { return .literal(.double(double), position: token.position) }
            throw QueryError.at(token.position, "'\(text)' is not a number")
        case .string(let text):
            return .literal(.string(text), position: token.position)
        case .keyword("TRUE"): return .literal(.bool(true), position: token.position)
        case .keyword("FALSE"): return .literal(.bool(false), position: token.position)
        case .keyword("NIL"), .keyword("NULL"): return .literal(.null, position: token.position)
        case .argument(let index):
            let value: Any = if let index { try argument(index, at: token.position) } else { try takeArgument(at: token.position) }
            return .literal(try Self.value(of: value, at: token.position), position: token.position)
        default:
            throw QueryError.at(token.position, "expected a property name or a value, found \(describe(token.kind))")
        }
    }

    private mutating func takeArgument(at position: Int) throws(Realm.Error) -> Any {
        defer { nextArgument += 1 }
        return try argument(nextArgument, at: position)
    }

    private func argument(_ index: Int, at position: Int) throws(Realm.Error) -> Any {
        guard index < arguments.count else {
            throw QueryError.at(position, "missing argument #\(index + 1): the query has more '%@' than arguments (\(arguments.count))")
        }
        return arguments[index]
    }

    /// A `%@` argument as a stored value.
    static func value(of argument: Any, at position: Int) throws(Realm.Error) -> _PersistedValue {
        if argument is NSNull { return .null }
        if let persistable = argument as? any _Persistable { return persistable._persistedValue }
        if let object = argument as? Object, object.realm == nil {
            throw QueryError.at(position, "unmanaged object '\(type(of: object))' cannot be an argument")
        }
        throw QueryError.at(position, "argument of type '\(type(of: argument))' is not a value Burrow can compare")
    }

    private func describe(_ kind: QueryLexer.Kind) -> String {
        switch kind {
        case .identifier(let name): "'\(name)'"
        case .keyword(let word): "'\(word)'"
        case .number(let text): "number \(text)"
        case .string(let text): "string '\(text)'"
        case .symbol(let symbol): "'\(symbol)'"
        case .argument: "'%@'"
        case .keyPathArgument: "'%K'"
        case .end: "end of query"
        }
    }
}
