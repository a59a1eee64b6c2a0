/// A property to sort results by, and the direction.
///
/// ```swift
/// let people = realm.objects(Person.self).sorted(by: [
///     SortDescriptor(keyPath: "age", ascending: false),
///     SortDescriptor(keyPath: "name"),
/// ])
/// ```
public struct SortDescriptor: Hashable, Sendable, CustomStringConvertible {
    /// The property name.
    public let keyPath: String
    /// Whether smaller values come first.
    public let ascending: Bool

    /// Sorts by `keyPath`, ascending unless told otherwise.
    public init(keyPath: String, ascending: Bool = true) {
        self.keyPath = keyPath
        self.ascending = ascending
    }

    /// The same property in the other direction.
    public func reversed() -> SortDescriptor {
        SortDescriptor(keyPath: keyPath, ascending: !ascending)
    }

    public var description: String { "\(keyPath) \(ascending ? "ASC" : "DESC")" }
}
