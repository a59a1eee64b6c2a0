@testable import Burrow

// The orders results sort by: the selection of a sorted page, and the ordered words a sort
// compares before the values.
extension Internals {
    /// Rearranges `elements` so that `page` holds, in order, what a full sort by `precedes`
    /// (a total order) puts there.
    static func selectPage<Element>(_ page: Range<Int>, of elements: inout [Element], by precedes: (Element, Element) -> Bool) {
        PageSelection.select(page, of: &elements, by: precedes)
    }

    /// The order of two sort values compared whole (`-1` when `a` comes first, ascending): a
    /// null first, an empty link on the way to the key path (`nil`) last.
    static func sortOrder(_ a: _PersistedValue?, _ b: _PersistedValue?) -> Int {
        QueryExecutor.sortOrder(a, b, ascending: true)
    }

    /// The order a sort's entries give the two values from their ordered words, or `nil` where
    /// they leave it to the values.
    static func sortEntryOrder(_ a: _PersistedValue?, _ b: _PersistedValue?) -> Int? {
        SortEntry.order(SortEntry(a, index: 0), SortEntry(b, index: 1))
    }
}
