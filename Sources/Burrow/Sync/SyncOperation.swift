/// One change to one object as it travels: uploaded by a client in a batch, and, once it took
/// effect on the server, stored in `burrow.changes` and pulled by every client.
struct SyncOperation: Equatable {
    enum Kind: String {
        /// The object was created: `fields` holds every property.
        case create
        /// Some properties were set.
        case update
        /// The object was deleted.
        case delete
    }

    /// A property's new value and when it was set. A collection's upload carries its edits
    /// (the value is then not read); a list's value from the server carries the position key
    /// of each element.
    struct Field: Equatable {
        let value: JSONValue
        let clock: String
        var edits: CollectionEdits?
        var keys: [String]?

        init(value: JSONValue, clock: String, edits: CollectionEdits? = nil, keys: [String]? = nil) {
            self.value = value
            self.clock = clock
            self.edits = edits
            self.keys = keys
        }

        /// Writes the field as JSON: `{"v": value, "c": clock}`, with `"e": edits` and
        /// `"k": keys` when there are any.
        func write(to writer: inout JSONTextWriter) {
            writer.beginObject()
            writer.key("v")
            writer.value(value)
            writer.key("c")
            writer.string(clock)
            if let edits {
                writer.key("e")
                writer.value(edits.json)
            }
            if let keys {
                writer.key("k")
                writer.beginArray()
                for key in keys { writer.string(key) }
                writer.endArray()
            }
            writer.endObject()
        }
    }

    let className: String
    /// The object's primary key, in wire form.
    let primaryKey: JSONValue
    let kind: Kind
    /// When the object was created or deleted; `nil` for an update.
    let clock: String?
    /// Properties by name.
    var fields: [(String, Field)]

    static func == (lhs: SyncOperation, rhs: SyncOperation) -> Bool {
        lhs.className == rhs.className && lhs.primaryKey == rhs.primaryKey && lhs.kind == rhs.kind && lhs.clock == rhs.clock
            && lhs.fields.count == rhs.fields.count && zip(lhs.fields, rhs.fields).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
    }

    /// Writes the fields as one JSON object: `{"name": {"v": value, "c": clock}}`
    /// (``Field/write(to:)``).
    func writeFields(to writer: inout JSONTextWriter) {
        writer.beginObject()
        for (name, field) in fields {
            writer.key(name)
            field.write(to: &writer)
        }
        writer.endObject()
    }

    /// Writes the operation as JSON, `{"class", "pk", "kind", "clock", "fields"}`: the outbox's
    /// operations and the change log's rows are written so, without building their trees, and
    /// read back by ``init(json:)``.
    func write(to writer: inout JSONTextWriter) {
        writer.beginObject()
        writer.key("class")
        writer.string(className)
        writer.key("pk")
        writer.value(primaryKey)
        writer.key("kind")
        writer.string(kind.rawValue)
        writer.key("clock")
        writer.string(clock)
        writer.key("fields")
        writeFields(to: &writer)
        writer.endObject()
    }

    init(className: String, primaryKey: JSONValue, kind: Kind, clock: String?, fields: [(String, Field)]) {
        self.className = className
        self.primaryKey = primaryKey
        self.kind = kind
        self.clock = clock
        self.fields = fields
    }

    /// The operation `json` describes (what ``write(to:)`` writes, or a row of `burrow.changes` made into one).
    ///
    /// - Throws: ``SyncError/Code/malformedServerData`` for anything that is not one.
    init(json: JSONValue) throws(SyncError) {
        guard let className = json["class"]?.stringValue, let primaryKey = json["pk"],
              let kindName = json["kind"]?.stringValue, let kind = Kind(rawValue: kindName) else {
            throw SyncError(.malformedServerData, "a change without a class, a primary key or a known kind: \(json.text.prefix(200))")
        }
        let clock = json["clock"]?.stringValue
        guard kind == .update || clock.flatMap(ChangeClock.init(text:)) != nil else {
            throw SyncError(.malformedServerData, "a \(kind.rawValue) of '\(className)' without a valid clock")
        }
        var fields: [(String, Field)] = []
        for (name, field) in json["fields"]?.objectValue ?? [] {
            guard let value = field["v"], let fieldClock = field["c"]?.stringValue, ChangeClock(text: fieldClock) != nil else {
                throw SyncError(.malformedServerData, "the field '\(name)' of a change of '\(className)' has no value or no valid clock")
            }
            var parsed = Field(value: value, clock: fieldClock)
            if let edits = field["e"] { parsed.edits = try CollectionEdits(json: edits) }
            if let keys = field["k"] {
                guard let texts = keys.arrayValue?.compactMap(\.stringValue), texts.count == keys.arrayValue?.count else {
                    throw SyncError(.malformedServerData, "the field '\(name)' of a change of '\(className)' has position keys that are not strings")
                }
                parsed.keys = texts
            }
            fields.append((name, parsed))
        }
        self.init(className: className, primaryKey: primaryKey, kind: kind, clock: clock, fields: fields)
    }
}

