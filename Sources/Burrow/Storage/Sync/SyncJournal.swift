import Foundation
import LMDB

/// The local half of sync, kept in the data file itself so that it commits with the data:
/// the client's identity and clock, how far it has pulled from the server, the batch being
/// uploaded, and for every object changed since its last upload what changed and when
/// (``PendingObject``). A write records its changes here in its own transaction, so a process
/// killed at any moment loses no change and uploads none twice.
///
/// Four named databases: `sync.state` (records by name), `sync.pending` (a record per
/// changed object, by class id and primary key), `sync.shadow` (each synced collection as
/// the server last had it, by object and property) and `sync.links` (downloaded values of
/// link properties whose targets are not here, by object and property). All are sealed in an encrypted file, and
/// object keys are then keyed hashes, as primary-key index entries are.
struct SyncJournal {
    static let stateName = "sync.state"
    static let pendingName = "sync.pending"
    static let shadowName = "sync.shadow"
    static let linksName = "sync.links"

    let state: Database
    let pending: Database
    /// `nil` in a read of a file whose journal has none yet.
    let shadow: Database?
    /// `nil` in a read of a file whose journal has none yet.
    let links: Database?

    /// The journal of the file `txn` reads, or `nil` when the file is not synced (a read) or
    /// `create` is false and the file has no journal yet.
    ///
    /// - Throws: `LMDBError` from opening the databases.
    static func open(in txn: Transaction, create: Bool) throws -> SyncJournal? {
        do {
            let state = try txn.openDatabase(named: stateName, create: create, sealed: true)
            let pending = try txn.openDatabase(named: pendingName, create: create, sealed: true)
            func optional(_ name: String) throws -> Database? {
                do { return try txn.openDatabase(named: name, create: create, sealed: true) } catch LMDBError.notFound { return nil }
            }
            return SyncJournal(state: state, pending: pending, shadow: try optional(shadowName), links: try optional(linksName))
        } catch LMDBError.notFound {
            return nil
        }
    }

    // MARK: State records

    enum StateKey: String {
        /// This file's client id: 16 bytes.
        case client
        /// The latest clock reading handed out or seen: 8 bytes.
        case clock
        /// The server's id, from its `burrow.meta`: the server this file syncs with.
        case server
        /// The server sequence number pulled through: 8 bytes.
        case pulled
        /// The number of the next upload batch: 8 bytes.
        case nextBatch
        /// The batch being uploaded, until the server acknowledges it.
        case outbox
        /// The server's connection string without its password, as last connected to.
        case serverAddress
        /// The sync thread's last connection state and when it was reached: `state@seconds`.
        case connection
        /// What the file downloaded: a JSON object of class names, each with the SQL condition
        /// that picked its objects (`null` for all of them). Once a JSON array of class names.
        case held
        /// The subscription set: `{"version": n, "subscriptions": [...]}`.
        case subscriptions
        /// The last sequence number the server trimmed from its change log, as last seen: 8 bytes.
        case trimmed
    }

    func value(_ key: StateKey, in txn: Transaction) throws -> [UInt8]? {
        try txn.value(for: Array(key.rawValue.utf8), in: state)
    }

    func set(_ key: StateKey, to value: [UInt8]?, in txn: Transaction) throws {
        if let value {
            try txn.put(Array(key.rawValue.utf8), value, in: state)
        } else {
            _ = try txn.delete(Array(key.rawValue.utf8), in: state)
        }
    }

    func number(_ key: StateKey, in txn: Transaction) throws -> UInt64? {
        guard let bytes = try value(key, in: txn) else { return nil }
        guard bytes.count == 8 else { throw StorageError.damaged("the sync record '\(key.rawValue)' is \(bytes.count) bytes long instead of 8") }
        return bytes.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
    }

    func setNumber(_ key: StateKey, to value: UInt64, in txn: Transaction) throws {
        try set(key, to: FileHeader.encodeUInt64(value), in: txn)
    }

    /// This file's client id, made when the file first syncs.
    func clientID(in txn: Transaction) throws -> UUID? {
        guard let bytes = try value(.client, in: txn) else { return nil }
        guard bytes.count == 16 else { throw StorageError.damaged("the sync client id is \(bytes.count) bytes long instead of 16") }
        return bytes.withUnsafeBytes { UUID(uuid: $0.loadUnaligned(as: uuid_t.self)) }
    }

    /// Gives the file a client id, unless it has one; returns it.
    func ensureClientID(in txn: Transaction) throws -> UUID {
        if let existing = try clientID(in: txn) { return existing }
        let id = UUID()
        try set(.client, to: withUnsafeBytes(of: id.uuid) { Array($0) }, in: txn)
        return id
    }

    /// A clock reading later than every one handed out or seen before, stored as the latest.
    func tick(in txn: Transaction, count: UInt64 = 1) throws -> HybridTimestamp {
        let last = HybridTimestamp(rawValue: try number(.clock, in: txn) ?? 0)
        let next = last.next()
        try setNumber(.clock, to: next.rawValue &+ (count - 1), in: txn)
        return next
    }

    /// Moves the clock past `seen`, a reading from another machine.
    func witness(_ seen: HybridTimestamp, in txn: Transaction) throws {
        let last = try number(.clock, in: txn) ?? 0
        if seen.rawValue > last { try setNumber(.clock, to: seen.rawValue, in: txn) }
    }

    // MARK: Pending objects

