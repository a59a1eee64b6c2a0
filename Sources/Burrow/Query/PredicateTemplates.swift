import Foundation
import LMDB
import Synchronization

/// Translations of `#Predicate`s kept by expression type, with their constants left as
/// placeholders: a predicate built in a loop (`#Predicate { $0.name == name }`) has one
/// expression type, reads the same key paths and differs only in its constants, so it is
/// translated once and bound at each use, as a query string is parsed once (``QueryCache``).
///
/// A template is made only when a translation provably used each constant in exactly one place,
/// as it is: each constant a plain value (a string, a number, a date…: not a `Bool`, a range, a
/// collection, an object or `nil`, which translation may fold or read differently), all of them
/// distinct, each found once among the translation's literals, and the expression carrying no
/// data besides them, its key paths and its operators. A predicate that does not fit its type's
/// template is translated in full.
enum PredicateTemplates {
    /// A translation whose constants are `.argument` placeholders, and what a predicate must
    /// carry to be bound to it.
    final class Template {
        let node: PredicateNode
        let keyPaths: [ObjectIdentifier]
        let operators: [Int]
        let constantTypes: [ObjectIdentifier]
        /// Checks the leaves of an expression of the template's type against the template.
        fileprivate let match: (any StandardPredicateExpression<Bool>, Template) -> PredicateLeaves?
        /// Where the leaves lie in the expression's memory, when that could be learnt: binding
        /// then reads them there instead of calling `match`.
        fileprivate let layout: PredicateLeafLayout?
        /// Whether a query bound from the template passed `validate` against its class, which
        /// the template's every binding then passes too: they differ only in constants.
        private let validated = Atomic<Bool>(false)

        var isValidated: Bool { validated.load(ordering: .acquiring) }
        func markValidated() { validated.store(true, ordering: .releasing) }

        fileprivate init(node: PredicateNode, keyPaths: [ObjectIdentifier], operators: [Int], constantTypes: [ObjectIdentifier],
                         match: @escaping (any StandardPredicateExpression<Bool>, Template) -> PredicateLeaves?, layout: PredicateLeafLayout?) {
            self.node = node
            self.keyPaths = keyPaths
            self.operators = operators
            self.constantTypes = constantTypes
            self.match = match
            self.layout = layout
        }
    }

    private enum Entry: @unchecked Sendable {
        case template(Template)
        /// Attempts that failed for what the constants were; after a few, none is made.
        case failedAttempts(Int)
    }

    private struct Key: Hashable {
        let expression: ObjectIdentifier
        let root: ObjectIdentifier
    }

    private static let capacity = 512
    private static let mostAttempts = 4
    private static let entries = Locked<[Key: Entry]>([:])
    /// The template a thread bound last, which a loop filtering with one predicate finds again.
    private static let last = ThreadSlot { LastFound<Key, Template>() }

    /// The translation of `expression` (over objects of `Root`) bound from its type's
    /// template, with the template, or `nil` when there is none or the expression does not fit it.
    static func node<Root>(of expression: any StandardPredicateExpression<Bool>, root: Root.Type) -> (node: PredicateNode, template: Template)? {
        let key = Key(expression: ObjectIdentifier(type(of: expression)), root: ObjectIdentifier(root))
        let template = last.value.value(for: key) { () -> Template? in
            guard case .template(let found)? = entries.withLock({ $0[key] }) else { return nil }
            return found
        }
        guard let template else { return nil }
        return bind(expression, to: template).map { ($0, template) }
    }

    /// Whether predicates of `predicate`'s expression type are bound from a template; with
    /// `readInPlace`, from one that reads their leaves where they lie (``PredicateLeafLayout``).
    static func hasTemplate<Root>(for predicate: Predicate<Root>, readInPlace: Bool = false) -> Bool {
        let key = Key(expression: ObjectIdentifier(type(of: predicate.expression)), root: ObjectIdentifier(Root.self))
        guard case .template(let template)? = entries.withLock({ $0[key] }) else { return false }
        return !readInPlace || template.layout != nil
    }

    /// Learns the template of `expression`'s type from its full translation `node`.
    static func learn<E: TranslatablePredicateExpression, Root>(from expression: E, root: Root.Type, translatedAs node: PredicateNode) {
        let key = Key(expression: ObjectIdentifier(E.self), root: ObjectIdentifier(root))
        let attempts: Int
        switch entries.withLock({ $0[key] }) {
        case .template?: return
        case .failedAttempts(let count)?:
            guard count < mostAttempts else { return }
            attempts = count
        case nil: attempts = 0
        }
        let entry: Entry = template(of: expression, translatedAs: node).map { .template($0) } ?? .failedAttempts(attempts + 1)
        entries.withLock { entries in
            if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            entries[key] = entry
        }
    }

