/// What the server knows of one synced collection, element by element: for each key ever
/// used, its value (or that it was removed) and the clock of the change that last set it.
/// Edits merge element by element, the later clock winning for each; so concurrent inserts
/// into a list are all kept (each has a key of its own), sets merge element by element and
/// maps key by key. Removed elements are remembered, so that an older edit that arrives late
/// does not bring one back.
struct CollectionState: Equatable {
    struct Entry: Equatable {
        /// The element's key.
        var key: String
        /// The element's value; `nil` once removed.
        var value: JSONValue?
        var clock: String
    }

    let kind: CollectionKind
    /// The entries by their key compared byte for byte (``KeyedElements/exact(_:)``).
    private(set) var entries: [String: Entry]

    /// A state holding `elements`, as set before any clock (a value written without edits).
    init(adopting elements: KeyedElements) {
        kind = elements.kind
        entries = Dictionary(elements.entries.map { (KeyedElements.exact($0.key), Entry(key: $0.key, value: $0.value, clock: "")) },
                             uniquingKeysWith: { a, _ in a })
    }

    /// Applies `edits`, made at `clock`, to the elements whose last change is older.
    mutating func apply(_ edits: CollectionEdits, clock: String) {
        for key in edits.remove where entries[KeyedElements.exact(key)].map({ clock > $0.clock }) ?? true {
            entries[KeyedElements.exact(key)] = Entry(key: key, value: nil, clock: clock)
        }
        for (key, value) in edits.put where entries[KeyedElements.exact(key)].map({ clock > $0.clock }) ?? true {
            entries[KeyedElements.exact(key)] = Entry(key: key, value: value, clock: clock)
        }
    }

    /// The elements not removed, in key order.
    var visible: KeyedElements {
        KeyedElements(kind: kind, entries: entries.values.compactMap { entry in entry.value.map { (entry.key, $0) } })
    }

    // MARK: Storage

    /// The state as JSON, for `burrow.objects`: `{"kind": …, "e": [[key, clock, value], [key, clock], …]}`,
    /// a removed element without a value.
    var json: JSONValue {
        let sorted = entries.sorted { $0.key < $1.key }
        return .object([("kind", .string(kind.rawValue)), ("e", .array(sorted.map { _, entry in
            .array([.string(entry.key), .string(entry.clock)] + (entry.value.map { [$0] } ?? []))
        }))])
    }

    /// The state `json` (``json``) holds.
    ///
    /// - Throws: ``SyncError/Code/malformedServerData`` when it does not read.
    init(json: JSONValue) throws(SyncError) {
        func malformed() -> SyncError { SyncError(.malformedServerData, "burrow.objects holds a collection state that does not read") }
        guard let kind = json["kind"]?.stringValue.flatMap(CollectionKind.init(rawValue:)), let items = json["e"]?.arrayValue else {
            throw malformed()
        }
        self.kind = kind
        entries = [:]
        for item in items {
            guard let parts = item.arrayValue, parts.count == 2 || parts.count == 3,
                  let key = parts[0].stringValue, let clock = parts[1].stringValue else { throw malformed() }
            entries[KeyedElements.exact(key)] = Entry(key: key, value: parts.count == 3 ? parts[2] : nil, clock: clock)
        }
    }
}
