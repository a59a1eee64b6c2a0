import Foundation

/// Parses the string query language into a ``PredicateNode`` plus its trailing clauses,
/// binding `%@` and `%K` arguments as it goes.
///
/// Grammar (keywords are case-insensitive):
///
///     query      := predicate clause*
///     clause     := "SORT" "(" keyPath ["ASC" | "DESC"] ("," …)* ")"
///                 | "DISTINCT" "(" keyPath ("," keyPath)* ")" | "LIMIT" "(" integer ")"
///     predicate  := and (("OR" | "||") and)*
///     and        := unary (("AND" | "&&") unary)*
///     unary      := ("NOT" | "!") unary | "(" predicate ")" | "TRUEPREDICATE" | "FALSEPREDICATE" | comparison
///     comparison := [quantifier] operand operator [options] operand
///                 | [quantifier] operand "BETWEEN" "{" operand "," operand "}"
///                 | [quantifier] operand "IN" ("{" operand ("," operand)* "}" | "%@")
///                 | keyPath "GEOWITHIN" (shape | "%@")        (also `keyPath IN %@` with a shape)
///     shape      := "geoBox" "(" point "," point ")" | "geoCircle" "(" point "," number ")"
///                 | "geoPolygon" "(" ring ("," ring)* ")"
///     ring       := "{" point ("," point)* "}"
///     point      := "[" longitude "," latitude "]"
///     quantifier := "ANY" | "SOME" | "ALL" | "NONE"
///     operator   := "==" | "=" | "!=" | "<>" | "<" | "<=" | ">" | ">=" | "BEGINSWITH" | "ENDSWITH"
///                 | "CONTAINS" | "LIKE"
///     options    := "[c]" | "[d]" | "[cd]"
///     operand    := keyPath | "%K" | number | string | "true" | "false" | "nil" | "NULL" | "%@" | "$0"…
///                 | date (YYYY-MM-DD@HH:MM:SS, Tseconds:nanos) | uuid(…) | oid(…) | B64"…"
struct QueryParser {
    private let tokens: [QueryLexer.Token]
    /// The arguments to bind while parsing; `nil` when parsing a template whose arguments are
    /// bound later (``ParsedQuery/binding(_:)``).
    private let arguments: [Any]?
    private var position = 0
    private var nextArgument = 0
    /// Whether a template can stand for the query (`%K` in a clause or `%@` inside `{…}` need
    /// their arguments while parsing).
    private var isTemplatable = true
    /// How deeply `(` and `NOT` are nested here; bounded so that the parser and the compiler,
    /// which recurse, cannot run out of stack.
    private var nesting = 0
    static let maximumNesting = 100

    /// Parses `format` with `arguments`.
    ///
    /// - Throws: ``Realm/Error/Code/invalidQuery`` naming the position and the problem.
    static func parse(_ format: String, arguments: [Any]) throws(Realm.Error) -> ParsedQuery {
        try parse(tokens: try QueryLexer.tokens(of: format), arguments: arguments)
    }

    /// Parses already lexed tokens with `arguments`.
    static func parse(tokens: [QueryLexer.Token], arguments: [Any]) throws(Realm.Error) -> ParsedQuery {
        var parser = QueryParser(tokens: tokens, arguments: arguments)
        return try parser.parseQuery()
    }

    /// Parses tokens into a template whose `%@` and `%K` are bound later, or `nil` when the
    /// query needs its arguments to be parsed.
    static func template(tokens: [QueryLexer.Token]) throws(Realm.Error) -> ParsedQuery? {
        var parser = QueryParser(tokens: tokens, arguments: nil)
        let query = try parser.parseQuery()
        return parser.isTemplatable ? query : nil
    }

    private mutating func parseQuery() throws(Realm.Error) -> ParsedQuery {
        let node = try parseOr()
        try PredicateLimits.check(node)
        var query = ParsedQuery(node: node)
        while try parseClause(into: &query) {}
        guard case .end = current.kind else {
            throw QueryError.at(current.position, "unexpected \(describe(current.kind))")
        }
        return query
    }