    /// The key of the pending record of the object `primaryKey` of class `classID`.
    static func pendingKey(classID: UInt32, primaryKey: _PersistedValue, cipher: FileCipher?) -> [UInt8] {
        var key: [UInt8] = []
        TableWriter.appendBigEndian(UInt64(classID), width: 4, to: &key)
        let plain = SyncPrimaryKey.encoded(primaryKey)
        if let cipher { cipher.appendHash(of: plain, to: &key) } else { key.append(contentsOf: plain) }
        return key
    }

    func pendingObject(classID: UInt32, primaryKey: _PersistedValue, in txn: Transaction) throws -> PendingObject? {
        let key = Self.pendingKey(classID: classID, primaryKey: primaryKey, cipher: FileCipher.of(txn))
        guard let bytes = try txn.value(for: key, in: pending) else { return nil }
        return try bytes.withUnsafeBytes { raw throws(StorageError) in try PendingObject(decoding: raw) }
    }

    func setPendingObject(_ object: PendingObject?, classID: UInt32, primaryKey: _PersistedValue, in txn: Transaction) throws {
        let key = Self.pendingKey(classID: classID, primaryKey: primaryKey, cipher: FileCipher.of(txn))
        if let object {
            try txn.put(key, object.encoded(), in: pending)
        } else {
            _ = try txn.delete(key, in: pending)
        }
    }

    /// Every pending record, by class id, up to `limit` of them.
    func pendingObjects(in txn: Transaction, limit: Int = .max) throws -> [(classID: UInt32, object: PendingObject)] {
        var found: [(UInt32, PendingObject)] = []
        let cursor = try txn.openCursor(pending)
        var entry = try cursor.first()
        while let (key, value) = entry, found.count < limit {
            guard key.count > 4 else { throw StorageError.damaged("a pending sync record has a \(key.count)-byte key") }
            let classID = UInt32(bigEndianBytes: key[0..<4])
            found.append((classID, try PendingObject(decoding: value)))
            entry = try cursor.next()
        }
        return found
    }

    /// How many objects have changes waiting for upload, read from the database's header.
    func pendingCount(in txn: Transaction) throws -> Int {
        try txn.count(in: pending)
    }

    /// How many objects have changes waiting for upload, and when the oldest was made.
    func pendingSummary(in txn: Transaction) throws -> (count: Int, oldest: HybridTimestamp?) {
        let all = try pendingObjects(in: txn)
        return (all.count, all.map(\.object.since).min())
    }

    // MARK: Collection shadows

    /// The key of a record about one property of one object: a shadow, a waiting link.
    static func propertyKey(classID: UInt32, primaryKey: _PersistedValue, property: UInt32, cipher: FileCipher?) -> [UInt8] {
        var key = pendingKey(classID: classID, primaryKey: primaryKey, cipher: cipher)
        TableWriter.appendBigEndian(UInt64(property), width: 4, to: &key)
        return key
    }

    /// The stored shadow of the collection `property` of an object: the bytes the sync layer
    /// stored with ``setShadow(_:classID:primaryKey:property:in:)``.
    func shadow(classID: UInt32, primaryKey: _PersistedValue, property: UInt32, in txn: Transaction) throws -> [UInt8]? {
        guard let shadow else { return nil }
        return try txn.value(for: Self.propertyKey(classID: classID, primaryKey: primaryKey, property: property, cipher: FileCipher.of(txn)), in: shadow)
    }

    /// Stores (or with `nil` removes) the shadow of the collection `property` of an object.
    func setShadow(_ bytes: [UInt8]?, classID: UInt32, primaryKey: _PersistedValue, property: UInt32, in txn: Transaction) throws {
        guard let shadow else {
            guard bytes == nil else { burrowPreconditionFailure("a collection shadow stored in a read") }
            return
        }
        let key = Self.propertyKey(classID: classID, primaryKey: primaryKey, property: property, cipher: FileCipher.of(txn))
        if let bytes {
            try txn.put(key, bytes, in: shadow)
        } else {
            _ = try txn.delete(key, in: shadow)
        }
    }

    /// Removes the shadows of every collection of an object: it was deleted.
    func removeShadows(classID: UInt32, primaryKey: _PersistedValue, in txn: Transaction) throws {
        guard let shadow else { return }
        let prefix = Self.pendingKey(classID: classID, primaryKey: primaryKey, cipher: FileCipher.of(txn))
        let cursor = try txn.openCursor(shadow)
        var entry = try cursor.seek(atLeast: prefix)
        while let (key, _) = entry, key.count == prefix.count + 4, key.starts(with: prefix) {
            try cursor.deleteCurrent()
            entry = try cursor.seek(atLeast: prefix)
        }
    }

    // MARK: Links waiting for their targets

    /// Every stored link value waiting for its target (what the sync layer stored).
    func waitingLinks(in txn: Transaction) throws -> [[UInt8]] {
        guard let links else { return [] }
        var found: [[UInt8]] = []
        let cursor = try txn.openCursor(links)
        var entry = try cursor.first()
        while let (_, value) = entry {
            found.append(Array(value))
            entry = try cursor.next()
        }
        return found
    }

    /// Stores (or with `nil` removes) the link value waiting for the property `property` of
    /// an object.
    func setWaitingLink(_ value: [UInt8]?, classID: UInt32, primaryKey: _PersistedValue, property: UInt32, in txn: Transaction) throws {
        guard let links else { return }
        let key = Self.propertyKey(classID: classID, primaryKey: primaryKey, property: property, cipher: FileCipher.of(txn))
        if let value {
            try txn.put(key, value, in: links)
        } else {
            _ = try txn.delete(key, in: links)
        }
    }
}
