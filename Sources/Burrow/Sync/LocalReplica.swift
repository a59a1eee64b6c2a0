import Foundation
import LMDB

/// The synced file as the sync thread sees it, through a realm of its own: forming upload
/// batches from the journal, acknowledging them, and applying the server's changes in writes
/// that the journal does not record.
final class LocalReplica {
    let realm: Realm
    private var core: RealmCore { realm.core }
    /// Links of downloaded changes whose targets had not arrived, by object and property.
    var deferredLinks: [String: DeferredLink] = [:]
    /// Whether ``deferredLinks`` holds those of the journal.
    var deferredLinksLoaded = false

    init(realm: Realm) {
        self.realm = realm
    }

    /// A batch being uploaded: its number, its operations, the pending records it carries, and
    /// the collection shadows to store once the server has it.
    struct Batch {
        let number: UInt64
        let operations: [SyncOperation]
        let sent: [(classID: UInt32, object: PendingObject)]
        var shadows: [ShadowUpdate] = []
        /// The size of the batch's text.
        var bytes = 0
        /// Whether it was formed now (not read back from the outbox) and took every object
        /// waiting, so that it holds every write made before it was formed.
        var isWhole = false
    }

    /// Runs `body` in a write whose changes are not journaled, with the journal.
    func journaledWrite<Result>(_ body: (SyncJournal, Transaction) throws -> Result) throws -> Result {
        realm.beginWrite()
        guard let write = core.writeState else { burrowPreconditionFailure("beginWrite left no write open") }
        write.appliesServerChanges = true
        do {
            guard let journal = try SyncJournal.open(in: write.transaction, create: true) else {
                burrowPreconditionFailure("the sync journal was not created")
            }
            let result = try body(journal, write.transaction)
            try realm.commitWrite()
            return result
        } catch {
            if realm.isInWriteTransaction { realm.cancelWrite() }
            throw error
        }
    }

