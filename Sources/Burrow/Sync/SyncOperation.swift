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

    /// A property's new value and when it was set.
    struct Field: Equatable {
        let value: JSONValue
        let clock: String
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

    /// The fields as one JSON object: `{"name": {"v": value, "c": clock}}`.
    var fieldsJSON: JSONValue {
        .object(fields.map { ($0.0, .object([("v", $0.1.value), ("c", .string($0.1.clock))])) })
    }

    /// The operation as JSON, for the outbox.
    var json: JSONValue {
        .object([("class", .string(className)), ("pk", primaryKey), ("kind", .string(kind.rawValue)),
                 ("clock", clock.map(JSONValue.string) ?? .null), ("fields", fieldsJSON)])
    }

    init(className: String, primaryKey: JSONValue, kind: Kind, clock: String?, fields: [(String, Field)]) {
        self.className = className
        self.primaryKey = primaryKey
        self.kind = kind
        self.clock = clock
        self.fields = fields
    }

    /// The operation `json` describes (``json``, or a row of `burrow.changes` made into one).
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
            fields.append((name, Field(value: value, clock: fieldClock)))
        }
        self.init(className: className, primaryKey: primaryKey, kind: kind, clock: clock, fields: fields)
    }
}

/// What the server knows of one object's history, to settle conflicts: the latest creation and
/// deletion, and when each property was last set. An object exists while it was created
/// after it was last deleted; clock texts compare as the clocks do.
struct ObjectHistory: Equatable {
    var created: String?
    var deleted: String?
    var clocks: [String: String] = [:]

    var exists: Bool {
        guard let created else { return false }
        guard let deleted else { return true }
        return created > deleted
    }

    /// Applies `operation` to the history and to `row` (the object's current values, by
    /// property, when it exists), and returns what took effect, or `nil` when nothing did:
    ///
    /// - the last writer of a property wins, by clock;
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
            return operation
        case .create:
            guard let clock = operation.clock else { return nil }
            if created == nil || clock > created! { created = clock }
            guard exists else { return nil }
            if !existed {
                row = Dictionary(operation.fields.map { ($0.0, $0.1.value) }, uniquingKeysWith: { _, last in last })
                clocks = Dictionary(operation.fields.map { ($0.0, $0.1.clock) }, uniquingKeysWith: { _, last in last })
                return operation
            }
            return mergeFields(operation, into: &row)
        case .update:
            guard existed else { return nil }
            return mergeFields(operation, into: &row)
        }
    }

    private mutating func mergeFields(_ operation: SyncOperation, into row: inout [String: JSONValue]?) -> SyncOperation? {
        var won: [(String, SyncOperation.Field)] = []
        for (name, field) in operation.fields where clocks[name] == nil || field.clock > clocks[name]! {
            clocks[name] = field.clock
            row?[name] = field.value
            won.append((name, field))
        }
        guard !won.isEmpty else { return nil }
        return SyncOperation(className: operation.className, primaryKey: operation.primaryKey, kind: .update, clock: nil, fields: won)
    }
}
