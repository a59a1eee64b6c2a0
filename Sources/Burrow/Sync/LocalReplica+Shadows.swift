import LMDB

extension LocalReplica {
    /// What a synced collection's shadow (the collection as the server last had it) becomes:
    /// its new elements, or (`property == nil`) every shadow of a deleted object gone.
    struct ShadowUpdate {
        let classID: UInt32
        let primaryKey: _PersistedValue
        /// The collection's stored property id; `nil` for all of the object's.
        let property: UInt32?
        let elements: KeyedElements?

        /// The update as JSON, for the outbox.
        var json: JSONValue {
            .object([("class", .number(String(classID))), ("pk", .string(Hex.text(SyncPrimaryKey.encoded(primaryKey)))),
                     ("property", property.map { .number(String($0)) } ?? .null), ("elements", elements?.json ?? .null)])
        }

        init(classID: UInt32, primaryKey: _PersistedValue, property: UInt32?, elements: KeyedElements?) {
            self.classID = classID
            self.primaryKey = primaryKey
            self.property = property
            self.elements = elements
        }

        /// The update `json` (``json``) describes.
        ///
        /// - Throws: ``StorageError/damaged(_:)`` when it does not read.
        init(json: JSONValue) throws {
            guard case .number(let classText)? = json["class"], let classID = UInt32(classText),
                  let keyBytes = json["pk"]?.stringValue.flatMap(Hex.bytes) else {
                throw StorageError.damaged("a collection shadow of the sync outbox does not read")
            }
            self.classID = classID
            primaryKey = try keyBytes.withUnsafeBytes { raw throws(StorageError) in
                var reader = Varint.Reader(raw, subject: "a sync primary key")
                return try SyncPrimaryKey.read(from: &reader)
            }
            if case .number(let text)? = json["property"] { property = UInt32(text) } else { property = nil }
            elements = try json["elements"].flatMap { $0.isNull ? nil : try KeyedElements(json: $0) }
        }
    }

    /// The shadow of the collection `property` of an object, when the file has one.
    ///
    /// - Throws: storage errors; ``StorageError/damaged(_:)`` for a shadow that does not read.
    func shadow(classID: UInt32, primaryKey: _PersistedValue, property: UInt32, journal: SyncJournal,
                txn: Transaction) throws -> KeyedElements? {
        guard let bytes = try journal.shadow(classID: classID, primaryKey: primaryKey, property: property, in: txn) else { return nil }
        do {
            return try KeyedElements(json: JSONValue(parsing: String(decoding: bytes, as: UTF8.self)))
        } catch {
            throw StorageError.damaged("a synced collection's shadow does not read: \(error)")
        }
    }

    /// Stores `updates` in the journal, in order.
    func store(_ updates: [ShadowUpdate], in journal: SyncJournal, txn: Transaction) throws {
        for update in updates {
            if let property = update.property {
                try journal.setShadow(update.elements.map { Array($0.json.text.utf8) }, classID: update.classID,
                                      primaryKey: update.primaryKey, property: property, in: txn)
            } else {
                try journal.removeShadows(classID: update.classID, primaryKey: update.primaryKey, in: txn)
            }
        }
    }
}
