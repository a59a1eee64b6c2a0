import Foundation

/// Encodes values as byte strings whose bytewise order is the values' order, for index and
/// primary-key databases.
///
/// Every key starts with a tag: `0` for null (so null sorts first), `1` for a value, `2` for a
/// string or data too long to store whole. Then:
/// - integers: the sign bit flipped, big-endian (8 bytes);
/// - `Double`, `Float`, `Date`: the IEEE bits, all flipped when negative, else the sign bit
///   flipped; `-0` is stored as `0` and every NaN as one NaN that sorts after `+infinity`;
/// - `Bool`: one byte; `UUID` and `ObjectId`: their bytes;
/// - strings and data: the bytes with `0x00` escaped as `0x00 0xFF`, ended by `0x00 0x00`,
///   so that a shorter value sorts before any longer value it begins. Values over
///   ``maximumInlineLength`` bytes keep that prefix, then the tag `2` path's FNV-1a hash of the
///   whole value: equal values get equal keys, and candidates are re-checked against rows.
enum IndexKeyEncoder {
    /// Longest string or data stored whole in a key; LMDB keys are at most 511 bytes.
    static let maximumInlineLength = 200

    /// Appends the key of `value` to `key`.
    static func append(_ value: _PersistedValue, to key: inout [UInt8]) {
        switch value {
        case .null: key.append(0)
        case .bool(let v): key.append(1); key.append(v ? 1 : 0)
        case .int(let v): key.append(1); appendBigEndian(UInt64(bitPattern: v) ^ (1 << 63), to: &key)
        case .link(let v): key.append(1); appendBigEndian(v, to: &key)
        case .typedLink(let classID, let v): key.append(1); appendBigEndian(UInt64(classID), to: &key); appendBigEndian(v, to: &key)
        case .mixed(let inner):
            // Values of different kinds group by kind; within a kind they keep their order.
            key.append(1)
            key.append(NestedValueCodec.tag(of: inner))
            append(inner, to: &key)
        case .list, .dictionary:
            // Only set elements are keyed by value, and sets refuse nested collections; the
            // row bytes still give equal collections equal keys.
            var bytes: [UInt8] = []
            RowCodec.append(value, to: &bytes)
            appendBytes(bytes, to: &key)
        case .float(let v): key.append(1); appendBigEndian(orderedBits(Double(v)), to: &key)
        case .double(let v): key.append(1); appendBigEndian(orderedBits(v), to: &key)
        case .date(let v): key.append(1); appendBigEndian(orderedBits(v.timeIntervalSinceReferenceDate), to: &key)
        case .uuid(let v): key.append(1); withUnsafeBytes(of: v.uuid) { key.append(contentsOf: $0) }
        case .objectId(let v): key.append(1); key.append(contentsOf: v.byteArray)
        case .string(let v): appendBytes(v.utf8, to: &key)
        case .data(let v): appendBytes(v, to: &key)
        case .decimal(let v): key.append(1); key.append(contentsOf: v.orderedKey)
        }
    }

    /// The key of `value` alone.
    static func key(for value: _PersistedValue) -> [UInt8] {
        var key: [UInt8] = []
        append(value, to: &key)
        return key
    }

    /// Appends the key of `value` as a file stores it: the order-preserving key, or in an
    /// encrypted file (with `cipher`) the tag `2` and a keyed hash of it, which leaks neither the
    /// value nor its order. Tag 2 marks a key that does not hold its value whole, so every match
    /// is re-checked against the row or entry and no range, prefix or ordered walk is answered
    /// from such keys.
    @inline(__always)
    static func append(_ value: _PersistedValue, to key: inout [UInt8], hashingWith cipher: FileCipher?) {
        guard let cipher else { return append(value, to: &key) }
        key.append(2)
        cipher.appendHash(of: self.key(for: value), to: &key)
    }

    /// The key of `value` alone, as a file stores it (see ``append(_:to:hashingWith:)``).
    static func key(for value: _PersistedValue, hashingWith cipher: FileCipher?) -> [UInt8] {
        var key: [UInt8] = []
        append(value, to: &key, hashingWith: cipher)
        return key
    }

    /// Whether a key produced for a string or data value was truncated (its match is a candidate
    /// to re-check).
    static func isTruncated(_ key: some Collection<UInt8>) -> Bool { key.first == 2 }

    private static func appendBytes<C: Collection<UInt8>>(_ bytes: C, to key: inout [UInt8]) {
        let truncated = bytes.count > maximumInlineLength
        // Tag, bytes, terminator and a possible hash, in one allocation (escapes aside).
        key.reserveCapacity(key.count + min(bytes.count, maximumInlineLength) + 11)
        key.append(truncated ? 2 : 1)
        let copiedWhole: Bool? = bytes.withContiguousStorageIfAvailable { buffer in
            let inline = UnsafeBufferPointer(rebasing: buffer.prefix(maximumInlineLength))
            guard !inline.contains(0) else { return false }
            key.append(contentsOf: inline)
            return true
        }
        if copiedWhole != true {
            for byte in bytes.prefix(maximumInlineLength) {
                key.append(byte)
                if byte == 0 { key.append(0xFF) }
            }
        }
        key.append(0); key.append(0)
        if truncated {
            var hash = FNV1a()
            hash.add(bytes)
            appendBigEndian(hash.value, to: &key)
        }
    }

    /// The order-preserving bits of a `Double`.
    static func orderedBits(_ value: Double) -> UInt64 {
        if value.isNaN { return UInt64.max }
        let bits = (value == 0 ? 0.0 : value).bitPattern
        return bits & (1 << 63) != 0 ? ~bits : bits | (1 << 63)
    }

    @inline(__always)
    static func appendBigEndian(_ value: UInt64, to key: inout [UInt8]) {
        withUnsafeBytes(of: value.bigEndian) { key.append(contentsOf: $0) }
    }
}
