import Foundation

/// What changed in ``SectionedResults`` or in one ``ResultsSection`` since the previous
/// notification, as RealmSwift reports it.
///
/// ```swift
/// let token = sectioned.observe { change in
///     switch change {
///     case .initial(let sections):
///         print(sections.allKeys)
///     case .update(_, let deletions, let insertions, let modifications, let sectionsToInsert, let sectionsToDelete):
///         print(deletions, insertions, modifications, sectionsToInsert, sectionsToDelete)
///     }
/// }
/// ```
/// Index paths follow batch-update conventions: `deletions` and `modifications` are where the
/// rows were in the previous version, `insertions` where they are now, each list ascending.
/// A row that changed section, or its position in its section, is deleted and inserted. The rows
/// of a deleted section are not listed: `sectionsToDelete` names the section.
@frozen
public enum SectionedResultsChange<Collection> {
    /// The sectioned results as they were when the observation began.
    case initial(Collection)
    /// A write changed which rows the sections hold, or modified rows in them.
    case update(Collection, deletions: [IndexPath], insertions: [IndexPath], modifications: [IndexPath],
                sectionsToInsert: IndexSet, sectionsToDelete: IndexSet)
}

/// RealmSwift's former name of ``SectionedResultsChange``.
@available(*, deprecated, renamed: "SectionedResultsChange")
public typealias RealmSectionedResultsChange = SectionedResultsChange

extension SectionedResultsChange {
    /// The notification of `changes` to `collection`.
    init(_ collection: Collection, _ changes: SectionChanges) {
        self = .update(collection, deletions: changes.deletions, insertions: changes.insertions, modifications: changes.modifications,
                       sectionsToInsert: changes.sectionsToInsert, sectionsToDelete: changes.sectionsToDelete)
    }

    /// The same notification with its collection frozen.
    func frozen() -> SectionedResultsChange where Collection: ThreadConfined {
        switch self {
        case .initial(let collection): .initial(collection.freeze())
        case .update(let collection, let deletions, let insertions, let modifications, let sectionsToInsert, let sectionsToDelete):
            .update(collection.freeze(), deletions: deletions, insertions: insertions, modifications: modifications,
                    sectionsToInsert: sectionsToInsert, sectionsToDelete: sectionsToDelete)
        }
    }
}
