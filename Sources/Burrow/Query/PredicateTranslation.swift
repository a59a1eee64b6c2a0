import Foundation
import LMDB

/// Turns Foundation's `Predicate` (`#Predicate<Dog> { $0.age < 2 }`) into the predicate tree the
/// string language and `where { }` build, so that all three forms run the same bound query with
/// the same index plans.
///
/// Each kind of `PredicateExpressions` node translates itself
/// (``TranslatablePredicateExpression``); this type holds what the walk needs: which object
/// or collection element each closure variable stands for, and the scope of a `SUBQUERY`.
struct PredicateTranslation {
    /// What a closure variable stands for.
    enum Binding {
        /// An object of `type`, reached from the query's objects by `path` (empty for `$0`).
        case object(path: [String], type: ObjectBase.Type, scope: Int)
        /// Each value of the list or set of values at `path`, under a quantifier.
        case element(of: [String], quantifier: Quantifier, scope: Int)
    }

    private var bindings: [PredicateExpressions.VariableID: Binding] = [:]
    /// Whether a constant was read other than as the literal of one comparison (folded with
    /// another constant, read as a flag, a range, a sequence or a `??` default): the translation
    /// then depends on the constants' values, and no template is made of it
    /// (``PredicateTemplates``).
    let constantsReadOtherwise = Flag()

    final class Flag {
        var isSet = false
    }
    /// The `SUBQUERY` nesting that key paths must belong to: 0 for the query's own objects.
    private(set) var scope = 0
    /// Inside `contains(where:)` or `allSatisfy` over values: the quantifier that binds the
    /// element, which decides which connectives can be pushed inside it.
    private(set) var elementQuantifier: Quantifier?

    /// The tree `predicate` stands for, over objects of `Root`.
    ///
    /// - Throws: ``Realm/Error/Code/invalidQuery`` naming the first expression with no query form.
    static func node<Root: ObjectBase>(of predicate: Predicate<Root>) throws(Realm.Error) -> PredicateNode {
        try translation(of: predicate).node
    }

    /// The query `predicate` translates into, with the template it was bound from, if any.
    static func translation<Root: ObjectBase>(of predicate: Predicate<Root>) throws(Realm.Error)
        -> (node: PredicateNode, template: PredicateTemplates.Template?) {
        if let bound = PredicateTemplates.node(of: predicate.expression, root: Root.self) { return bound }
        guard let expression = predicate.expression as? any TranslatablePredicateExpression else {
            throw untranslatable(firstUntranslatable(in: predicate.expression),
                                 "this kind of expression has no query form")
        }
        var translation = PredicateTranslation()
        translation.bindings[predicate.variable.key] = .object(path: [], type: Root.self, scope: 0)
        let node = try translation.condition(expression.translated(in: &translation), of: predicate.expression)
        if !translation.constantsReadOtherwise.isSet { learnTemplate(from: expression, root: Root.self, translatedAs: node) }
        return (node, nil)
    }

    /// Opens `expression` for ``PredicateTemplates/learn(from:root:translatedAs:)``.
    private static func learnTemplate<E: TranslatablePredicateExpression, Root>(from expression: E, root: Root.Type, translatedAs node: PredicateNode) {
        PredicateTemplates.learn(from: expression, root: root, translatedAs: node)
    }

    /// The expression types whose translation passed `validate` against their class.
    private static let validatedTypes = Locked<Set<ObjectIdentifier>>([])

    /// Runs `validate` the first time a predicate of this expression type is used; a type that
    /// fails is checked again at each use, so that it keeps throwing. A predicate bound from
    /// `template` finds the answer there, without the lookup.
    static func validateOnce<Root>(_ predicate: Predicate<Root>, template: PredicateTemplates.Template?,
                                   _ validate: () throws -> Void) throws {
        if template?.isValidated == true { return }
        let type = ObjectIdentifier(Swift.type(of: predicate.expression))
        if !validatedTypes.withLock({ $0.contains(type) }) {
            try validate()
            validatedTypes.withLock { validated in
                if validated.count >= 4096 { validated.removeAll(keepingCapacity: true) }
                validated.insert(type)
            }
        }
        template?.markValidated()
    }

    /// The binding of a variable of the closure.
    func binding(of variable: PredicateExpressions.VariableID, in expression: Any) throws(Realm.Error) -> Binding {
        guard let binding = bindings[variable] else {
            throw Self.untranslatable(expression, "it uses a variable from outside the predicate")
        }
        return binding
    }

    /// Translates `body` with `variable` standing for `binding`.
    mutating func with<Result>(_ variable: PredicateExpressions.VariableID, boundTo binding: Binding,
                               _ body: (inout PredicateTranslation) throws(Realm.Error) -> Result) throws(Realm.Error) -> Result {
        bindings[variable] = binding
        defer { bindings[variable] = nil }
        return try body(&self)
    }

    /// Translates `body` as the condition of a `SUBQUERY`, one scope deeper, with `variable`
    /// standing for one object of the collection.
    mutating func subquery(_ variable: PredicateExpressions.VariableID, elementType: ObjectBase.Type,
                           _ body: (inout PredicateTranslation) throws(Realm.Error) -> PredicateNode) throws(Realm.Error) -> PredicateNode {
        scope += 1
        defer { scope -= 1 }
        return try with(variable, boundTo: .object(path: [], type: elementType, scope: scope), body)
    }