/// What the server knows of one object's history, to settle conflicts: the latest creation and
/// deletion, when each property was last set, and each collection element by element. An
/// object exists while it was created after it was last deleted; clock texts compare as the
/// clocks do.
struct ObjectHistory: Equatable {
    var created: String?
    var deleted: String?
    var clocks: [String: String] = [:]
    var collections: [String: CollectionState] = [:]

    var exists: Bool {
        guard let created else { return false }
        guard let deleted else { return true }
        return created > deleted
    }

    /// Applies `operation` to the history and to `row` (the object's current values, by
    /// property, when it exists), and returns what took effect, or `nil` when nothing did:
    ///
    /// - the last writer of a property wins, by clock;
    /// - a collection's edits merge element by element (``CollectionState``), and what took
    ///   effect holds the whole collection after them;
    /// - a deletion wins over updates, whatever their clocks: an update of an object that does
    ///   not exist is dropped;
    /// - a creation after the last deletion brings the object back with the created values;
    ///   a creation of an object that exists (the same primary key created on two machines)
    ///   merges property by property.
    mutating func apply(_ operation: SyncOperation, to row: inout [String: JSONValue]?) -> SyncOperation? {
        let existed = exists
        switch operation.kind {
        case .delete:
            guard let clock = operation.clock else { return nil }
            if deleted == nil || clock > deleted! { deleted = clock }
            guard existed, !exists else { return nil }
            row = nil
            // Nothing of this life matters to the next (a creation starts afresh, and edits
            // made before the deletion are dropped): a deleted object's history keeps no values.
            clocks = [:]
            collections = [:]
            return operation
        case .create:
            guard let clock = operation.clock else { return nil }
            if created == nil || clock > created! { created = clock }
            guard exists else { return nil }
            if !existed {
                // A new life: nothing of an earlier one is kept.
                row = [:]
                clocks = [:]
                collections = [:]
                let fields = operation.fields.map { name, field in (name, set(name, to: field, in: &row)) }
                return SyncOperation(className: operation.className, primaryKey: operation.primaryKey, kind: .create,
                                     clock: operation.clock, fields: fields)
            }
            return mergeFields(operation, into: &row)
        case .update:
            guard existed else { return nil }
            return mergeFields(operation, into: &row)
        }
    }

    private mutating func mergeFields(_ operation: SyncOperation, into row: inout [String: JSONValue]?) -> SyncOperation? {
        var won: [(String, SyncOperation.Field)] = []
        for (name, field) in operation.fields {
            // Edits made before the object's last deletion belong to an earlier life of it:
            // the deletion won over them.
            if field.edits != nil, let deleted, field.clock < deleted { continue }
            // A collection's edits always tell what the collection became, so that the machine
            // that made them learns what they merged with.
            guard field.edits != nil || clocks[name] == nil || field.clock > clocks[name]! else { continue }
            won.append((name, set(name, to: field, in: &row)))
        }
        guard !won.isEmpty else { return nil }
        return SyncOperation(className: operation.className, primaryKey: operation.primaryKey, kind: .update, clock: nil, fields: won)
    }

    /// Sets the property `name` of `row` as `field` says: to its value, or for a collection to
    /// the collection after its edits; returns the field as it took effect.
    private mutating func set(_ name: String, to field: SyncOperation.Field, in row: inout [String: JSONValue]?) -> SyncOperation.Field {
        if clocks[name].map({ field.clock > $0 }) ?? true { clocks[name] = field.clock }
        guard let edits = field.edits else {
            // A value without edits replaces the collection, if it is one, whole.
            collections[name] = nil
            row?[name] = field.value
            return field
        }
        var state = collections[name] ?? CollectionState(adopting: (try? KeyedElements(
            kind: edits.kind, value: row?[name] ?? .null, keys: nil)) ?? KeyedElements(kind: edits.kind, entries: []))
        state.apply(edits, clock: field.clock)
        collections[name] = state
        let elements = state.visible
        row?[name] = elements.value
        return SyncOperation.Field(value: elements.value, clock: clocks[name] ?? field.clock, keys: edits.kind == .list ? elements.keys : nil)
    }
}
