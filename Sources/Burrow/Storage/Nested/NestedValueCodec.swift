/// Row bytes of the lists and dictionaries an `AnyRealmValue` holds.
///
/// A mixed value is a tag byte, then the bytes of its inner value. The tag is the inner
/// value's ``_StorageKind`` (0 for null), ``listTag`` for a list or ``dictionaryTag`` for a
/// dictionary. A list is `[u32 count]`, then per element `[u32 length][mixed value]`; a
/// dictionary is `[u32 count]`, then per entry `[u32 key length][key UTF-8][u32 length][mixed
/// value]`, keys in byte order. Integers are little-endian. The lengths let a reader step over
/// an element without decoding it, and nesting repeats the same layout.
enum NestedValueCodec {
    /// How deeply lists and dictionaries nest in one stored value: writes refuse deeper ones,
    /// and a read that meets one reports damage.
    static let maximumDepth = 100

    static let listTag: UInt8 = 0x40
    static let dictionaryTag: UInt8 = 0x41

    /// The tag byte that says what kind of value follows in a mixed value.
    static func tag(of inner: _PersistedValue) -> UInt8 {
        switch inner {
        case .list: listTag
        case .dictionary: dictionaryTag
        default: inner.kind?.rawValue ?? 0
        }
    }

    /// Bytes of a mixed value holding `inner`: its tag and its bytes.
    static func mixedByteCount(of inner: _PersistedValue) -> Int {
        1 + RowCodec.byteCount(of: inner)
    }

    /// Bytes of a list or dictionary, without its tag.
    static func byteCount(of value: _PersistedValue) -> Int {
        switch value {
        case .list(let elements):
            return elements.reduce(4) { $0 + 4 + mixedByteCount(of: $1) }
        case .dictionary(let keys, let values):
            return zip(keys, values).reduce(4) { $0 + 8 + $1.0.utf8.count + mixedByteCount(of: $1.1) }
        default:
            burrowPreconditionFailure("Not a nested collection: \(value.displayText).")
        }
    }

    /// Writes a list or dictionary at `target`, without its tag; returns how many bytes.
    static func write(_ value: _PersistedValue, to target: UnsafeMutableRawPointer) -> Int {
        var offset = 0
        func store(_ number: Int) {
            (target + offset).storeBytes(of: UInt32(number).littleEndian, as: UInt32.self)
            offset += 4
        }
        func storeMixed(_ inner: _PersistedValue) {
            store(mixedByteCount(of: inner))
            (target + offset).storeBytes(of: tag(of: inner), as: UInt8.self)
            offset += 1 + RowCodec.write(inner, to: target + offset + 1)
        }
        switch value {
        case .list(let elements):
            store(elements.count)
            for element in elements { storeMixed(element) }
        case .dictionary(let keys, let values):
            store(keys.count)
            for (key, element) in zip(keys, values) {
                store(key.utf8.count)
                offset += RowCodec.write(.string(key), to: target + offset)
                storeMixed(element)
            }
        default:
            burrowPreconditionFailure("Not a nested collection: \(value.displayText).")
        }
        return offset
    }

    /// The inner value of the mixed value in `bytes` (its tag, then its bytes).
    ///
    /// - Throws: ``StorageError`` for an unknown tag, a length past the end of the bytes, a
    ///   count the bytes cannot hold, or nesting deeper than writes allow.
    static func decodeMixed(_ bytes: UnsafeRawBufferPointer, depth: Int = 0) throws(StorageError) -> _PersistedValue {
        guard let tag = bytes.first else { throw .damaged("a stored AnyRealmValue has no bytes") }
        let body = UnsafeRawBufferPointer(rebasing: bytes[1...])
        switch tag {
        case 0:
            guard body.isEmpty else { throw .damaged("a stored empty AnyRealmValue holds \(body.count) bytes") }
            return .null
        case listTag, dictionaryTag:
            guard depth < NestedValueCodec.maximumDepth else {
                throw .damaged("a stored AnyRealmValue nests deeper than \(NestedValueCodec.maximumDepth) levels")
            }
            return tag == listTag ? try decodeList(body, depth: depth + 1) : try decodeDictionary(body, depth: depth + 1)
        default:
            guard let kind = _StorageKind(rawValue: tag), kind != .mixed else {
                throw .damaged("a stored AnyRealmValue has the unknown tag \(tag)")
            }
            return try RowCodec.decode(body, kind: kind)
        }
    }

    /// Reads length-prefixed fields; a length past the end of the bytes is damage.
    private struct Fields {
        let bytes: UnsafeRawBufferPointer
        var offset = 0

        mutating func length() throws(StorageError) -> Int {
            guard offset + 4 <= bytes.count else { throw .damaged("a stored nested collection ends inside a length") }
            defer { offset += 4 }
            return Int(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
        }

        mutating func field() throws(StorageError) -> UnsafeRawBufferPointer {
            let length = try length()
            guard length <= bytes.count - offset else {
                throw .damaged("a stored nested collection has a \(length)-byte field past its end")
            }
            defer { offset += length }
            return UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + length)])
        }

        /// A count of fields of at least `minimumSize` bytes each, checked against the bytes left.
        mutating func count(minimumSize: Int) throws(StorageError) -> Int {
            let count = try length()
            guard count <= (bytes.count - offset) / minimumSize else {
                throw .damaged("a stored nested collection claims \(count) elements in \(bytes.count - offset) bytes")
            }
            return count
        }

        func finish() throws(StorageError) {
            guard offset == bytes.count else { throw .damaged("a stored nested collection has \(bytes.count - offset) bytes after its end") }
        }
    }

    private static func decodeList(_ bytes: UnsafeRawBufferPointer, depth: Int) throws(StorageError) -> _PersistedValue {
        var fields = Fields(bytes: bytes)
        let count = try fields.count(minimumSize: 5)
        var elements: [_PersistedValue] = []
        elements.reserveCapacity(count)
        for _ in 0..<count {
            elements.append(try decodeMixed(try fields.field(), depth: depth))
        }
        try fields.finish()
        return .list(elements)
    }

    private static func decodeDictionary(_ bytes: UnsafeRawBufferPointer, depth: Int) throws(StorageError) -> _PersistedValue {
        var fields = Fields(bytes: bytes)
        let count = try fields.count(minimumSize: 9)
        var keys: [String] = [], values: [_PersistedValue] = []
        keys.reserveCapacity(count)
        values.reserveCapacity(count)
        for _ in 0..<count {
            let key = try fields.field()
            keys.append(String(decoding: key, as: UTF8.self))
            values.append(try decodeMixed(try fields.field(), depth: depth))
        }
        try fields.finish()
        return .dictionary(keys: keys, values: values)
    }
}