    private init(tokens: [QueryLexer.Token], arguments: [Any]?) {
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

    private mutating func expect(_ symbol: String, _ context: String) throws(Realm.Error) {
        guard accept(.symbol(symbol)) else {
            throw QueryError.at(current.position, "expected '\(symbol)' \(context), found \(describe(current.kind))")
        }
    }

    // MARK: Trailing clauses

    private mutating func parseClause(into query: inout ParsedQuery) throws(Realm.Error) -> Bool {
        if accept(.keyword("SORT")) {
            try expect("(", "after SORT")
            repeat {
                let start = current.position
                let keyPath = try parseKeyPath("SORT")
                if query.clausePositions[keyPath] == nil { query.clausePositions[keyPath] = start }
                var ascending = true
                if accept(.keyword("DESC")) || accept(.keyword("DESCENDING")) { ascending = false } else {
                    _ = accept(.keyword("ASC")) || accept(.keyword("ASCENDING"))
                }
                query.sort.append(SortDescriptor(keyPath: keyPath, ascending: ascending))
            } while accept(.symbol(","))
            try expect(")", "to close SORT")
            return true
        }
        if accept(.keyword("DISTINCT")) {
            try expect("(", "after DISTINCT")
            repeat {
                let start = current.position
                let keyPath = try parseKeyPath("DISTINCT")
                if query.clausePositions[keyPath] == nil { query.clausePositions[keyPath] = start }
                query.distinct.append(keyPath)
            } while accept(.symbol(","))
            try expect(")", "to close DISTINCT")
            return true
        }
        if accept(.keyword("LIMIT")) {
            try expect("(", "after LIMIT")
            guard case .number(let text) = current.kind, let limit = Int(text), limit >= 0 else {
                throw QueryError.at(current.position, "LIMIT needs a whole number, found \(describe(current.kind))")
            }
            advance()
            try expect(")", "to close LIMIT")
            query.limit = min(query.limit ?? .max, limit)
            return true
        }
        return false
    }

    private mutating func parseKeyPath(_ clause: String) throws(Realm.Error) -> String {
        switch current.kind {
        case .identifier(let name):
            advance()
            return name
        case .keyPathArgument:
            let at = current.position
            advance()
            guard arguments != nil else {
                isTemplatable = false
                nextArgument += 1
                return ""
            }
            guard let name = try takeArgument(at: at) as? String else {
                throw QueryError.at(at, "the argument for '%K' must be a property name string")
            }
            return name
        default:
            throw QueryError.at(current.position, "\(clause) needs a property name, found \(describe(current.kind))")
        }
    }

    // MARK: Predicates

    private mutating func parseOr() throws(Realm.Error) -> PredicateNode {
        var terms = [try parseAnd()]
        while accept(.keyword("OR")) || accept(.symbol("||")) {
            terms.append(try parseAnd())
        }
        return .balanced(terms[...], PredicateNode.or)
    }

    private mutating func parseAnd() throws(Realm.Error) -> PredicateNode {
        var terms = [try parseUnary()]
        while accept(.keyword("AND")) || accept(.symbol("&&")) {
            terms.append(try parseUnary())
        }
        return .balanced(terms[...], PredicateNode.and)
    }

    private mutating func parseUnary() throws(Realm.Error) -> PredicateNode {
        let start = current.position
        nesting += 1
        defer { nesting -= 1 }
        guard nesting <= Self.maximumNesting else {
            throw QueryError.at(start, "the query nests deeper than \(Self.maximumNesting) levels")
        }
        if accept(.keyword("NOT")) || accept(.symbol("!")) { return .not(try parseUnary()) }
        if accept(.keyword("TRUEPREDICATE")) { return .constant(true) }
        if accept(.keyword("FALSEPREDICATE")) { return .constant(false) }
        if current.kind == .symbol("(") {
            let open = current.position
            advance()
            let inner = try parseOr()
            guard accept(.symbol(")")) else {
                throw QueryError.at(current.position, "expected ')' to close '(' at position \(open), found \(describe(current.kind))")
            }
            return inner
        }
        return try parseComparison()
    }

    private mutating func parseQuantifier() -> Quantifier? {
        if accept(.keyword("ANY")) || accept(.keyword("SOME")) { return .any }
        if accept(.keyword("ALL")) { return .all }
        if accept(.keyword("NONE")) { return Quantifier.none }
        return nil
    }

    private mutating func parseComparison() throws(Realm.Error) -> PredicateNode {
        let quantifier = parseQuantifier()
        let lhs = try parseOperand()
        let operatorPosition = current.position
        if accept(.keyword("BETWEEN")) {
            try expect("{", "after BETWEEN")
            let low = try parseOperand()
            try expect(",", "between the bounds of BETWEEN")
            let high = try parseOperand()
            try expect("}", "to close BETWEEN")
            let lower = Comparison(lhs: lhs, op: .greaterOrEqual, rhs: low, quantifier: quantifier, position: operatorPosition)
            let upper = Comparison(lhs: lhs, op: .lessOrEqual, rhs: high, quantifier: quantifier, position: operatorPosition)
            return .and(.comparison(lower), .comparison(upper))
        }
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
        case .keyword("LIKE"): op = .like
        case .keyword("IN"): op = .in
        case .keyword("GEOWITHIN"): op = .geoWithin
        default: throw QueryError.at(current.position, "expected a comparison operator, found \(describe(current.kind))")
        }
        advance()
        var comparison = Comparison(lhs: lhs, op: op, rhs: lhs, quantifier: quantifier, position: operatorPosition)
        if current.kind == .symbol("[") {
            advance()
            guard case .identifier(let flags) = current.kind, !flags.isEmpty,
                  flags.lowercased().allSatisfy({ $0 == "c" || $0 == "d" }) else {
                throw QueryError.at(current.position, "expected 'c', 'd' or 'cd' inside '[ ]'")
            }
            comparison.caseInsensitive = flags.lowercased().contains("c")
            comparison.diacriticInsensitive = flags.lowercased().contains("d")
            advance()
            try expect("]", "to close the options")
        }
        // `value IN collection` names a property where the list would be.
        let namesProperty = if case .identifier = current.kind { true } else { current.kind == .keyPathArgument }
        comparison.rhs = op == .in && !namesProperty ? try parseList() : try parseOperand()
        return .comparison(comparison)
    }

