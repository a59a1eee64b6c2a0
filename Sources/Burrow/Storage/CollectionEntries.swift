import Foundation
import LMDB

/// The entries of list properties, in a database per property.
///
/// An element lives under `ownerKey ++ position` (8 + 8 bytes, big-endian). Positions are
/// sparse, ``gap`` apart, so appending takes one B-tree insert whatever the length and inserting
/// between two elements takes their midpoint. Values are one tag byte (0: nil, 1: a value) and
/// the value's row bytes; for lists of objects, the target's object key. Sets and maps store
/// their elements in the same form.
enum ListEntries {
    /// The distance between the positions of a freshly numbered list.
    static let gap: UInt64 = 1 << 32

    static func key(_ owner: ObjectKey, _ position: UInt64) -> [UInt8] {
        var key: [UInt8] = []
        key.reserveCapacity(16)
        owner.append(to: &key)
        ObjectKey(position).append(to: &key)
        return key
    }

    /// The positions of `owner`'s elements, in order.
    static func positions(of owner: ObjectKey, in database: Database, txn: Transaction) throws -> [UInt64] {
        var prefix: [UInt8] = []
        owner.append(to: &prefix)
        var positions: [UInt64] = []
        let cursor = try txn.openCursor(database)
        var entry = try cursor.seek(atLeast: prefix)
        while let (key, _) = entry, key.count == 16, key.starts(with: prefix) {
            positions.append(ObjectKey(bytes: UnsafeRawBufferPointer(rebasing: key[8...])).rawValue)
            entry = try cursor.next()
        }
        return positions
    }

    /// The stored values of `owner`'s list or set, in key order.
    static func values(of owner: ObjectKey, in database: Database, kind: _StorageKind, txn: Transaction) throws -> [_PersistedValue] {
        var values: [_PersistedValue] = []
        try forEachEntry(of: owner, in: database, txn: txn) { values.append(try decode($0, kind: kind)) }
        return values
    }

    /// Calls `body` with the stored bytes of each of `owner`'s entries in a collection database,
    /// in key order; the bytes are valid only inside `body`.
    static func forEachEntry(of owner: ObjectKey, in database: Database, txn: Transaction,
                             _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        var prefix: [UInt8] = []
        owner.append(to: &prefix)
        let cursor = try txn.openCursor(database)
        var entry = try cursor.seek(atLeast: prefix)
        while let (key, value) = entry, key.count > 8, key.starts(with: prefix) {
            try body(value)
            entry = try cursor.next()
        }
    }

    static func encode(_ value: _PersistedValue) -> [UInt8] {
        guard !value.isNull else { return [0] }
        var bytes: [UInt8] = [1]
        RowCodec.append(value, to: &bytes)
        return bytes
    }

    /// Decodes a stored element: a tag (`0` null, `1` a value), then the value's row bytes.
    ///
    /// - Throws: ``StorageError`` for any other tag or damaged value bytes.
    static func decode(_ bytes: UnsafeRawBufferPointer, kind: _StorageKind) throws(StorageError) -> _PersistedValue {
        switch bytes.first {
        case 0 where bytes.count == 1: return .null
        case 1: return try RowCodec.decode(UnsafeRawBufferPointer(rebasing: bytes[1...]), kind: kind)
        default: throw .damaged("a stored collection element of \(bytes.count) bytes has no valid tag")
        }
    }
}

/// The entries of set properties: an element lives under `ownerKey ++ indexKey(element)`, so
/// membership is one B-tree read and elements iterate in value order.
///
/// A value too long for its index key to hold whole shares its truncated key with others: each
/// of them gets an entry of its own (the key, then a number), and lookups compare the stored
/// values.
///
/// In an encrypted file the element's key is a keyed hash (see
/// ``IndexKeyEncoder/append(_:to:hashingWith:)``): every element is then a truncated one, and
/// ``values(of:in:kind:txn:)`` puts them back in value order.
enum SetEntries {
    static func key(_ owner: ObjectKey, _ value: _PersistedValue, hashingWith cipher: FileCipher?) -> [UInt8] {
        var key: [UInt8] = []
        owner.append(to: &key)
        IndexKeyEncoder.append(value, to: &key, hashingWith: cipher)
        return key
    }

