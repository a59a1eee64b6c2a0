import Foundation

/// One section of ``SectionedResults``: the elements whose section key is ``key``, in the
/// results' order, as RealmSwift's `ResultsSection`.
///
/// ```swift
/// let puppies = realm.objects(Dog.self).sectioned(by: \.age)[0]
/// print(puppies.key, puppies.count, puppies[0].name)
/// ```
///
/// A section is its key within its sectioned results: it follows the elements with that key
/// from version to version, and is invalidated while none has it.
public struct ResultsSection<Key: _Persistable & Hashable, T: RealmCollectionValue>: RealmSectionedResult, Identifiable {
    /// An element of the section.
    public typealias Element = T

    let index: SectionIndex<Key, T>
    /// The key which represents this section.
    public let key: Key

    init(index: SectionIndex<Key, T>, key: Key) {
        self.index = index
        self.key = key
    }

    /// The section's key, which identifies it.
    public var id: Key { key }

    /// The positions in the results of the section's elements; traps while no element has the key.
    private var rows: ArraySlice<Int32> {
        let layout = index.layout
        guard let section = layout.section(ofKey: key) else {
            burrowPreconditionFailure("The section with key '\(key)' no longer exists: no element of the sectioned results has that key.")
        }
        return layout.rows(ofSection: section)
    }

    /// Always 0.
    public var startIndex: Int { 0 }
    /// The number of elements.
    public var endIndex: Int { count }
    /// The number of elements in the section; traps while no element has the key.
    public var count: Int { rows.count }

    /// The element at `position`; traps when out of range.
    public subscript(position: Int) -> T {
        let rows = rows
        IndexBounds.check(position, count: rows.count)
        return index.results[Int(rows[rows.startIndex + position])]
    }

    /// Walks the elements the section holds when iteration begins.
    public func makeIterator() -> SectionIterator<T> {
        SectionIterator(results: index.results, rows: rows)
    }

    /// Whether both are the section of one key in the same sectioned results.
    public static func == (lhs: ResultsSection, rhs: ResultsSection) -> Bool {
        lhs.index === rhs.index && lhs.key == rhs.key
    }

    /// The realm the section reads.
    public var realm: Realm? { index.results.realm }
    /// Whether the section can no longer be read: its results were invalidated, or no element
    /// has its key any more.
    public var isInvalidated: Bool { index.results.isInvalidated || index.layout.section(ofKey: key) == nil }
    /// Whether the section is a frozen snapshot.
    public var isFrozen: Bool { index.results.isFrozen }

    /// A frozen snapshot of the section, which any thread may read.
    public func freeze() -> ResultsSection { frozenValue(unmanaged: "A section has no realm.") }

    /// The live section in the calling thread's realm at the latest version, or `nil` when the
    /// collection its results read was deleted.
    public func thaw() -> ResultsSection? { thawedValue(unmanaged: "A section has no realm.") }

    /// Calls `block` with the section, then after each version that changed it: rows that
    /// left, joined and changed in this section, and the section itself appearing or going.
    ///
    /// ```swift
    /// let puppies = realm.objects(Dog.self).sectioned(by: \.age)[0]
    /// let token = puppies.observe(keyPaths: ["name"]) { change in
    ///     if case .update(_, _, let insertions, _, _, let sectionsToDelete) = change { print(insertions, sectionsToDelete) }
    /// }
    /// ```
    /// Index paths are of the whole sectioned results, as in RealmSwift. Versions that change
    /// other sections only are not reported. Traps for a frozen section and inside a write.
    public func observe(keyPaths: [String]?, on queue: DispatchQueue?,
                        _ block: @escaping (SectionedResultsChange<ResultsSection>) -> Void) -> NotificationToken {
        if let queue {
            return QueueObservation.observe(self, on: queue) { $0.observe(keyPaths: keyPaths, on: nil, block) }
        }
        let key = key
        return SectionsObservation.observe(index, keyPaths: keyPaths, sectionKey: key) { observed, changes in
            let section = ResultsSection(index: observed, key: key)
            block(changes.map { SectionedResultsChange(section, $0) } ?? .initial(section))
        }
    }
}

extension ResultsSection: RealmBound {
    var boundRealm: RealmCore? { index.realm }

    func moved(to core: RealmCore) -> ResultsSection? {
        index.moved(to: core).map { ResultsSection(index: $0, key: key) }
    }
}

/// Walks the elements of a ``ResultsSection``.
///
/// ```swift
/// for dog in realm.objects(Dog.self).sectioned(by: \.age)[0] { print(dog.name) }
/// ```
public struct SectionIterator<Element: RealmCollectionValue>: IteratorProtocol {
    let results: Results<Element>
    let rows: ArraySlice<Int32>
    var position = 0

    init(results: Results<Element>, rows: ArraySlice<Int32>) {
        self.results = results
        self.rows = rows
        position = rows.startIndex
    }

    /// The next element, or `nil` after the last.
    public mutating func next() -> Element? {
        guard position < rows.endIndex else { return nil }
        defer { position += 1 }
        return results[Int(rows[position])]
    }
}
