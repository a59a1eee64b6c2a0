import Foundation

/// Names in query messages: the closest property name for "did you mean".
extension StoredClass {
    func closestName(to name: String) -> String? {
        let scored = properties.map { ($0.name, editDistance($0.name.lowercased(), name.lowercased())) }
        guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= max(2, name.count / 3) else { return nil }
        return best.0
    }
}

/// Type names in query messages, as Swift spells them.
extension StoredProperty {
    var typeName: String {
        let base: String = switch kind {
        case .bool: "Bool"
        case .int: "Int"
        case .float: "Float"
        case .double: "Double"
        case .string: "String"
        case .data: "Data"
        case .date: "Date"
        case .uuid: "UUID"
        case .objectId: "ObjectId"
        case .decimal: "Decimal"
        case .link: objectClassName ?? "Object"
        case .mixed: "AnyRealmValue"
        }
        return isOptional ? base + "?" : base
    }
}

/// Levenshtein distance, for "did you mean" suggestions.
func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a), b = Array(b)
    guard !a.isEmpty else { return b.count }
    guard !b.isEmpty else { return a.count }
    var previous = Array(0...b.count)
    for i in 1...a.count {
        var current = [i] + [Int](repeating: 0, count: b.count)
        for j in 1...b.count {
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
        }
        previous = current
    }
    return previous[b.count]
}