    /// The elements of `owner`'s set, in value order.
    static func values(of owner: ObjectKey, in database: Database, kind: _StorageKind, txn: Transaction) throws -> [_PersistedValue] {
        let values = try ListEntries.values(of: owner, in: database, kind: kind, txn: txn)
        guard FileCipher.of(txn) != nil else { return values }
        return values.map { (key: IndexKeyEncoder.key(for: $0), value: $0) }
            .sorted { $0.key.lexicographicallyPrecedes($1.key) }
            .map(\.value)
    }

    /// The backlink position of an element: the key of the object it links to.
    static func position(of value: _PersistedValue) -> UInt64 {
        switch value {
        case .link(let key), .mixed(.typedLink(_, let key)): key
        default: 0
        }
    }

    /// The key of the entry of `owner`'s set that holds exactly `value`, or `nil`.
    static func storedKey(of value: _PersistedValue, kind: _StorageKind, owner: ObjectKey, in database: Database,
                          txn: Transaction) throws -> [UInt8]? {
        let key = key(owner, value, hashingWith: FileCipher.of(txn))
        guard isTruncated(key) else {
            return try key.withUnsafeBytes { try txn.unsafeValue(for: $0, in: database) } == nil ? nil : key
        }
        return try TruncatedEntries.sharing(key, in: database, txn: txn).first { try ListEntries.decode($0.value, kind: kind) == value }?.key
    }

    /// The key a new entry for `value` takes, or `nil` when the set holds it already.
    static func newKey(for value: _PersistedValue, kind: _StorageKind, owner: ObjectKey, in database: Database,
                       txn: Transaction) throws -> [UInt8]? {
        let key = key(owner, value, hashingWith: FileCipher.of(txn))
        guard isTruncated(key) else { return key }
        guard try storedKey(of: value, kind: kind, owner: owner, in: database, txn: txn) == nil else { return nil }
        return try TruncatedEntries.newKey(sharing: key, in: database, txn: txn)
    }

    /// Whether `key` (an owner key, then an element's key) holds a truncated element key.
    static func isTruncated(_ key: [UInt8]) -> Bool { IndexKeyEncoder.isTruncated(key.dropFirst(8)) }
}

/// Entries of sets and maps whose element or map key is too long for its index key to hold
/// whole: values sharing a truncated key each get an entry of their own, under the key followed
/// by a number, and lookups compare what the entries store.
enum TruncatedEntries {
    /// The entries whose keys are `key` followed by a number, with their stored bytes (valid
    /// until the transaction writes).
    static func sharing(_ key: [UInt8], in database: Database, txn: Transaction) throws -> [(key: [UInt8], value: UnsafeRawBufferPointer)] {
        var entries: [(key: [UInt8], value: UnsafeRawBufferPointer)] = []
        let cursor = try txn.openCursor(database)
        var entry = try cursor.seek(atLeast: key)
        while let (entryKey, entryValue) = entry, entryKey.count == key.count + 8, entryKey.starts(with: key) {
            entries.append((Array(entryKey), entryValue))
            entry = try cursor.next()
        }
        return entries
    }

    /// A key for one more entry sharing `key`: one number past the last such entry.
    static func newKey(sharing key: [UInt8], in database: Database, txn: Transaction) throws -> [UInt8] {
        let last = try sharing(key, in: database, txn: txn).last
        let next = last.map { $0.key.suffix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) } + 1 } ?? 0
        return key + FileHeader.encodeUInt64(next)
    }
}

/// The entries of map properties: a value lives under `ownerKey ++ indexKey(mapKey)`, so reading
/// or writing one key is one B-tree operation; the entry holds the key itself (a u32 length and
/// its UTF-8) before the element, so that keys too long to sit whole in an index key are exact
/// (keys sharing a truncated index key are ``TruncatedEntries``).
/// A map of objects keeps a backlink per entry, whose position is the FNV-1a hash of the key and
/// which counts the entries sharing that hash.
///
/// In an encrypted file the map key's key is a keyed hash, so every entry is a truncated one,
/// and ``entries(of:in:kind:txn:)`` puts them back in key order.
enum MapEntries {
    static func key(_ owner: ObjectKey, _ key: String, hashingWith cipher: FileCipher?) -> [UInt8] {
        var bytes: [UInt8] = []
        owner.append(to: &bytes)
        IndexKeyEncoder.append(.string(key), to: &bytes, hashingWith: cipher)
        return bytes
    }

