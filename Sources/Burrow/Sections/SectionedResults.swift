import Foundation

/// Sorted results split into sections by a key, as RealmSwift's `SectionedResults`: each
/// ``ResultsSection`` holds the elements whose key is its key, in the results' order.
///
/// ```swift
/// let byAge = realm.objects(Dog.self).sectioned(by: \.age, ascending: true)
/// for section in byAge {
///     print(section.key, section.map(\.name))
/// }
/// let first = byAge[IndexPath(item: 0, section: 0)]
/// ```
///
/// Sections come in the order of their first elements, which the sort puts in key order when
/// the first sort descriptor decides the key (as it must). The sections are live: derived when
/// first read in a version of the realm, and, under an observation, kept up to date from each
/// change without computing every key again.
public struct SectionedResults<Key: _Persistable & Hashable, SectionElement: RealmCollectionValue>: RealmSectionedResult {
    /// One section of the results.
    public typealias Element = ResultsSection<Key, SectionElement>

    let index: SectionIndex<Key, SectionElement>

    init(index: SectionIndex<Key, SectionElement>) {
        self.index = index
    }

    /// The key of each section, in order.
    public var allKeys: [Key] { index.layout.keys }

    /// Always 0.
    public var startIndex: Int { 0 }
    /// The number of sections.
    public var endIndex: Int { count }
    /// The number of sections.
    public var count: Int { index.layout.count }

    /// The section at `position`; traps when out of range.
    public subscript(position: Int) -> ResultsSection<Key, SectionElement> {
        let layout = index.layout
        IndexBounds.check(position, count: layout.count)
        return ResultsSection(index: index, key: layout.key(ofSection: position))
    }

    /// The element at `indexPath` (`IndexPath(item:section:)`); traps when out of range.
    public subscript(indexPath: IndexPath) -> SectionElement {
        self[indexPath.section][indexPath.item]
    }

    /// Walks the sections there are when iteration begins.
    public func makeIterator() -> SectionedResultsIterator<Key, SectionElement> {
        SectionedResultsIterator(index: index, keys: index.layout.keys)
    }

    /// Whether both are the same sectioned results (one `sectioned` call, or copies of it).
    public static func == (lhs: SectionedResults, rhs: SectionedResults) -> Bool {
        lhs.index === rhs.index
    }

    /// The realm the results read.
    public var realm: Realm? { index.results.realm }
    /// Whether the collection the results read was deleted, or the realm invalidated.
    public var isInvalidated: Bool { index.results.isInvalidated }
    /// Whether the sections are a frozen snapshot.
    public var isFrozen: Bool { index.results.isFrozen }

    /// A frozen snapshot of the sections, which any thread may read.
    ///
    /// ```swift
    /// let frozen = realm.objects(Dog.self).sectioned(by: \.age).freeze()
    /// ```
    public func freeze() -> SectionedResults { frozenValue(unmanaged: "Sectioned results have no realm.") }

    /// The live sections in the calling thread's realm at the latest version, or `nil` when
    /// the collection they read was deleted.
    public func thaw() -> SectionedResults? { thawedValue(unmanaged: "Sectioned results have no realm.") }

    /// Calls `block` with the sections, then after each version that changed them, with the
    /// index paths of elements that left, joined and changed and the sections that appeared
    /// and went.
    ///
    /// ```swift
    /// let token = realm.objects(Dog.self).sectioned(by: \.age).observe { change in
    ///     switch change {
    ///     case .initial(let sections): print(sections.allKeys)
    ///     case .update(_, let deletions, let insertions, let modifications, let sectionsToInsert, let sectionsToDelete):
    ///         print(deletions, insertions, modifications, sectionsToInsert, sectionsToDelete)
    ///     }
    /// }
    /// ```
    /// `keyPaths` limits the modifications reported to changes of those properties. An element
    /// that changes section or position is deleted and inserted; the elements of a section that
    /// went are not listed, the section is. A change to one element costs the results'
    /// observation and passes over integers: only the keys of inserted and changed elements are
    /// computed again. `queue`, threads and actors are as for ``Results/observe(keyPaths:on:_:)``.
    /// Traps for frozen sections and inside a write.
    public func observe(keyPaths: [String]?, on queue: DispatchQueue?,
                        _ block: @escaping (SectionedResultsChange<SectionedResults>) -> Void) -> NotificationToken {
        if let queue {
            return QueueObservation.observe(self, on: queue) { $0.observe(keyPaths: keyPaths, on: nil, block) }
        }
        return SectionsObservation.observe(index, keyPaths: keyPaths, sectionKey: nil) { observed, changes in
            let sections = SectionedResults(index: observed)
            block(changes.map { SectionedResultsChange(sections, $0) } ?? .initial(sections))
        }
    }
}

extension SectionedResults: RealmBound {
    var boundRealm: RealmCore? { index.realm }

    func moved(to core: RealmCore) -> SectionedResults? {
        index.moved(to: core).map(SectionedResults.init(index:))
    }
}

/// Walks the sections of ``SectionedResults``.
///
/// ```swift
/// for section in realm.objects(Dog.self).sectioned(by: \.age) { print(section.key) }
/// ```
public struct SectionedResultsIterator<Key: _Persistable & Hashable, Element: RealmCollectionValue>: IteratorProtocol {
    let index: SectionIndex<Key, Element>
    let keys: [Key]
    var position = 0

    /// The next section, or `nil` after the last.
    public mutating func next() -> ResultsSection<Key, Element>? {
        guard position < keys.count else { return nil }
        defer { position += 1 }
        return ResultsSection(index: index, key: keys[position])
    }
}