    /// `SUBQUERY(collection, $x, predicate).@count`, after the word `SUBQUERY`.
    private mutating func parseSubquery(at start: Int) throws(Realm.Error) -> Operand {
        try expect("(", "after SUBQUERY")
        guard case .identifier(let collection) = current.kind else {
            throw QueryError.at(current.position, "SUBQUERY needs a list or set property first, found \(describe(current.kind))")
        }
        advance()
        try expect(",", "after the collection of SUBQUERY")
        guard case .identifier(let variable) = current.kind, variable.hasPrefix("$"), !variable.contains(".") else {
            throw QueryError.at(current.position, "SUBQUERY needs a variable such as $x second, found \(describe(current.kind))")
        }
        advance()
        try expect(",", "after the variable of SUBQUERY")
        let predicate = try parseOr()
        try expect(")", "to close SUBQUERY")
        guard current.kind == .identifier(".@count") else {
            throw QueryError.at(current.position, "SUBQUERY(…) must be followed by .@count")
        }
        advance()
        return .subqueryCount(collection: collection, predicate: try Self.relative(predicate, to: variable), position: start)
    }

    /// `predicate` with its key paths made relative to the subquery variable: `$x.age` becomes `age`.
    private static func relative(_ node: PredicateNode, to variable: String) throws(Realm.Error) -> PredicateNode {
        switch node {
        case .constant: return node
        case .and(let lhs, let rhs): return .and(try relative(lhs, to: variable), try relative(rhs, to: variable))
        case .or(let lhs, let rhs): return .or(try relative(lhs, to: variable), try relative(rhs, to: variable))
        case .not(let inner): return .not(try relative(inner, to: variable))
        case .comparison(var comparison):
            comparison.lhs = try relative(comparison.lhs, to: variable)
            comparison.rhs = try relative(comparison.rhs, to: variable)
            return .comparison(comparison)
        }
    }

    private static func relative(_ operand: Operand, to variable: String) throws(Realm.Error) -> Operand {
        func strip(_ path: String, at position: Int) throws(Realm.Error) -> String {
            guard path.hasPrefix(variable + ".") else {
                throw QueryError.at(position, "inside SUBQUERY, key paths start with \(variable), as in \(variable).name")
            }
            return String(path.dropFirst(variable.count + 1))
        }
        switch operand {
        case .keyPath(let path, let position):
            return .keyPath(try strip(path, at: position), position: position + variable.count + 1)
        case .mapValue(let map, let key, let rest, let position):
            return .mapValue(map: try strip(map, at: position), key: key, rest: rest, position: position)
        case .mixedPath(let property, let steps, let position):
            return .mixedPath(property: try strip(property, at: position), steps: steps, position: position)
        case .subqueryCount(let collection, let predicate, let position) where collection.hasPrefix(variable + "."):
            // A nested SUBQUERY over the variable's own collection: `SUBQUERY($x.friends, $y, …)`.
            return .subqueryCount(collection: try strip(collection, at: position), predicate: predicate, position: position)
        default:
            return operand
        }
    }

