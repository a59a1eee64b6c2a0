extension Results {
    /// The results sorted by one property.
    ///
    /// ```swift
    /// dogs.sorted(byKeyPath: "age", ascending: false)
    /// ```
    /// Sorting is stable: sorting sorted results keeps the earlier order among equal values.
    /// Strings sort by their UTF-8 bytes; `nil` sorts first. Traps on an unknown property.
    public consuming func sorted(byKeyPath keyPath: String, ascending: Bool = true) -> Results<Element> {
        sorted(by: [SortDescriptor(keyPath: keyPath, ascending: ascending)])
    }

    /// The results sorted by several properties, the first one deciding first.
    public consuming func sorted<S: Sequence>(by sortDescriptors: S) -> Results<Element> where S.Element == SortDescriptor {
        with(query.adding(.sort(Array(sortDescriptors))))
    }

    /// The results with one object for each combination of values of `keyPaths` (the first met).
    ///
    /// ```swift
    /// dogs.distinct(by: ["name"])
    /// ```
    public consuming func distinct<S: Sequence>(by keyPaths: S) -> Results<Element> where S.Element == String {
        with(query.adding(.distinct(Array(keyPaths))))
    }

    /// A live page of the results: skip `offset` objects, then keep at most `count`.
    ///
    /// ```swift
    /// let page = people.sorted(byKeyPath: "name").limit(20, offset: 40)
    /// ```
    /// Sorted by one indexed property, a page reads only the index entries up to its end.
    public consuming func limit(_ count: Int, offset: Int = 0) -> Results<Element> {
        burrowPrecondition(count >= 0 && offset >= 0, "limit(\(count), offset: \(offset)) needs a count and an offset of at least 0.")
        return with(query.adding(.slice(offset: offset, limit: count)))
    }
}
