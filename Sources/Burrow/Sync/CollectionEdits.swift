/// What one change did to a synced collection, element by element: the elements it added or
/// set, by key, and the keys it removed. An upload carries these instead of the collection's
/// value, so that edits made on several machines at once all take effect (``CollectionState``).
struct CollectionEdits: Equatable {
    let kind: CollectionKind
    /// Elements added or set: a list's under new position keys, a set's under their canonical
    /// text, a map's under their keys.
    var put: [(key: String, value: JSONValue)] = []
    /// Keys of the elements removed.
    var remove: [String] = []

    init(kind: CollectionKind) {
        self.kind = kind
    }

    static func == (lhs: CollectionEdits, rhs: CollectionEdits) -> Bool {
        lhs.kind == rhs.kind && lhs.remove == rhs.remove && lhs.put.count == rhs.put.count
            && zip(lhs.put, rhs.put).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    }

    var isEmpty: Bool { put.isEmpty && remove.isEmpty }

    /// The edits as JSON: `{"kind": …, "put": [[key, value], …], "remove": [key, …]}`.
    var json: JSONValue {
        .object([("kind", .string(kind.rawValue)),
                 ("put", .array(put.map { .array([.string($0.key), $0.value]) })),
                 ("remove", .array(remove.map(JSONValue.string)))])
    }

    /// The edits `json` (``json``) describes.
    ///
    /// - Throws: ``SyncError/Code/malformedServerData`` when it does not describe edits, or a
    ///   list's keys are not position keys.
    init(json: JSONValue) throws(SyncError) {
        func malformed() -> SyncError { SyncError(.malformedServerData, "collection edits that do not read: \(json.text.prefix(120))") }
        guard let kind = json["kind"]?.stringValue.flatMap(CollectionKind.init(rawValue:)),
              let put = json["put"]?.arrayValue, let remove = json["remove"]?.arrayValue else { throw malformed() }
        self.kind = kind
        for entry in put {
            guard let pair = entry.arrayValue, pair.count == 2, let key = pair[0].stringValue else { throw malformed() }
            self.put.append((key, pair[1]))
        }
        self.remove = try remove.map { item throws(SyncError) in
            guard let key = item.stringValue else { throw malformed() }
            return key
        }
        if kind == .list, !(self.put.map(\.key) + self.remove).allSatisfy(PositionKey.isValid) { throw malformed() }
    }
}
