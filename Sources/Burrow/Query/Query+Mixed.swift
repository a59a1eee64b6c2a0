import Foundation

extension Query where T == AnyRealmValue {
    /// The element at `position` of the list the value holds (`value[0]`); `nil` when it holds
    /// no list or the list is shorter.
    ///
    /// ```swift
    /// things.where { $0.value[0] == .string("first") }
    /// things.where { $0.value["sizes"][1] > .int(3) }
    /// ```
    public subscript(position: Int) -> Query<AnyRealmValue> {
        burrowPrecondition(position >= 0, "An index into an AnyRealmValue in where { } cannot be negative: \(position).")
        return nested(.index(position))
    }

    /// The value under `key` of the dictionary the value holds (`value['key']`); `nil` when it
    /// holds no dictionary or not that key.
    public subscript(key: String) -> Query<AnyRealmValue> { nested(.key(key)) }

    /// Every element or entry of the list or dictionary the value holds (`value[*]`): a
    /// comparison matches when it matches any of them.
    ///
    /// ```swift
    /// things.where { $0.value.any == .string("red") }
    /// things.where { $0.value["sizes"].any > .int(3) }
    /// ```
    public var any: Query<AnyRealmValue> { nested(.all) }

    private func nested(_ step: MixedPathStep) -> Query<AnyRealmValue> {
        spelled(nestedExpression(step)) { spelling in
            switch step {
            case .index(let index): .path(spelling.format + "[%@]", arguments: spelling.arguments + [index], requiresAny: false)
            case .key(let key): .path(spelling.format + "[%@]", arguments: spelling.arguments + [key], requiresAny: false)
            case .all: .path(spelling.format + "[%K]", arguments: spelling.arguments + ["#any"], requiresAny: false)
            }
        }
    }

    private func nestedExpression(_ step: MixedPathStep) -> Query<AnyRealmValue> {
        switch expression {
        case .keyPath(let property, let owner):
            if case .key(let key) = step { return Query(.mapValue(map: property, key: key, rest: nil, owner: owner)) }
            return Query(.mixedPath(property: property, steps: [step], owner: owner))
        case .mapValue(let property, let key, nil, let owner):
            return Query(.mixedPath(property: property, steps: [.key(key), step], owner: owner))
        case .mixedPath(let property, let steps, let owner):
            return Query(.mixedPath(property: property, steps: steps + [step], owner: owner))
        default:
            burrowPreconditionFailure("A subscript in where { } needs an AnyRealmValue property.")
        }
    }
}
