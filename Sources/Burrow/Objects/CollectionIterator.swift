/// How a list or a set is walked (`for element in list`): position by position, reading each
/// element as it is reached; inside a write transaction, over the elements it held when the
/// walk began, as RealmSwift's fast enumeration walks a copy there, so that a loop that deletes
/// or moves what it walks still meets every element once.
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