    /// The backlink position of an entry: the hash of its key.
    static func position(of key: String) -> UInt64 {
        var hash = FNV1a()
        hash.add(key.utf8)
        return hash.value
    }

    /// `owner`'s entries in key order.
    static func entries(of owner: ObjectKey, in database: Database, kind: _StorageKind, txn: Transaction) throws -> [(key: String, value: _PersistedValue)] {
        var entries: [(key: String, value: _PersistedValue)] = []
        try ListEntries.forEachEntry(of: owner, in: database, txn: txn) { entries.append(try decode($0, kind: kind)) }
        guard FileCipher.of(txn) != nil else { return entries }
        return entries.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
    }

    /// The value under `key` in `owner`'s map, or `nil` when there is no such key.
    static func value(of owner: ObjectKey, key: String, in database: Database, kind: _StorageKind, txn: Transaction) throws -> _PersistedValue? {
        try stored(key, owner: owner, in: database, kind: kind, txn: txn)?.value
    }

    /// The entry holding `key` in `owner`'s map, with its database key, or `nil`.
    static func stored(_ key: String, owner: ObjectKey, in database: Database, kind: _StorageKind,
                       txn: Transaction) throws -> (entryKey: [UInt8], value: _PersistedValue)? {
        let entryKey = self.key(owner, key, hashingWith: FileCipher.of(txn))
        if SetEntries.isTruncated(entryKey) {
            for entry in try TruncatedEntries.sharing(entryKey, in: database, txn: txn) {
                let decoded = try decode(entry.value, kind: kind)
                if decoded.key.utf8.elementsEqual(key.utf8) { return (entry.key, decoded.value) }
            }
            return nil
        }
        guard let found = try entryKey.withUnsafeBytes({ try txn.unsafeValue(for: $0, in: database) }) else { return nil }
        let entry = try decode(found, kind: kind)
        return entry.key.utf8.elementsEqual(key.utf8) ? (entryKey, entry.value) : nil
    }

    /// The database key for a new entry holding `key`, which the map does not hold.
    static func newKey(for key: String, owner: ObjectKey, in database: Database, txn: Transaction) throws -> [UInt8] {
        let entryKey = self.key(owner, key, hashingWith: FileCipher.of(txn))
        guard SetEntries.isTruncated(entryKey) else { return entryKey }
        return try TruncatedEntries.newKey(sharing: entryKey, in: database, txn: txn)
    }

    static func encode(_ key: String, _ value: _PersistedValue) -> [UInt8] {
        var bytes: [UInt8] = []
        withUnsafeBytes(of: UInt32(key.utf8.count).littleEndian) { bytes.append(contentsOf: $0) }
        bytes.append(contentsOf: key.utf8)
        bytes.append(contentsOf: ListEntries.encode(value))
        return bytes
    }

    /// Decodes a stored entry: `[u32 key length][key UTF-8][element]`.
    ///
    /// - Throws: ``StorageError`` when the length runs past the entry or the element is damaged.
    static func decode(_ bytes: UnsafeRawBufferPointer, kind: _StorageKind) throws(StorageError) -> (key: String, value: _PersistedValue) {
        guard bytes.count >= 4 else { throw .damaged("a stored map entry is \(bytes.count) bytes long") }
        let length = Int(UInt32(littleEndian: bytes.loadUnaligned(as: UInt32.self)))
        guard length < bytes.count - 4 else { throw .damaged("a stored map key of \(length) bytes runs past its entry") }
        let key = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[4..<(4 + length)]), as: UTF8.self)
        return (key, try ListEntries.decode(UnsafeRawBufferPointer(rebasing: bytes[(4 + length)...]), kind: kind))
    }
}