    /// Translates `body` with `variable` standing for each value of a collection of values.
    mutating func elements(_ variable: PredicateExpressions.VariableID, of path: [String], quantifier: Quantifier,
                           _ body: (inout PredicateTranslation) throws(Realm.Error) -> PredicateNode) throws(Realm.Error) -> PredicateNode {
        let outer = elementQuantifier
        elementQuantifier = quantifier
        defer { elementQuantifier = outer }
        return try with(variable, boundTo: .element(of: path, quantifier: quantifier, scope: scope), body)
    }

    /// `translated` as a condition: a `Bool` property stands for `property == true`, a constant
    /// `Bool` for itself.
    func condition(_ translated: TranslatedExpression, of expression: Any) throws(Realm.Error) -> PredicateNode {
        switch translated {
        case .condition(let node): return node
        case .path(let path): return try comparison(path, .equal, .literal(.bool(true), position: 0), in: expression)
        case .value(let value as Bool):
            constantsReadOtherwise.isSet = true
            return .constant(value)
        default: throw Self.untranslatable(expression, "it is not a condition")
        }
    }

    /// `path op rhs`, checked to belong to the current scope.
    func comparison(_ path: PredicatePath, _ op: ComparisonOperator, _ rhs: Operand,
                    in expression: Any) throws(Realm.Error) -> PredicateNode {
        try checkScope(path, in: expression)
        return .comparison(Comparison(lhs: .keyPath(path.keyPath, position: 0), op: op, rhs: rhs, quantifier: path.quantifier))
    }

    /// `path op value` for a constant `value`.
    func comparison(_ path: PredicatePath, _ op: ComparisonOperator, value: Any, in expression: Any) throws(Realm.Error) -> PredicateNode {
        try comparison(path, op, .literal(Self.storedValue(value, in: expression), position: 0), in: expression)
    }

    /// Throws for a key path from outside the `SUBQUERY` being translated, or for the object
    /// itself where a property is needed.
    func checkScope(_ path: PredicatePath, in expression: Any) throws(Realm.Error) {
        guard !path.names.isEmpty else {
            throw Self.untranslatable(expression, "it compares the object itself; compare one of its properties")
        }
        guard path.scope == scope else {
            throw Self.untranslatable(expression, "a condition inside contains(where:) or allSatisfy over objects can only read the element")
        }
    }

    /// A constant as a stored value.
    static func storedValue(_ value: Any, in expression: Any) throws(Realm.Error) -> _PersistedValue {
        // The common constants before the cast to a protocol, which costs more than the query.
        if let string = value as? String { return .string(string) }
        if let integer = value as? Int { return .int(Int64(integer)) }
        if let optional = value as? any OptionalValue, optional.isNil { return .null }
        do {
            return try QueryParser.value(of: value, at: 0)
        } catch {
            throw untranslatable(expression, "a value of type '\(type(of: value))' cannot be compared in a query")
        }
    }

    /// The error for an expression with no query form.
    static func untranslatable(_ expression: Any, _ reason: String) -> Realm.Error {
        Realm.Error(.invalidQuery, "#Predicate cannot be translated into a query: \(reason), in \(expression).")
    }

    /// The innermost expression of `expression` with no translation at all, to name it.
    static func firstUntranslatable(in expression: Any) -> Any {
        for child in Mirror(reflecting: expression).children {
            if child.value is any PredicateExpression, !(child.value is any TranslatablePredicateExpression) {
                return firstUntranslatable(in: child.value)
            }
        }
        return expression
    }
}

/// A key path from the query's objects (or from a `SUBQUERY`'s element), as a predicate
/// expression translates to it.
struct PredicatePath {
    var names: [String]
    /// The class of the objects the path ends at, when it ends at objects.
    var objectType: ObjectBase.Type?
    /// Whether it ends at a list, set, map or linking objects.
    var isCollection: Bool
    /// For the element of a collection of values: how its values are quantified.
    var quantifier: Quantifier?
    /// The `SUBQUERY` nesting it belongs to.
    var scope: Int

    var keyPath: String { names.joined(separator: ".") }
}

/// What a predicate expression translates to.
enum TranslatedExpression {
    /// A condition.
    case condition(PredicateNode)
    /// A condition behind `?.` (`$0.owner.flatMap { $0.age > 2 }`): `nil` unless `present`.
    case optionalCondition(present: PredicateNode, condition: PredicateNode)
    /// A property, through links.
    case path(PredicatePath)
    /// A constant (captured or literal); `NSNull` for `nil`.
    case value(Any)
    /// `lower...upper` or `lower..<upper` of constants.
    case range(lower: Any, upper: Any, closed: Bool)
    /// `path ?? value`.
    case nilCoalesced(PredicatePath, default: Any)
}

/// A `PredicateExpressions` node Burrow can translate.
protocol TranslatablePredicateExpression {
    func translated(in translation: inout PredicateTranslation) throws(Realm.Error) -> TranslatedExpression
    /// Appends what this node and those below it carry besides their types, in the order
    /// ``translated(in:)`` reads them.
    func appendLeaves(to leaves: inout PredicateLeaves)
}
