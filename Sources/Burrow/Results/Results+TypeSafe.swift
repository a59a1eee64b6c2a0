extension Results where Element: Object {
    /// The results that also match a type-safe query.
    ///
    /// ```swift
    /// let named = dogs.where { $0.name.starts(with: "R") && $0.age > 1 }
    /// ```
    public func `where`(_ isIncluded: (Query<Element>) -> Query<Bool>) -> Results<Element> {
        with(core.query.filtered(by: isIncluded(Query<Element>(.root(core.info))).node))
    }

    /// The position of the first object matching a type-safe query, or `nil`.
    public func index(matching isIncluded: (Query<Element>) -> Query<Bool>) -> Int? {
        index(matchingNode: isIncluded(Query<Element>(.root(core.info))).node)
    }

    /// The results sorted by the property `keyPath` reads.
    ///
    /// ```swift
    /// dogs.sorted(by: \.age, ascending: false)
    /// ```
    public func sorted<Value>(by keyPath: KeyPath<Element, Value>, ascending: Bool = true) -> Results<Element> {
        sorted(byKeyPath: core.info.propertyName(of: keyPath), ascending: ascending)
    }

    /// The results with one object for each combination of the values `keyPaths` read.
    public func distinct(by keyPaths: [PartialKeyPath<Element>]) -> Results<Element> {
        distinct(by: keyPaths.map { core.info.propertyName(of: $0) })
    }
}