    /// The realm's object schemas by class name, read once per write that needs them:
    /// building a schema costs more than applying a change.
    var schemasByName: [String: ObjectSchema] {
        Dictionary(realm.schema.objectSchema.map { ($0.className, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// Reads through a snapshot of the latest version.
    func read<Result>(_ body: (SyncJournal?, Transaction) throws -> Result) throws -> Result {
        realm.refresh()
        let txn = core.transaction
        return try body(try SyncJournal.open(in: txn, create: false), txn)
    }

    /// This file's client id, made the first time.
    func clientID() throws -> UUID {
        if let id = try read({ journal, txn in try journal?.clientID(in: txn) }) { return id }
        return try journaledWrite { journal, txn in try journal.ensureClientID(in: txn) }
    }

    /// Checks that the file syncs with the server `serverID`, recording it the first time.
    ///
    /// - Throws: ``SyncError/Code/schemaMismatch`` when the file synced with another server.
    func adopt(serverID: String) throws {
        let known = try read { journal, txn in try journal?.value(.server, in: txn) }
        if let known {
            guard String(decoding: known, as: UTF8.self) == serverID else {
                throw SyncError(.schemaMismatch, "this file synced with another server (id \(String(decoding: known, as: UTF8.self))), not this one (id \(serverID))")
            }
            return
        }
        try journaledWrite { journal, txn in try journal.set(.server, to: Array(serverID.utf8), in: txn) }
    }

    /// Records the sync thread's connection state, and the server it connects to, for
    /// ``Realm/syncStatus(ofFileAt:encryptionKey:)``.
    func record(connection: SyncSession.ConnectionState, server: String) throws {
        let state = "\(connection)@\(Date().timeIntervalSince1970)"
        try journaledWrite { journal, txn in
            try journal.set(.connection, to: Array(state.utf8), in: txn)
            try journal.set(.serverAddress, to: Array(server.utf8), in: txn)
        }
    }

    /// The sequence number pulled through.
    func pulledSequence() throws -> UInt64 {
        try read { journal, txn in try journal?.number(.pulled, in: txn) } ?? 0
    }

    /// Sets the sequence number pulled through to `sequence`, even below the one recorded:
    /// after a reset, the server's numbers start from its snapshot.
    func resetPulled(to sequence: UInt64) throws {
        try journaledWrite { journal, txn in try journal.setNumber(.pulled, to: sequence, in: txn) }
    }

    /// How many objects wait for upload (read in constant time).
    func pendingCount() throws -> Int {
        try read { journal, txn in try journal?.pendingCount(in: txn) } ?? 0
    }

    /// How many objects wait for upload, and when the oldest change was made.
    func pendingSummary() throws -> (count: Int, oldest: HybridTimestamp?) {
        try read { journal, txn in
            guard let journal else { return (0, nil) }
            var summary = try journal.pendingSummary(in: txn)
            if try journal.value(.outbox, in: txn) != nil { summary.count = max(summary.count, 1) }
            return summary
        }
    }

    // MARK: Uploading

    /// The batch being uploaded: the one in the outbox, or a new one of up to `limit` pending
    /// objects, stored in the outbox first so that a retry sends the same batch; `nil` when
    /// nothing waits.
    func nextBatch(limit: Int) throws -> Batch? {
        if let stored = try read({ journal, txn in try journal?.value(.outbox, in: txn) }) {
            var batch = try Self.decodeBatch(stored)
            batch.bytes = stored.count
            return batch
        }
        let waiting = try read { journal, txn in try journal?.pendingObjects(in: txn, limit: 1).isEmpty == false }
        guard waiting else { return nil }
        return try journaledWrite { journal, txn -> Batch? in
            let client = try journal.ensureClientID(in: txn)
            let pending = try journal.pendingObjects(in: txn, limit: limit)
            guard !pending.isEmpty else { return nil }
            let number = try journal.number(.nextBatch, in: txn) ?? 1
            var shadows: [ShadowUpdate] = []
            let schemas = self.schemasByName
            var clocks = ClockTexts(client: client)
            var plans: [UInt32: ClassUpload?] = [:]
            let uploads = try pending.flatMap { entry in
                let plan = plans[entry.classID] ?? self.classUpload(entry.classID, schemas: schemas)
                plans[entry.classID] = .some(plan)
                guard let plan else { return [SyncOperation]() }
                return try self.operations(for: entry.object, of: plan, clocks: &clocks, journal: journal, txn: txn, shadows: &shadows)
            }
            var batch = Batch(number: number, operations: uploads, sent: pending, shadows: shadows)
            let stored = Self.encode(batch)
            batch.bytes = stored.count
            batch.isWhole = pending.count < limit
            try journal.setNumber(.nextBatch, to: number + 1, in: txn)
            try journal.set(.outbox, to: stored, in: txn)
            return batch
        }
    }

    /// Forgets the batch the server acknowledged, and the changes it carried: changes made
    /// since stay pending.
    func acknowledge(_ batch: Batch) throws {
        try journaledWrite { journal, txn in
            for (classID, sent) in batch.sent {
                let current = try journal.pendingObject(classID: classID, primaryKey: sent.primaryKey, in: txn)
                try journal.setPendingObject(current?.subtracting(sent), classID: classID, primaryKey: sent.primaryKey, in: txn)
            }
            try store(batch.shadows, in: journal, txn: txn)
            try journal.set(.outbox, to: nil, in: txn)
        }
    }

    /// The clock texts of one client's changes, each written once: the properties of one
    /// write share its time.
    struct ClockTexts {
        let client: UUID
        private var texts: [HybridTimestamp: String] = [:]

        init(client: UUID) { self.client = client }

        mutating func text(_ time: HybridTimestamp) -> String {
            if let known = texts[time] { return known }
            let text = ChangeClock(timestamp: time, client: client).text
            texts[time] = text
            return text
        }
    }

    /// What uploading the objects of one class needs, worked out once a batch.
    struct ClassUpload {
        let classID: UInt32
        let className: String
        let schema: ObjectSchema
        let keyProperty: Property
        /// Stored property ids by name, and names by id.
        let ids: [String: UInt32]
        let names: [UInt32: String]
        /// The properties a creation uploads: all but linking objects.
        let uploaded: [Property]
    }

    /// The ``ClassUpload`` of the class `classID`, whose schema `schemas` holds (or the
    /// file's, for a class the models no longer declare); `nil` for a class without a primary
    /// key or no longer stored.
    private func classUpload(_ classID: UInt32, schemas: [String: ObjectSchema]) -> ClassUpload? {
        guard let layout = core.catalog.layouts.values.first(where: { $0.classID == classID }),
              case let schema = schemas[layout.className] ?? layout.storedClass.objectSchema,
              let keyProperty = schema.primaryKeyProperty else { return nil }
        let properties = layout.storedClass.properties
        return ClassUpload(classID: classID, className: layout.className, schema: schema, keyProperty: keyProperty,
                           ids: Dictionary(properties.map { ($0.name, $0.id) }, uniquingKeysWith: { a, _ in a }),
                           names: Dictionary(properties.map { ($0.id, $0.name) }, uniquingKeysWith: { a, _ in a }),
                           uploaded: schema.properties.filter { $0.type != .linkingObjects })
    }

    /// The operations that upload `pending`, a pending record of the class `plan` describes;
    /// adds to `shadows` what the file's collection shadows become once the server has them.
    private func operations(for pending: PendingObject, of plan: ClassUpload, clocks: inout ClockTexts,
                            journal: SyncJournal, txn: Transaction, shadows: inout [ShadowUpdate]) throws -> [SyncOperation] {
        guard let swiftKey = pending.primaryKey.anyValue ?? (pending.primaryKey.isNull ? NSNull() : nil) else { return [] }
        let classID = plan.classID, className = plan.className, schema = plan.schema, ids = plan.ids, names = plan.names
        let primaryKey = SyncValueCodec.encode(swiftKey, of: plan.keyProperty)
        func clock(_ time: HybridTimestamp) -> String { clocks.text(time) }
        var result: [SyncOperation] = []
        let object = realm.dynamicObject(ofType: className, forPrimaryKey: swiftKey)
        if let deleted = pending.deleted {
            result.append(SyncOperation(className: className, primaryKey: primaryKey, kind: .delete, clock: clock(deleted), fields: []))
            // An object here again (created anew, or a newer creation downloaded) keeps the
            // shadows of its collections.
            if object == nil { shadows.append(ShadowUpdate(classID: classID, primaryKey: pending.primaryKey, property: nil, elements: nil)) }
        }
        guard pending.existsLocally, let object else { return result }
        func field(_ property: Property, at time: HybridTimestamp) throws -> SyncOperation.Field {
            let value = SyncValueCodec.encode(object[property.name], of: property)
            guard let kind = CollectionKind(of: property), let id = ids[property.name] else {
                return SyncOperation.Field(value: value, clock: clock(time))
            }
            // A collection uploads its edits since the server last had it (from nothing after
            // a deletion: a new life starts empty).
            let base = pending.deleted != nil ? nil : try shadow(classID: classID, primaryKey: pending.primaryKey, property: id, journal: journal, txn: txn)
            let elements = base ?? KeyedElements(kind: kind, entries: [])
            let edits = elements.edits(to: value, clock: clock(time))
            shadows.append(ShadowUpdate(classID: classID, primaryKey: pending.primaryKey, property: id, elements: elements.applying(edits)))
            return SyncOperation.Field(value: .null, clock: clock(time), edits: edits)
        }
        if let created = pending.created {
            let fields = try plan.uploaded.map { property in
                let time = ids[property.name].flatMap { pending.properties[$0] }.map { max($0, created) } ?? created
                return (property.name, try field(property, at: time))
            }
            result.append(SyncOperation(className: className, primaryKey: primaryKey, kind: .create, clock: clock(created), fields: fields))
        } else if !pending.properties.isEmpty {
            let fields = try pending.properties.sorted { $0.key < $1.key }.compactMap { id, time -> (String, SyncOperation.Field)? in
                guard let name = names[id], let property = schema[name], !property.isPrimary else { return nil }
                return (name, try field(property, at: time))
            }
            if !fields.isEmpty {
                result.append(SyncOperation(className: className, primaryKey: primaryKey, kind: .update, clock: nil, fields: fields))
            }
        }
        return result
    }

    private static func encode(_ batch: Batch) -> [UInt8] {
        var json = JSONTextWriter(capacity: batch.operations.count * 320)
        json.beginObject()
        json.key("batch")
        json.value(.number(String(batch.number)))
        json.key("operations")
        json.beginArray()
        for operation in batch.operations { operation.write(to: &json) }
        json.endArray()
        json.key("sent")
        json.beginArray()
        for (classID, object) in batch.sent {
            json.beginObject()
            json.key("class")
            json.value(.number(String(classID)))
            json.key("record")
            json.string(Hex.text(object.encoded()))
            json.endObject()
        }
        json.endArray()
        json.key("shadows")
        json.beginArray()
        for shadow in batch.shadows { json.value(shadow.json) }
        json.endArray()
        json.endObject()
        return json.bytes
    }

    private static func decodeBatch(_ bytes: [UInt8]) throws -> Batch {
        let json = try JSONValue(parsing: String(decoding: bytes, as: UTF8.self))
        guard case .number(let numberText)? = json["batch"], let number = UInt64(numberText),
              let operations = json["operations"]?.arrayValue, let sent = json["sent"]?.arrayValue else {
            throw StorageError.damaged("the sync outbox does not read")
        }
        let records = try sent.map { entry throws -> (UInt32, PendingObject) in
            guard case .number(let classText)? = entry["class"], let classID = UInt32(classText),
                  let bytes = entry["record"]?.stringValue.flatMap(Hex.bytes) else { throw StorageError.damaged("the sync outbox does not read") }
            return (classID, try bytes.withUnsafeBytes { raw throws(StorageError) in try PendingObject(decoding: raw) })
        }
        let shadows = try (json["shadows"]?.arrayValue ?? []).map { try ShadowUpdate(json: $0) }
        return Batch(number: number, operations: try operations.map { try SyncOperation(json: $0) }, sent: records, shadows: shadows)
    }
}
