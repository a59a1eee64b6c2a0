extension Map {
    /// A map's entries as `(key:, value:)` pairs rather than ``SingleMapEntry`` values, as
    /// RealmSwift's `asKeyValueSequence()` gives them.
    public struct KeyValueSequence: Sequence {
        private let map: Map<Key, Value>

        fileprivate init(_ map: Map<Key, Value>) {
            self.map = map
        }

        /// The pairs, in key order, as the map held them when the walk began.
        public func makeIterator() -> IndexingIterator<[(key: Key, value: Value)]> {
            zip(map.keys, map.values).map { (key: $0, value: $1) }.makeIterator()
        }
    }

    /// The entries as `(key:, value:)` pairs, in key order.
    ///
    /// ```swift
    /// for (subject, score) in person.scores.asKeyValueSequence() { print(subject, score) }
    /// ```
    public func asKeyValueSequence() -> KeyValueSequence {
        KeyValueSequence(self)
    }
}
