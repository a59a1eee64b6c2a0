/// How a synced collection merges: a list keeps every element inserted anywhere, in position
/// order; a set merges element by element; a map merges key by key.
enum CollectionKind: String, Sendable {
    case list, set, map

    /// The kind of `property`, or `nil` when it is not a collection.
    init?(of property: Property) {
        if property.isArray { self = .list } else if property.isSet { self = .set } else if property.isMap { self = .map } else { return nil }
    }
}

/// A synced collection's elements, each under the key that names it on every machine, in key
/// order: a list's by ``PositionKey``, a set's by the element's canonical text, a map's by
/// its keys. What a client last knew of the server's collection, so that its own edits can
/// be told from others' (``edits(to:clock:)``).
struct KeyedElements: Equatable {
    let kind: CollectionKind
    /// The elements, sorted by key.
    private(set) var entries: [(key: String, value: JSONValue)]

    static func == (lhs: KeyedElements, rhs: KeyedElements) -> Bool {
        lhs.kind == rhs.kind && lhs.entries.count == rhs.entries.count
            && zip(lhs.entries, rhs.entries).allSatisfy { $0.key.utf8.elementsEqual($1.key.utf8) && $0.value == $1.value }
    }

    init(kind: CollectionKind, entries: [(key: String, value: JSONValue)]) {
        self.kind = kind
        // By the keys' bytes: Swift's order takes two spellings of one string for one.
        self.entries = entries.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
    }

    /// The elements of `value`, a collection in wire form, with a list's `keys` (`nil`: the
    /// keys every machine gives a list it has no keys for, ``PositionKey/sequence(count:)``).
    ///
    /// - Throws: ``SyncError/Code/malformedServerData`` when `value` is not a collection of
    ///   `kind`, or `keys` are not one valid key per element, in order.
    init(kind: CollectionKind, value: JSONValue, keys: [String]?) throws(SyncError) {
        func malformed(_ reason: String) -> SyncError { SyncError(.malformedServerData, "a synced \(kind.rawValue) \(reason)") }
        switch (kind, value) {
        case (_, .null):
            self.init(kind: kind, entries: [])
        case (.map, .object(let members)):
            self.init(kind: kind, entries: members.map { ($0.0, $0.1) })
        case (.set, .array(let items)):
            self.init(kind: kind, entries: items.map { ($0.canonicalText, $0) })
        case (.list, .array(let items)):
            let keys = keys ?? PositionKey.sequence(count: items.count)
            guard keys.count == items.count else { throw malformed("has \(keys.count) position keys for \(items.count) elements") }
            guard keys.allSatisfy(PositionKey.isValid), zip(keys, keys.dropFirst()).allSatisfy({ $0 < $1 }) else {
                throw malformed("has position keys that are not valid or not in order")
            }
            self.init(kind: kind, entries: Array(zip(keys, items)).map { ($0, $1) })
        default:
            throw malformed("is not an \(kind == .map ? "object" : "array"): \(value.text.prefix(80))")
        }
    }

    /// The collection in wire form: an array for a list or a set, an object for a map.
    var value: JSONValue {
        kind == .map ? .object(entries.map { ($0.key, $0.value) }) : .array(entries.map(\.value))
    }

    var keys: [String] { entries.map(\.key) }

    // MARK: Edits

