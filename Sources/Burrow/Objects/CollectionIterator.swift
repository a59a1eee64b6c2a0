/// How a list or a set is walked (`for element in list`): position by position, reading each
/// element as it is reached; inside a write transaction, and for an unmanaged collection, over
/// the elements it held when the walk began, as RealmSwift's fast enumeration walks a copy
/// there, so that a loop that deletes, moves or appends what it walks meets every element once.
///
/// ```swift
/// try realm.write {
///     for dog in person.dogs { realm.delete(dog) }   // every dog, though the list shrinks
/// }
/// ```
public struct CollectionIterator<Base: RandomAccessCollection>: IteratorProtocol where Base.Index == Int {
    private let base: Base
    /// The elements when the walk began, inside a write transaction.
    private let snapshot: [Base.Element]?
    private var position = 0

    init(_ base: Base, snapshotting: Bool) {
        self.base = base
        snapshot = snapshotting ? (0..<base.count).map { base[$0] } : nil
    }

    /// A walk of an unmanaged collection's `elements` as they are when it begins: code that
    /// appends while walking (`for x in list { list.append(x) }`) ends, as in RealmSwift.
    init(_ base: Base, elements: [Base.Element]) {
        self.base = base
        snapshot = elements
    }

    /// The next element, or `nil` after the last.
    public mutating func next() -> Base.Element? {
        if let snapshot {
            guard position < snapshot.count else { return nil }
            defer { position += 1 }
            return snapshot[position]
        }
        guard position < base.endIndex else { return nil }
        defer { position += 1 }
        return base[position]
    }
}
