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

    /// Sorts by the property `keyPath` reads.
    ///
    /// ```swift
    /// dogs.sorted(by: [SortDescriptor(keyPath: \Dog.age, ascending: false)])
    /// ```
    public init<Element: ObjectBase>(keyPath: PartialKeyPath<Element>, ascending: Bool = true) {
        self.init(keyPath: ClassInfo.of(Element.self).propertyName(of: keyPath), ascending: ascending)
    }

    /// The same property in the other direction.
    public func reversed() -> SortDescriptor {
        SortDescriptor(keyPath: keyPath, ascending: !ascending)
    }

    /// `SortDescriptor(keyPath: age, direction: descending)`, as RealmSwift prints it.
    public var description: String {
        "SortDescriptor(keyPath: \(keyPath), direction: \(ascending ? "ascending" : "descending"))"
    }
}

extension SortDescriptor: ExpressibleByStringLiteral {
    /// Sorts ascending by the property the literal names: `sorted(by: ["name"])`.
    public init(stringLiteral value: String) {
        self.init(keyPath: value)
    }
}
