import Foundation

#if !canImport(UIKit) && !canImport(AppKit)
extension IndexPath {
    /// An index path of a row in a section, as UIKit and AppKit give it on Apple platforms:
    /// what ``SectionedResults`` and ``SectionedResultsChange`` use.
    ///
    /// ```swift
    /// let dog = sectioned[IndexPath(item: 0, section: 2)]
    /// ```
    public init(item: Int, section: Int) {
        self.init(indexes: [section, item])
    }

    /// The section of a two-element index path (its first element).
    ///
    /// Traps for an index path of another length.
    public var section: Int {
        burrowPrecondition(count == 2, "Invalid index path for use with sections: \(self); it must hold exactly two indexes.")
        return self[0]
    }

    /// The row within its section of a two-element index path (its second element).
    ///
    /// Traps for an index path of another length.
    public var item: Int {
        burrowPrecondition(count == 2, "Invalid index path for use with sections: \(self); it must hold exactly two indexes.")
        return self[1]
    }
}
#endif