    /// `{a, b, …}` or a `%@` array argument.
    private mutating func parseList() throws(Realm.Error) -> Operand {
        let start = current.position
        if accept(.symbol("{")) {
            var values: [_PersistedValue] = []
            if !accept(.symbol("}")) {
                repeat {
                    switch try parseOperand() {
                    case .literal(let value, _): values.append(value)
                    case .argument where arguments == nil: isTemplatable = false
                    default: throw QueryError.at(start, "the list after IN may hold only values")
                    }
                } while accept(.symbol(","))
                try expect("}", "to close the list after IN")
            }
            return .list(values, position: start)
        }
        if case .argument(let index) = current.kind {
            advance()
            if arguments == nil { return .listArgument(claimArgument(index), position: start) }
            let argument: Any = if let index { try argument(index, at: start) } else { try takeArgument(at: start) }
            if let shape = GeoShape(argument) { return .shape(shape, position: start) }
            return .list(try Self.listValues(of: argument, at: start), position: start)
        }
        throw QueryError.at(start, "IN needs a list such as {1, 2} or an array argument, found \(describe(current.kind))")
    }

    /// The step of `['key']` or `[index]` starting at token `start` (its `[`), if it is one.
    private func subscriptStep(at start: Int) -> MixedPathStep? {
        guard tokens.count > start + 2, tokens[start + 2].kind == .symbol("]") else { return nil }
        switch tokens[start + 1].kind {
        case .string(let key): return .key(key)
        case .symbol("*"): return .all
        case .number(let text): return Int(text).flatMap { $0 >= 0 ? .index($0) : nil }
        default: return nil
        }
    }

    private static func elements(of argument: Any) -> [Any]? {
        if let array = argument as? [Any] { return array }
        if let set = argument as? any Collection, !(argument is String), !(argument is Data) { return set.map { $0 } }
        return nil
    }

    private mutating func parseOperand() throws(Realm.Error) -> Operand {
        let token = current
        advance()
        switch token.kind {
        case .identifier(let name) where name.uppercased() == "SUBQUERY" && current.kind == .symbol("("):
            return try parseSubquery(at: token.position)
        case .identifier(let name) where ["GEOBOX", "GEOCIRCLE", "GEOPOLYGON"].contains(name.uppercased()) && current.kind == .symbol("("):
            return .shape(try parseShape(name.uppercased(), at: token.position), position: token.position)
        case .identifier(let name) where current.kind == .symbol("[") && subscriptStep(at: position) != nil:
            var steps: [MixedPathStep] = []
            while current.kind == .symbol("["), let step = subscriptStep(at: position) {
                advance(); advance(); advance()
                steps.append(step)
            }
            var rest: String?
            if case .identifier(let path) = current.kind, path.hasPrefix(".") {
                rest = String(path.dropFirst())
                advance()
            }
            if steps.count == 1, case .key(let key) = steps[0] {
                return .mapValue(map: name, key: key, rest: rest, position: token.position)
            }
            if rest != nil {
                throw QueryError.at(token.position, "a key path after '\(name)[…][…]' is not supported; compare the value itself")
            }
            return .mixedPath(property: name, steps: steps, position: token.position)
        case .identifier(let name):
            return .keyPath(name, position: token.position)
        case .keyPathArgument:
            if arguments == nil { return .keyPathArgument(claimArgument(nil), position: token.position) }
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
        case .literal(let value):
            return .literal(value, position: token.position)
        case .keyword("TRUE"): return .literal(.bool(true), position: token.position)
        case .keyword("FALSE"): return .literal(.bool(false), position: token.position)
        case .keyword("NIL"), .keyword("NULL"): return .literal(.null, position: token.position)
        case .argument(let index):
            if arguments == nil { return .argument(claimArgument(index), position: token.position) }
            let value: Any = if let index { try argument(index, at: token.position) } else { try takeArgument(at: token.position) }
            return try Self.operand(of: value, at: token.position)
        default:
            throw QueryError.at(token.position, "expected a property name or a value, found \(describe(token.kind))")
        }
    }

