import Foundation

/// What a `#Predicate`'s expression carries besides its type: the constants it captured, the
/// key paths it reads (by identity) and its comparison operators, in the order translation
/// reads them.
///
/// Collected whole to make a template; to bind one, checked against it as they come instead,
/// with the constants made literals on the way, so that binding keeps no list but the literals.
struct PredicateLeaves {
    private(set) var constants: [Any] = []
    private(set) var keyPaths: [ObjectIdentifier] = []
    private(set) var operators: [Int] = []

    /// When binding: the template the leaves must match, the literals made so far, and whether
    /// a leaf did not match.
    private let template: PredicateTemplates.Template?
    private(set) var literals: [_PersistedValue] = []
    private(set) var mismatch = false
    private var keyPathCount = 0
    private var operatorCount = 0

    /// Leaves to collect.
    init() {
        template = nil
    }

    /// Leaves to check against `template`.
    init(matching template: PredicateTemplates.Template) {
        self.template = template
        literals.reserveCapacity(template.constantTypes.count)
    }

    /// Whether every leaf matched the template and none is missing.
    var matchesTemplate: Bool {
        guard let template, !mismatch else { return false }
        return literals.count == template.constantTypes.count && keyPathCount == template.keyPaths.count
            && operatorCount == template.operators.count
    }

    mutating func constant(_ value: Any) {
        guard let template else { return constants.append(value) }
        let index = literals.count
        // `nil` of the same optional type translates to the null literal in the same place.
        guard !mismatch, index < template.constantTypes.count, ObjectIdentifier(Swift.type(of: value)) == template.constantTypes[index],
              let literal = try? PredicateTranslation.storedValue(value, in: value),
              literal == .null || PredicateTemplates.isPlain(literal) else {
            mismatch = true
            return
        }
        literals.append(literal)
    }

    mutating func keyPath(_ keyPath: AnyKeyPath) {
        guard let template else { return keyPaths.append(ObjectIdentifier(keyPath)) }
        if keyPathCount >= template.keyPaths.count || template.keyPaths[keyPathCount] != ObjectIdentifier(keyPath) { mismatch = true }
        keyPathCount += 1
    }

    mutating func comparisonOperator(_ code: Int) {
        guard let template else { return operators.append(code) }
        if operatorCount >= template.operators.count || template.operators[operatorCount] != code { mismatch = true }
        operatorCount += 1
    }
}
