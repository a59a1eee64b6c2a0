import Foundation
import LMDB

extension LocalReplica {
    /// What the file downloaded: each class with the SQL condition that picked its objects
    /// (`nil`: every object); `nil` when the file never recorded it.
    func heldViews() throws -> [String: String?]? {
        let bytes = try read { journal, txn in try journal?.value(.held, in: txn) }
        guard let bytes else { return nil }
        let json = try? JSONValue(parsing: String(decoding: bytes, as: UTF8.self))
        // Files that synced whole classes only stored their names.
        if let names = json?.arrayValue {
            return Dictionary(names.compactMap { $0.stringValue.map { ($0, String?.none) } }, uniquingKeysWith: { a, _ in a })
        }
        guard let members = json?.objectValue else { throw StorageError.damaged("the sync record of the objects held does not read") }
        return Dictionary(members.map { ($0.0, $0.1.stringValue) }, uniquingKeysWith: { a, _ in a })
    }

    /// Records `views` as what the file downloaded, with the subscriptions they come from.
    func setHeldViews(_ views: [String: String?], subscriptions: [SubscriptionEntry], version: UInt64) throws {
        let held = JSONValue.object(views.sorted { $0.key < $1.key }.map { ($0.key, $0.value.map(JSONValue.string) ?? .null) })
        let stored = JSONValue.object([("version", .number(String(version))), ("subscriptions", .array(subscriptions.map(\.json)))])
        try journaledWrite { journal, txn in
            try journal.set(.held, to: Array(held.text.utf8), in: txn)
            try journal.set(.subscriptions, to: Array(stored.text.utf8), in: txn)
        }
    }

    /// The subscription set the file stored, with its version; `nil` when it stored none.
    ///
    /// - Throws: ``StorageError/damaged(_:)`` when it does not read.
    func storedSubscriptions() throws -> (entries: [SubscriptionEntry], version: UInt64)? {
        try read { journal, txn in try journal.flatMap { try Self.subscriptions(in: $0, txn: txn) } }
    }

    /// The subscription set `journal` stored, with its version; `nil` when it stored none.
    ///
    /// - Throws: ``StorageError/damaged(_:)`` when it does not read.
    static func subscriptions(in journal: SyncJournal, txn: Transaction) throws -> (entries: [SubscriptionEntry], version: UInt64)? {
        guard let bytes = try journal.value(.subscriptions, in: txn) else { return nil }
        guard let json = try? JSONValue(parsing: String(decoding: bytes, as: UTF8.self)),
              case .number(let versionText)? = json["version"], let version = UInt64(versionText),
              let items = json["subscriptions"]?.arrayValue else {
            throw StorageError.damaged("the stored sync subscriptions do not read")
        }
        return (try items.map(SubscriptionEntry.init(json:)), version)
    }

    /// Records `sequence` as the last one the server trimmed, for the file's status.
    func record(trimmed sequence: UInt64) throws {
        try journaledWrite { journal, txn in try journal.setNumber(.trimmed, to: sequence, in: txn) }
    }

    /// Removes the objects of `classes` from the file, in a write that is not uploaded, but
    /// for those with changes still to upload: no longer subscribed to, they are not the
    /// file's to keep.
    func removeObjects(of classes: Set<String>) throws {
        try removeObjects(in: classes) { _, _ in true }
    }

    /// Removes the objects of `className` whose primary key (wire form, as ASCII text) is not in
    /// `kept`, but for those with changes still to upload: they left the subscriptions.
    func removeObjects(of className: String, keeping kept: Set<String>) throws {
        try removeObjects(in: [className]) { _, key in !kept.contains(key.asciiText) }
    }

    /// The primary keys (wire form) of the objects of `className` the file holds.
    func primaryKeys(of className: String) throws -> [JSONValue] {
        try read { _, _ in
            guard let keyProperty = schemasByName[className]?.primaryKeyProperty else { return [] }
            return realm.dynamicObjects(className).map { SyncValueCodec.encode($0[keyProperty.name], of: keyProperty) }
        }
    }

    /// Removes the objects named by `keys` (class and primary key in wire form) that the file
    /// holds, but for those with changes still to upload: they left the subscriptions.
    func removeObjects(_ keys: [(className: String, primaryKey: JSONValue)]) throws {
        guard !keys.isEmpty else { return }
        let named = Set(keys.map { $0.className + "\u{0}" + $0.primaryKey.asciiText })
        let classes = Set(keys.map(\.className))
        try removeObjects(in: classes) { className, key in named.contains(className + "\u{0}" + key.asciiText) }
    }

    /// Removes each object for which `isRemoved` holds, in a write that is not uploaded, but for
    /// those with changes still to upload. Links to them wait for them to come back.
    private func removeObjects(in classes: Set<String>, where isRemoved: (_ className: String, _ primaryKey: JSONValue) -> Bool) throws {
        do {
            try removeObjectsInWrite(in: classes, where: isRemoved)
        } catch {
            // The waiting links changed with a write that did not commit: read them again.
            forgetDeferredLinks()
            throw error
        }
    }

    private func removeObjectsInWrite(in classes: Set<String>, where isRemoved: (_ className: String, _ primaryKey: JSONValue) -> Bool) throws {
        try journaledWrite { journal, txn in
            try loadDeferredLinks(journal: journal, txn: txn)
            for schema in realm.schema.objectSchema.sorted(by: { $0.className < $1.className })
            where !schema.isEmbedded && classes.contains(schema.className) {
                guard let keyProperty = schema.primaryKeyProperty, let layout = realm.core.catalog.layouts[schema.className] else { continue }
                var removed: [DynamicObject] = []
                for object in realm.dynamicObjects(schema.className) {
                    let wire = SyncValueCodec.encode(object[keyProperty.name], of: keyProperty)
                    guard isRemoved(schema.className, wire) else { continue }
                    let storedKey = try StoredValueConversion.scalar(object[keyProperty.name] ?? NSNull(),
                                                                 for: layout.storedClass.properties[layout.primaryKeyColumn!], of: schema.className)
                    guard try journal.pendingObject(classID: layout.classID, primaryKey: storedKey, in: txn) == nil else { continue }
                    try journal.removeShadows(classID: layout.classID, primaryKey: storedKey, in: txn)
                    removed.append(object)
                }
                for object in removed {
                    try deferLinks(to: object, journal: journal, txn: txn)
                    realm.delete(object)
                }
            }
        }
    }
}
