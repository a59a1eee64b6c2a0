import Foundation

/// What ``SectionedResults`` and ``ResultsSection`` share, as in RealmSwift: a live, lazily
/// evaluated collection that can be frozen, handed to another thread and observed.
///
/// ```swift
/// func titles<S: RealmSectionedResult>(_ sections: S) -> Int { sections.count }
/// ```
public protocol RealmSectionedResult: RandomAccessCollection, Equatable, ThreadConfined where Index == Int {
    /// The realm the sections read.
    var realm: Realm? { get }
    /// Whether the sections can no longer be read: the collection they come from was deleted,
    /// the realm was invalidated, or (for one section) no element has its key any more.
    var isInvalidated: Bool { get }
    /// The number of sections, or of elements in a section.
    var count: Int { get }
    /// Whether the value is a frozen snapshot.
    var isFrozen: Bool { get }
    /// A frozen snapshot: it never changes, and any thread may read it.
    func freeze() -> Self
    /// The live value in the calling thread's realm at the latest version (itself when live),
    /// or `nil` when the collection it comes from no longer exists.
    func thaw() -> Self?
    /// Calls `block` with the initial state, then after each version that changed the
    /// sections (see ``SectionedResults/observe(keyPaths:on:_:)``).
    func observe(keyPaths: [String]?, on queue: DispatchQueue?,
                 _ block: @escaping (SectionedResultsChange<Self>) -> Void) -> NotificationToken
}

extension RealmSectionedResult {
    /// Calls `block` with the initial state, then after each version that changed the
    /// sections, with the index paths of rows that left, joined and changed and the sections
    /// that appeared and went.
    ///
    /// ```swift
    /// let token = realm.objects(Dog.self).sectioned(by: \.age).observe(keyPaths: ["name"]) { change in
    ///     if case .update(_, let deletions, let insertions, _, let sectionsToInsert, let sectionsToDelete) = change {
    ///         print(deletions, insertions, sectionsToInsert, sectionsToDelete)
    ///     }
    /// }
    /// ```
    /// `keyPaths` limits the modifications reported to those properties; rows that change
    /// section or position, and sections that appear or go, are always reported. With `queue`,
    /// the block runs on that serial queue. Traps for frozen sections and inside a write.
    public func observe(keyPaths: [String]? = nil, on queue: DispatchQueue? = nil,
                        _ block: @escaping (SectionedResultsChange<Self>) -> Void) -> NotificationToken {
        observe(keyPaths: keyPaths, on: queue, block)
    }

    /// The notifications of ``observe(keyPaths:on:_:)`` as an asynchronous sequence.
    ///
    /// ```swift
    /// for await change in realm.objects(Dog.self).sectioned(by: \.age).changes {
    ///     if case .initial(let sections) = change { print(sections.allKeys) }
    /// }
    /// ```
    /// Values are live on the actor of an actor-isolated realm, frozen otherwise; the sequence
    /// ends when its task is cancelled.
    public var changes: AsyncStream<SectionedResultsChange<Self>> {
        guard let realm = realm?.core else { burrowPreconditionFailure("Only sectioned results of a realm can be observed.") }
        return ChangeStream.make(of: realm, observeHere: { observe(keyPaths: nil, on: nil, $0) },
                                 observeOn: { observe(keyPaths: nil, on: $0, $1) }, frozen: { $0.frozen() })
    }
}

extension RealmSectionedResult where Element: ObjectBase {
    /// ``observe(keyPaths:on:_:)`` with typed key paths (`[\.name]`) of the section's objects.
    public func observe(keyPaths: [PartialKeyPath<Element>], on queue: DispatchQueue? = nil,
                        _ block: @escaping (SectionedResultsChange<Self>) -> Void) -> NotificationToken {
        observe(keyPaths: keyPaths.map(_name(for:)), on: queue, block)
    }
}

extension RealmSectionedResult where Element: RealmSectionedResult, Element.Element: ObjectBase {
    /// ``observe(keyPaths:on:_:)`` with typed key paths (`[\.name]`) of the sections' objects.
    public func observe(keyPaths: [PartialKeyPath<Element.Element>], on queue: DispatchQueue? = nil,
                        _ block: @escaping (SectionedResultsChange<Self>) -> Void) -> NotificationToken {
        observe(keyPaths: keyPaths.map(_name(for:)), on: queue, block)
    }
}
