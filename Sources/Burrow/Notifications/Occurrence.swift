/// One element of a collection that may hold equal elements (a list holding an object twice,
/// results of values): the element, and which of the equal ones it is, so that each element
/// has an identity of its own for ``CollectionDiff``.
struct Occurrence<Value: Hashable>: Hashable {
    let value: Value
    let index: Int

    /// The identities of `values`, in order: equal values counted from the first.
    static func of(_ values: [Value]) -> [Occurrence] {
        var seen: [Value: Int] = [:]
        return values.map { value in
            let index = seen[value, default: 0]
            seen[value] = index + 1
            return Occurrence(value: value, index: index)
        }
    }
}
