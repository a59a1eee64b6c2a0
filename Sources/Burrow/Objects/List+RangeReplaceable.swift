import Foundation

/// A list is a mutable, range-replaceable collection, as RealmSwift's: the standard library's
/// algorithms that change a collection work on it (inside a write when managed).
///
/// ```swift
/// try realm.write {
///     person.dogs.replaceSubrange(0..<2, with: [rex])
///     person.dogs.removeLast(2)
///     person.nicknames.sort()
/// }
/// ```
extension List: MutableCollection, RangeReplaceableCollection {
    /// The elements in `bounds`; setting them replaces them with any number of elements, as
    /// RealmSwift's `list[1..<4] = other[0..<2]` does.
    public subscript(bounds: Range<Int>) -> Slice<List<Element>> {
        get { Slice(base: self, bounds: bounds) }
        set { replaceSubrange(bounds, with: Array(newValue)) }  // a slice of this very list reads it as it changes
    }

    /// Replaces the elements in `subrange` with `newElements`.
    public func replaceSubrange<C: Collection>(_ subrange: Range<Int>, with newElements: C) where C.Element == Element {
        burrowPrecondition(subrange.lowerBound >= 0 && subrange.upperBound <= count,
                           "Range \(subrange) is out of bounds (must be within 0..<\(count)).")
        for _ in subrange { remove(at: subrange.lowerBound) }
        for (offset, element) in newElements.enumerated() { insert(element, at: subrange.lowerBound + offset) }
    }

    /// Inserts `newElements` before the element at `index` (at the end when `index == count`).
    public func insert<C: Collection>(contentsOf newElements: C, at index: Int) where C.Element == Element {
        replaceSubrange(index..<index, with: newElements)
    }

    /// Removes the first `number` elements; traps when there are fewer.
    public func removeFirst(_ number: Int) {
        burrowPrecondition(number >= 0 && number <= count, "Cannot remove \(number) elements from a list of \(count).")
        removeSubrange(0..<number)
    }

    /// Removes the last `number` elements; traps when there are fewer.
    public func removeLast(_ number: Int) {
        burrowPrecondition(number >= 0 && number <= count, "Cannot remove \(number) elements from a list of \(count).")
        removeSubrange((count - number)..<count)
    }

    /// Removes the elements in `bounds`.
    public func removeSubrange(_ bounds: Range<Int>) {
        replaceSubrange(bounds, with: EmptyCollection())
    }

    /// Removes the elements at `offsets`.
    public func remove(atOffsets offsets: IndexSet) {
        for index in offsets.reversed() { remove(at: index) }
    }

    /// Moves the elements at `offsets` so that they sit, in order, before the element that was
    /// at `destination` (as SwiftUI's `onMove` gives them).
    public func move(fromOffsets offsets: IndexSet, toOffset destination: Int) {
        let moving = offsets.map { self[$0] }
        let before = offsets.count { $0 < destination }
        remove(atOffsets: offsets)
        insert(contentsOf: moving, at: destination - before)
    }
}
