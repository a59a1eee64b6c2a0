import Foundation

/// What local writes did to one object since it was last uploaded: whether it was created or
/// deleted, and when; which properties changed, each with the time of its latest change.
/// Values are not kept: an upload reads them from the file, so a property written a thousand
/// times uploads once.
struct PendingObject: Equatable {
    /// The object's primary key, which names it on every machine.
    var primaryKey: _PersistedValue
    /// When it was last created here (inserted, not updated).
    var created: HybridTimestamp?
    /// When it was last deleted here.
    var deleted: HybridTimestamp?
    /// When each changed property (by stored property id) was last changed here.
    var properties: [UInt32: HybridTimestamp] = [:]
    /// When the oldest change still waiting for upload was made.
    var since: HybridTimestamp

    init(primaryKey: _PersistedValue, since: HybridTimestamp) {
        self.primaryKey = primaryKey
        self.since = since
    }

    /// Whether the object exists here after the recorded changes: it was not deleted since it
    /// was last created.
    var existsLocally: Bool {
        guard let deleted else { return true }
        return (created ?? .zero) > deleted
    }

    /// What is left of `self` once `uploaded` (an earlier copy of it) was acknowledged: the
    /// changes made after it, or `nil` when there are none.
    func subtracting(_ uploaded: PendingObject) -> PendingObject? {
        var rest = self
        if rest.created == uploaded.created { rest.created = nil }
        if rest.deleted == uploaded.deleted { rest.deleted = nil }
        for (property, time) in uploaded.properties where rest.properties[property] == time {
            rest.properties[property] = nil
        }
        if rest.created == nil && rest.deleted == nil && rest.properties.isEmpty { return nil }
        return rest
    }

    // MARK: Encoding

    private static let subject = "a pending sync record"

    /// The record's bytes: version 1, the primary key, flags, the times, then the properties.
    func encoded() -> [UInt8] {
        var bytes: [UInt8] = [1]
        SyncPrimaryKey.append(primaryKey, to: &bytes)
        bytes.append((created == nil ? 0 : 1) | (deleted == nil ? 0 : 2))
        for time in [created, deleted, since].compactMap({ $0 }) { Varint.append(time.rawValue, to: &bytes) }
        Varint.append(UInt64(properties.count), to: &bytes)
        for (property, time) in properties.sorted(by: { $0.key < $1.key }) {
            Varint.append(UInt64(property), to: &bytes)
            Varint.append(time.rawValue, to: &bytes)
        }
        return bytes
    }

    /// The record `bytes` hold.
    ///
    /// - Throws: ``StorageError/damaged(_:)`` when they are not one.
    init(decoding bytes: UnsafeRawBufferPointer) throws(StorageError) {
        var reader = Varint.Reader(bytes, subject: Self.subject)
        guard try reader.byte() == 1 else { throw StorageError.damaged("\(Self.subject) has an unknown version") }
        let key = try SyncPrimaryKey.read(from: &reader)
        let flags = try reader.byte()
        guard flags & ~3 == 0 else { throw StorageError.damaged("\(Self.subject) has unknown flags") }
        let created = flags & 1 != 0 ? HybridTimestamp(rawValue: try reader.uint64()) : nil
        let deleted = flags & 2 != 0 ? HybridTimestamp(rawValue: try reader.uint64()) : nil
        self.init(primaryKey: key, since: HybridTimestamp(rawValue: try reader.uint64()))
        self.created = created
        self.deleted = deleted
        let count = try reader.count(atMost: bytes.count / 2)
        for _ in 0..<count {
            properties[try reader.uint32()] = HybridTimestamp(rawValue: try reader.uint64())
        }
        guard reader.isAtEnd else { throw StorageError.damaged("\(Self.subject) has bytes past its end") }
    }
}

/// The binary form of a primary key in sync's own records: a tag, then the value.
enum SyncPrimaryKey {
    static func append(_ value: _PersistedValue, to bytes: inout [UInt8]) {
        switch value {
        case .int(let integer):
            bytes.append(1)
            Varint.append(UInt64(bitPattern: integer), to: &bytes)
        case .string(let string):
            bytes.append(2)
            Varint.append(UInt64(string.utf8.count), to: &bytes)
            bytes.append(contentsOf: string.utf8)
        case .objectId(let id):
            bytes.append(3)
            withUnsafeBytes(of: id.bytes) { bytes.append(contentsOf: $0) }
        case .uuid(let uuid):
            bytes.append(4)
            withUnsafeBytes(of: uuid.uuid) { bytes.append(contentsOf: $0) }
        default:
            // `null`: an optional primary key left empty, which names one object too.
            bytes.append(0)
        }
    }

    static func encoded(_ value: _PersistedValue) -> [UInt8] {
        var bytes: [UInt8] = []
        append(value, to: &bytes)
        return bytes
    }

    static func read(from reader: inout Varint.Reader) throws(StorageError) -> _PersistedValue {
        switch try reader.byte() {
        case 0: return .null
        case 1: return .int(Int64(bitPattern: try reader.uint64()))
        case 2:
            let count = try reader.count(atMost: 1 << 24)
            return .string(String(decoding: try reader.bytes(count), as: UTF8.self))
        case 3:
            guard let id = ObjectId(bytes: try reader.bytes(12)) else { throw StorageError.damaged("a sync primary key is not an object id") }
            return .objectId(id)
        case 4:
            let raw = try reader.bytes(16)
            return .uuid(raw.withUnsafeBytes { UUID(uuid: $0.loadUnaligned(as: uuid_t.self)) })
        case let tag:
            throw StorageError.damaged("a sync primary key has the unknown tag \(tag)")
        }
    }
}
