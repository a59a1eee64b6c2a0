/// A predicate as the query language spells it, and as a model in Swift evaluates it: tests
/// check that a query answers what the model does.
struct ModelCondition<Subject> {
    let query: String
    let test: (Subject) -> Bool

    /// Conditions made by `atom`, nested at random up to two levels deep in AND, OR and NOT.
    static func random(_ generator: inout SplitMix64, depth: Int = 0,
                       atom: (inout SplitMix64) -> ModelCondition) -> ModelCondition {
        guard depth < 2, Int.random(in: 0..<3, using: &generator) > 0 else { return atom(&generator) }
        let lhs = random(&generator, depth: depth + 1, atom: atom)
        switch Int.random(in: 0..<3, using: &generator) {
        case 0:
            let rhs = random(&generator, depth: depth + 1, atom: atom)
            return ModelCondition(query: "(\(lhs.query)) AND (\(rhs.query))") { lhs.test($0) && rhs.test($0) }
        case 1:
            let rhs = random(&generator, depth: depth + 1, atom: atom)
            return ModelCondition(query: "(\(lhs.query)) OR (\(rhs.query))") { lhs.test($0) || rhs.test($0) }
        default:
            return ModelCondition(query: "NOT (\(lhs.query))") { !lhs.test($0) }
        }
    }
}