    // MARK: Making

    private static func template<E: TranslatablePredicateExpression>(of expression: E, translatedAs node: PredicateNode) -> Template? {
        var leaves = PredicateLeaves()
        expression.appendLeaves(to: &leaves)
        var audited = (constants: 0, keyPaths: 0, operators: 0)
        guard audit(expression, counting: &audited), audited.constants == leaves.constants.count,
              audited.keyPaths == leaves.keyPaths.count, audited.operators == leaves.operators.count else { return nil }
        var literals: [_PersistedValue] = []
        for constant in leaves.constants {
            guard let literal = try? PredicateTranslation.storedValue(constant, in: constant), isPlain(literal),
                  !literals.contains(literal) else { return nil }
            literals.append(literal)
        }
        var found = [Int](repeating: 0, count: literals.count)
        let templated = placeholding(node, literals, found: &found)
        guard found.allSatisfy({ $0 == 1 }) else { return nil }
        return Template(node: templated, keyPaths: leaves.keyPaths, operators: leaves.operators,
                        constantTypes: leaves.constants.map { ObjectIdentifier(type(of: $0)) }, match: matcher(of: E.self),
                        layout: PredicateLeafLayout(of: expression, literals: literals, keyPaths: leaves.keyPaths, operators: leaves.operators))
    }

    /// Whether translation reads a constant of this value only to make it this literal.
    static func isPlain(_ literal: _PersistedValue) -> Bool {
        switch literal {
        case .int, .float, .double, .string, .data, .date, .uuid, .objectId, .decimal: true
        default: false
        }
    }

    /// Counts the constants, key paths and operators below `value` by reflection; `false` when
    /// a node holds anything else, which a template would not see change.
    private static func audit(_ value: Any, counting counts: inout (constants: Int, keyPaths: Int, operators: Int)) -> Bool {
        for child in Mirror(reflecting: value).children {
            if value is any ConstantLeaf, child.label == "value" {
                counts.constants += 1
            } else if value is any OperatorLeaf, child.label == "op" {
                counts.operators += 1
            } else if value is any KeyPathLeaf, child.value is AnyKeyPath {
                counts.keyPaths += 1
            } else if child.value is PredicateExpressions.VariableID {
                continue
            } else if child.value is any PredicateExpression {
                guard audit(child.value, counting: &counts) else { return false }
            } else {
                return false
            }
        }
        return true
    }

    /// `node` with each literal equal to `literals[i]` replaced by the placeholder `i`,
    /// counting the replacements of each in `found`. A constant's literal held by any other
    /// operand is not replaced, which leaves it unfound: no template.
    private static func placeholding(_ node: PredicateNode, _ literals: [_PersistedValue], found: inout [Int]) -> PredicateNode {
        node.mappingOperands { operand in
            guard case .literal(let value, let position) = operand, let index = literals.firstIndex(of: value) else { return operand }
            found[index] += 1
            return .argument(index, position: position)
        }
    }

    /// A function checking the leaves of an expression whose type is `E` against a template.
    private static func matcher<E: TranslatablePredicateExpression>(of _: E.Type) -> (any StandardPredicateExpression<Bool>, Template) -> PredicateLeaves? {
        { expression, template in
            func match<T: StandardPredicateExpression<Bool>>(_ value: T) -> PredicateLeaves? {
                guard T.self == E.self else { return nil }
                var leaves = PredicateLeaves(matching: template)
                unsafeBitCast(value, to: E.self).appendLeaves(to: &leaves)
                return leaves
            }
            return match(expression)
        }
    }

    // MARK: Binding

    private static func bind(_ expression: any StandardPredicateExpression<Bool>, to template: Template) -> PredicateNode? {
        if let layout = template.layout {
            return layout.literals(of: expression).map { substituting(template.node, $0) }
        }
        guard let leaves = template.match(expression, template), leaves.matchesTemplate else { return nil }
        return substituting(template.node, leaves.literals)
    }

    /// The template's node with each placeholder `i` replaced by the literal `values[i]`.
    private static func substituting(_ node: PredicateNode, _ values: [_PersistedValue]) -> PredicateNode {
        node.mappingOperands { operand in
            guard case .argument(let index, let position) = operand else { return operand }
            return .literal(values[index], position: position)
        }
    }
}

/// The expression kinds whose stored properties are data rather than expressions, for
/// ``PredicateTemplates``' audit: a constant, a key path, an operator.
protocol ConstantLeaf {}
protocol KeyPathLeaf {}
protocol OperatorLeaf {}

extension PredicateExpressions.Value: ConstantLeaf {}
extension PredicateExpressions.KeyPath: KeyPathLeaf {}
extension PredicateExpressions.Comparison: OperatorLeaf {}
