import Foundation
import LMDB

extension LocalReplica {
    /// Applies `changes` (pulled from the server, in sequence order) in one write that the
    /// journal does not record, and records the last sequence number in the same write; a
    /// change already applied (sequence at or below the pulled one) is skipped. Local changes
    /// not yet acknowledged win over older ones from the server, as they will on the server.
    ///
    /// Returns the errors of the changes that did not decode (a value that does not fit its
    /// property): those are skipped, the others applied.
    ///
    /// - Throws: storage errors.
    @discardableResult
    func apply(_ changes: [(sequence: UInt64, operation: SyncOperation)], through last: UInt64) throws -> [SyncError] {
        try apply(changes, through: last, skippingPulled: true)
    }

    /// Applies `rows`, the current rows of a server table as creations, in one write that the
    /// journal does not record; returns the errors of those that did not decode.
    ///
    /// - Throws: storage errors.
    @discardableResult
    func apply(rows: [SyncOperation]) throws -> [SyncError] {
        try apply(rows.map { (0, $0) }, through: 0, skippingPulled: false)
    }

    private func apply(_ changes: [(sequence: UInt64, operation: SyncOperation)], through last: UInt64,
                       skippingPulled: Bool) throws -> [SyncError] {
        do {
            return try applyInWrite(changes, through: last, skippingPulled: skippingPulled)
        } catch {
            // The waiting links changed with a write that did not commit: read them again.
            forgetDeferredLinks()
            throw error
        }
    }

    private func applyInWrite(_ changes: [(sequence: UInt64, operation: SyncOperation)], through last: UInt64,
                              skippingPulled: Bool) throws -> [SyncError] {
        try journaledWrite { journal, txn in
            var rejected: [SyncError] = []
            let pulled = try journal.number(.pulled, in: txn) ?? 0
            let client = try journal.ensureClientID(in: txn)
            let schemas = schemasByName
            try loadDeferredLinks(journal: journal, txn: txn)
            var propertyIDs: [UInt32: [String: UInt32]] = [:]
            // The latest clock the changes carry, witnessed once for them all.
            var latest: HybridTimestamp?
            for (sequence, operation) in changes where !skippingPulled || sequence > pulled {
                do {
                    try applyOne(operation, schemas: schemas, journal: journal, client: client, txn: txn, propertyIDs: &propertyIDs,
                                 latest: &latest)
                } catch let error as SyncError where error.code == .malformedServerData {
                    // A change that does not decode is checked before it touches anything:
                    // it is skipped and reported, and the changes after it still apply.
                    let what = skippingPulled ? "change \(sequence)" : "a row of '\(operation.className)'"
                    rejected.append(SyncError(.malformedServerData, "\(what) was not applied: \(error.message)"))
                }
            }
            if let latest { try journal.witness(latest, in: txn) }
            try resolveDeferredLinks(settling: false, schemas: schemas, journal: journal, txn: txn)
            try journal.setNumber(.pulled, to: max(pulled, last), in: txn)
            return rejected
        }
    }