    /// `geoBox(…)`, `geoCircle(…)` or `geoPolygon(…)`, after the name (`kind`, upper case).
    private mutating func parseShape(_ kind: String, at start: Int) throws(Realm.Error) -> GeoShape {
        try expect("(", "after the shape's name")
        let shape: GeoShape
        switch kind {
        case "GEOBOX":
            let bottomLeft = try parsePoint()
            try expect(",", "between the corners of geoBox")
            shape = .box(GeoBox(bottomLeft: bottomLeft, topRight: try parsePoint()))
        case "GEOCIRCLE":
            let center = try parsePoint()
            try expect(",", "between the centre and the radius of geoCircle")
            let radiusPosition = current.position
            guard let circle = GeoCircle(center: center, radiusInRadians: try parseNumber("the radius of geoCircle")) else {
                throw QueryError.at(radiusPosition, "the radius of a circle must be a non-negative number")
            }
            shape = .circle(circle)
        default:
            var rings: [[GeoPoint]] = []
            repeat {
                let ringPosition = current.position
                try expect("{", "to open a ring of geoPolygon")
                var ring = [try parsePoint()]
                while accept(.symbol(",")) { ring.append(try parsePoint()) }
                try expect("}", "to close a ring of geoPolygon")
                guard ring.count > 3, ring.first == ring.last else {
                    throw QueryError.at(ringPosition, "a ring of geoPolygon needs at least four points and must end where it starts")
                }
                rings.append(ring)
            } while accept(.symbol(","))
            shape = .polygon(GeoPolygon(outerRing: rings[0], holes: Array(rings.dropFirst()))!)
        }
        try expect(")", "to close the shape")
        return shape
    }

    /// `[longitude, latitude]`, as realm-core's query language writes a point.
    private mutating func parsePoint() throws(Realm.Error) -> GeoPoint {
        let start = current.position
        try expect("[", "to open a point [longitude, latitude]")
        let longitude = try parseNumber("a longitude")
        try expect(",", "between the longitude and the latitude")
        let latitude = try parseNumber("a latitude")
        try expect("]", "to close a point [longitude, latitude]")
        guard let point = GeoPoint(latitude: latitude, longitude: longitude) else {
            throw QueryError.at(start, "Longitude/latitude is out of bounds, lng: \(GeoText.number(longitude)) lat: \(GeoText.number(latitude))")
        }
        return point
    }

    private mutating func parseNumber(_ what: String) throws(Realm.Error) -> Double {
        guard case .number(let text) = current.kind, let number = Double(text) else {
            throw QueryError.at(current.position, "expected \(what), found \(describe(current.kind))")
        }
        advance()
        return number
    }

    /// The index of the argument a placeholder stands for: `index` if given, else the next one.
    private mutating func claimArgument(_ index: Int?) -> Int {
        if let index { return index }
        defer { nextArgument += 1 }
        return nextArgument
    }

    private mutating func takeArgument(at position: Int) throws(Realm.Error) -> Any {
        defer { nextArgument += 1 }
        return try argument(nextArgument, at: position)
    }

    private func argument(_ index: Int, at position: Int) throws(Realm.Error) -> Any {
        try Self.argument(index, of: arguments ?? [], at: position)
    }

    static func argument(_ index: Int, of arguments: [Any], at position: Int) throws(Realm.Error) -> Any {
        guard index < arguments.count else {
            throw QueryError.at(position, "missing argument #\(index + 1): the query has more '%@' than arguments (\(arguments.count))")
        }
        return arguments[index]
    }

    /// The elements of an `IN %@` argument as stored values.
    static func listValues(of argument: Any, at position: Int) throws(Realm.Error) -> [_PersistedValue] {
        guard let elements = elements(of: argument) else {
            throw QueryError.at(position, "the argument after IN must be an array, got '\(type(of: argument))'")
        }
        var values: [_PersistedValue] = []
        for element in elements { values.append(try value(of: element, at: position)) }
        return values
    }

    /// A `%@` argument as an operand: a geospatial shape, or a stored value.
    static func operand(of argument: Any, at position: Int) throws(Realm.Error) -> Operand {
        // The common arguments before the casts to shape classes, which cost more than the query.
        if let string = argument as? String { return .literal(.string(string), position: position) }
        if let integer = argument as? Int { return .literal(.int(Int64(integer)), position: position) }
        if let shape = GeoShape(argument) { return .shape(shape, position: position) }
        return .literal(try value(of: argument, at: position), position: position)
    }

