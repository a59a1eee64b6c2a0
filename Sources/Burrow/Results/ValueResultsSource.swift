/// A managed collection of values that ``ValueResultsCore`` reads: a list or set property, or
/// the values of a map property.
protocol ValueResultsSource: AnyObject {
    var realm: RealmCore { get }
    /// Whether the collection's owner is gone.
    var isInvalidated: Bool { get }
    /// The kind of the elements.
    var kind: _StorageKind { get }
    /// Where the collection lives, for messages: `Class.property`.
    var propertyPath: String { get }
    /// The stored values of the elements, in the collection's order, in the current generation.
    var storedValues: [_PersistedValue] { get }
    /// The element at `index` of ``storedValues``, as an `E`.
    func element<E: RealmCollectionValue>(at index: Int, as type: E.Type) -> E
    /// The same collection read through `core`, or `nil` where its owner does not exist.
    func source(in core: RealmCore) -> (any ValueResultsSource)?
}

extension ValueResultsSource where Self: ManagedCollection {
    func source(in core: RealmCore) -> (any ValueResultsSource)? { moved(to: core) }
}

extension ManagedCollection {
    var propertyPath: String { "\(layout.className).\(layout.storedClass.properties[column].name)" }
}

extension ManagedList: ValueResultsSource {
    var storedValues: [_PersistedValue] { positions.indices.map { value(at: $0) } }
}

extension ManagedSet: ValueResultsSource {
    var storedValues: [_PersistedValue] { values }

    func element<E: RealmCollectionValue>(at index: Int, as type: E.Type) -> E {
        element(from: values[index], as: type, slot: nil)
    }
}

extension ManagedMap: ValueResultsSource {
    var storedValues: [_PersistedValue] { entries.map(\.value) }

    func element<E: RealmCollectionValue>(at index: Int, as type: E.Type) -> E {
        let entries = self.entries
        return element(from: entries[index].value, as: type, slot: MapEntrySlot(map: self, key: entries[index].key))
    }
}