    /// Applies one change. `propertyIDs` keeps each class's property ids by name for the
    /// changes after it; `latest` becomes the change's clock when that is later.
    private func applyOne(_ operation: SyncOperation, schemas: [String: ObjectSchema], journal: SyncJournal, client: UUID,
                          txn: Transaction, propertyIDs: inout [UInt32: [String: UInt32]], latest: inout HybridTimestamp?) throws {
        guard let schema = schemas[operation.className], let keyProperty = schema.primaryKeyProperty,
              let (layout, key, storedKey) = try address(of: operation.className, primaryKey: operation.primaryKey, schemas: schemas) else { return }
        var pending = try journal.pendingObject(classID: layout.classID, primaryKey: storedKey, in: txn)
        func local(_ time: HybridTimestamp?) -> String? { time.map { ChangeClock(timestamp: $0, client: client).text } }
        // Clock texts compare as the clocks do: the latest is the one to witness.
        let newest = operation.fields.lazy.map(\.1.clock).reduce(operation.clock ?? "") { max($0, $1) }
        if let seen = ChangeClock(text: newest)?.timestamp, latest.map({ seen > $0 }) ?? true { latest = seen }
        let existing = realm.dynamicObject(ofType: operation.className, forPrimaryKey: key)
        switch operation.kind {
        case .delete:
            if let created = local(pending?.created), let clock = operation.clock, created > clock { return }
            if let existing {
                try deferLinks(to: existing, journal: journal, txn: txn)
                realm.delete(existing)
            }
            try journal.removeShadows(classID: layout.classID, primaryKey: storedKey, in: txn)
            if var remaining = pending {
                remaining.properties = [:]
                remaining.created = nil
                pending = remaining.deleted == nil ? nil : remaining
                try journal.setPendingObject(pending, classID: layout.classID, primaryKey: storedKey, in: txn)
            }
        case .create, .update:
            if operation.kind == .create, let deleted = local(pending?.deleted), let clock = operation.clock, deleted > clock,
               !(pending?.existsLocally ?? false) { return }
            let ids = propertyIDs[layout.classID] ?? Dictionary(layout.storedClass.properties.map { ($0.name, $0.id) },
                                                                uniquingKeysWith: { a, _ in a })
            if propertyIDs[layout.classID] == nil { propertyIDs[layout.classID] = ids }
            var values: [String: Any] = [:]
            values.reserveCapacity(operation.fields.count + 1)
            var shadows: [ShadowUpdate] = []
            var deferredToStore: [String] = []
            for (name, field) in operation.fields {
                guard let property = schema[name], property.type != .linkingObjects, !property.isPrimary else { continue }
                let kind = CollectionKind(of: property)
                var elements: KeyedElements?
                if let kind, let id = ids[name] {
                    // A collection edited here keeps its edits: their upload merges them with
                    // this on the server, which then sends what they became.
                    if pending?.created != nil || pending?.properties[id] != nil { continue }
                    do {
                        elements = try KeyedElements(kind: kind, value: field.value, keys: field.keys)
                    } catch {
                        throw SyncError(.malformedServerData, "a change of '\(operation.className)' does not fit its schema: \(error)")
                    }
                } else {
                    let newer = [local(pending?.created), ids[name].flatMap { local(pending?.properties[$0]) }].compactMap { $0 }.max()
                    if let newer, newer > field.clock { continue }
                }
                // The collection's shadow follows the value once it is set: a value whose links
                // wait for their targets sets it then.
                let shadow = elements.flatMap { elements in
                    ids[name].map { ShadowUpdate(classID: layout.classID, primaryKey: storedKey, property: $0, elements: elements) }
                }
                lazy var deferredName = DeferredLink.name(className: operation.className, primaryKey: operation.primaryKey, property: name)
                // Most often no link waits: its name is not made.
                let waits = !deferredLinks.isEmpty && deferredLinks[deferredName] != nil
                // A value the object holds already (most often this file's own upload coming
                // back) needs no decoding and no write.
                if let existing, Self.holds(existing, field.value, property: property) {
                    if waits { try setDeferredLink(nil, name: deferredName, journal: journal, txn: txn) }
                    if let shadow { shadows.append(shadow) }
                    continue
                }
                let decoded: (value: Any, complete: Bool)
                do {
                    decoded = try decode(field.value, of: property, schemas: schemas)
                } catch {
                    throw SyncError(.malformedServerData, "a change of '\(operation.className)' does not fit its schema: \(error)")
                }
                guard decoded.complete else {
                    // Set once its targets arrive; at the end of the pull as far as they resolve.
                    deferredLinks[deferredName] = DeferredLink(className: operation.className, primaryKey: operation.primaryKey,
                                                               property: name, value: field.value, keys: field.keys, fromServer: true,
                                                               settled: false)
                    deferredToStore.append(deferredName)
                    continue
                }
                if waits { try setDeferredLink(nil, name: deferredName, journal: journal, txn: txn) }
                if let shadow { shadows.append(shadow) }
                values[name] = decoded.value
            }
            if let existing {
                // Only values it does not hold yet are here.
                for (name, value) in values { existing[name] = value is NSNull ? nil : value }
            } else if operation.kind == .create {
                values[keyProperty.name] = key
                _ = realm.dynamicCreate(operation.className, value: values, update: .modified)
            } else {
                return
            }
            try store(shadows, in: journal, txn: txn)
            // Stored once the object exists: a link's record is keyed by its owner.
            for name in deferredToStore { try setDeferredLink(deferredLinks[name], name: name, journal: journal, txn: txn) }
        }
    }

    /// Whether `object`'s `property` already holds `wire`, a value in wire form, so that
    /// setting it would only make a change notification.
    static func holds(_ object: DynamicObject, _ wire: JSONValue, property: Property) -> Bool {
        let held = SyncValueCodec.encode(object[property.name], of: property)
        // The same text is the same value: only values spelled apart (numbers and members as
        // the server's `jsonb` respells and reorders them) are compared in canonical form.
        return held == wire || held.canonical == wire.canonical
    }
}