    /// A `%@` argument as a stored value.
    static func value(of argument: Any, at position: Int) throws(Realm.Error) -> _PersistedValue {
        // Concrete casts first: they are much cheaper than a cast to a protocol.
        if let string = argument as? String { return .string(string) }
        if let integer = argument as? Int { return .int(Int64(integer)) }
        if let double = argument as? Double { return .double(double) }
        if argument is NSNull { return .null }
        if let mixed = argument as? AnyRealmValue {
            // The value it holds, compared as itself with any property.
            switch mixed {
            case .object(let object): return try value(of: object, at: position)
            case .list, .dictionary:
                throw QueryError.at(position, "an AnyRealmValue holding a list or dictionary cannot be compared")
            default: return mixed.scalar
            }
        }
        if let object = argument as? ObjectBase { return value(ofObject: object) }
        if let persistable = argument as? any _Persistable { return persistable._persistedValue }
        throw QueryError.at(position, "an argument of type '\(type(of: argument))' is not a value Burrow can compare")
    }

    /// What an object argument compares as: the object, with its class (an object of another
    /// class with the same key is not the same object); an unmanaged or deleted object as
    /// ``objectNotInRealm``, as realm-core compares them.
    static func value(ofObject object: ObjectBase) -> _PersistedValue {
        guard let management = object.management, (object as? Object)?.isInvalidated != true else { return objectNotInRealm }
        return .typedLink(classID: management.bound.layout.classID, key: management.key.rawValue)
    }

    /// An object that is not in the realm: no link equals it, so `link == x` matches no row and
    /// `link != x` every row, `ANY list == x` no row and `ANY list != x` every non-empty list.
    /// No class has this identifier.
    static let objectNotInRealm = _PersistedValue.typedLink(classID: .max, key: .max)

    private func describe(_ kind: QueryLexer.Kind) -> String {
        switch kind {
        case .identifier(let name): "'\(name)'"
        case .keyword(let word): "'\(word)'"
        case .number(let text): "number \(text)"
        case .string(let text): "string '\(text)'"
        case .symbol(let symbol): "'\(symbol)'"
        case .argument: "'%@'"
        case .keyPathArgument: "'%K'"
        case .literal(let value): "\(value.displayText)"
        case .end: "end of query"
        }
    }
}

/// A parsed query: the predicate and its trailing `SORT`, `DISTINCT` and `LIMIT` clauses.
struct ParsedQuery: Sendable {
    var node: PredicateNode
    var sort: [SortDescriptor] = []
    var distinct: [String] = []
    var limit: Int?
    /// Where each key path of the `SORT` and `DISTINCT` clauses starts, for messages.
    var clausePositions: [String: Int] = [:]

    /// The query with the argument placeholders of a template replaced by `arguments`.
    ///
    /// - Throws: ``Realm/Error/Code/invalidQuery`` for a missing or unusable argument.
    func binding(_ arguments: [Any]) throws(Realm.Error) -> ParsedQuery {
        var bound = self
        bound.node = try Self.bind(node, arguments)
        return bound
    }

    private static func bind(_ node: PredicateNode, _ arguments: [Any]) throws(Realm.Error) -> PredicateNode {
        switch node {
        case .constant: return node
        case .and(let lhs, let rhs): return .and(try bind(lhs, arguments), try bind(rhs, arguments))
        case .or(let lhs, let rhs): return .or(try bind(lhs, arguments), try bind(rhs, arguments))
        case .not(let inner): return .not(try bind(inner, arguments))
        case .comparison(var comparison):
            comparison.lhs = try bind(comparison.lhs, arguments)
            comparison.rhs = try bind(comparison.rhs, arguments)
            return .comparison(comparison)
        }
    }

    private static func bind(_ operand: Operand, _ arguments: [Any]) throws(Realm.Error) -> Operand {
        switch operand {
        case .keyPath, .literal, .list, .mapValue, .mixedPath, .shape:
            return operand
        case .subqueryCount(let collection, let predicate, let position):
            return .subqueryCount(collection: collection, predicate: try bind(predicate, arguments), position: position)
        case .argument(let index, let position):
            let argument = try QueryParser.argument(index, of: arguments, at: position)
            return try QueryParser.operand(of: argument, at: position)
        case .keyPathArgument(let index, let position):
            guard let name = try QueryParser.argument(index, of: arguments, at: position) as? String else {
                throw QueryError.at(position, "the argument for '%K' must be a property name string")
            }
            return .keyPath(name, position: position)
        case .listArgument(let index, let position):
            let argument = try QueryParser.argument(index, of: arguments, at: position)
            if let shape = GeoShape(argument) { return .shape(shape, position: position) }
            return .list(try QueryParser.listValues(of: argument, at: position), position: position)
        }
    }
}