    /// The edits that make these elements into `local`, the collection's value here in wire
    /// form: elements removed, and elements added (a list's with new position keys made with
    /// `clock`) or, in a map, set to another value.
    func edits(to local: JSONValue, clock: String) -> CollectionEdits {
        var edits = CollectionEdits(kind: kind)
        switch kind {
        case .map:
            let old = Dictionary(entries.map { (Self.exact($0.key), $0.value.canonicalText) }, uniquingKeysWith: { a, _ in a })
            let new = local.objectValue ?? []
            let newKeys = Set(new.map { Self.exact($0.0) })
            for (key, value) in new where old[Self.exact(key)] != value.canonicalText { edits.put.append((key, value)) }
            edits.remove = entries.map(\.key).filter { !newKeys.contains(Self.exact($0)) }
        case .set:
            let old = Set(entries.map(\.key))
            let new = (local.arrayValue ?? []).map { ($0.canonicalText, $0) }
            let newKeys = Set(new.map(\.0))
            var added = Set<String>()
            for (key, value) in new where !old.contains(key) && added.insert(key).inserted { edits.put.append((key, value)) }
            edits.remove = entries.map(\.key).filter { !newKeys.contains($0) }
        case .list:
            listEdits(to: local.arrayValue ?? [], clock: clock, into: &edits)
        }
        return edits
    }

    private func listEdits(to local: [JSONValue], clock: String, into edits: inout CollectionEdits) {
        let old = entries.map(\.value.canonicalText)
        let new = local.map(\.canonicalText)
        let difference = new.difference(from: old)
        var removed = Set<Int>()
        var inserted = Set<Int>()
        for change in difference {
            switch change {
            case .remove(let offset, _, _): removed.insert(offset)
            case .insert(let offset, _, _): inserted.insert(offset)
            }
        }
        edits.remove = removed.sorted().map { entries[$0].key }
        // The elements kept, in order: an inserted element's key goes between the key before
        // it (kept or new) and the next kept one.
        let kept = entries.indices.filter { !removed.contains($0) }.map { entries[$0].key }
        var nextKept = 0
        var previous: String?
        for (offset, value) in local.enumerated() {
            if inserted.contains(offset) {
                let key = PositionKey.between(previous, nextKept < kept.count ? kept[nextKept] : nil, clock: clock)
                edits.put.append((key, value))
                previous = key
            } else {
                previous = kept[nextKept]
                nextKept += 1
            }
        }
        // Keys made again and again at one place grow: past a length, the whole list is
        // removed and put back under new short keys.
        if edits.put.contains(where: { $0.key.utf8.count > PositionKey.longest }) {
            edits.remove = entries.map(\.key)
            edits.put = Array(zip(PositionKey.sequence(count: local.count, clock: clock), local)).map { ($0, $1) }
        }
    }

    /// The elements after `edits`, as the server makes them when nothing else changed them.
    func applying(_ edits: CollectionEdits) -> KeyedElements {
        var byKey = Dictionary(entries.map { (Self.exact($0.key), ($0.key, $0.value)) }, uniquingKeysWith: { a, _ in a })
        for key in edits.remove { byKey[Self.exact(key)] = nil }
        for (key, value) in edits.put { byKey[Self.exact(key)] = (key, value) }
        return KeyedElements(kind: kind, entries: byKey.values.map { ($0.0, $0.1) })
    }

    /// `key` in a form that Swift compares byte for byte (ASCII, escaped as in JSON): a map's
    /// keys are the user's strings, two spellings of one of which Swift takes for one string.
    static func exact(_ key: String) -> String {
        JSONValue.string(key).asciiText
    }

    // MARK: Storage

    /// The elements as JSON, for the file's journal: `{"kind": …, "k": [keys], "v": [values]}`.
    var json: JSONValue {
        .object([("kind", .string(kind.rawValue)), ("k", .array(keys.map(JSONValue.string))), ("v", .array(entries.map(\.value)))])
    }

    /// The elements `json` (``json``) holds.
    ///
    /// - Throws: ``SyncError/Code/malformedServerData`` when it does not read.
    init(json: JSONValue) throws(SyncError) {
        guard let kind = json["kind"]?.stringValue.flatMap(CollectionKind.init(rawValue:)),
              let keys = json["k"]?.arrayValue?.compactMap(\.stringValue), let values = json["v"]?.arrayValue,
              keys.count == values.count else {
            throw SyncError(.malformedServerData, "a synced collection's stored elements do not read")
        }
        self.init(kind: kind, entries: Array(zip(keys, values)).map { ($0, $1) })
    }
}
