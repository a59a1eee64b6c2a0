/// The key of one object in its class table: allocated once and never reused for another object
/// of the class (for classes with an integer primary key, the order-preserving form of the key).
struct ObjectKey: Hashable, Comparable, Sendable {
    let rawValue: UInt64

    init(_ rawValue: UInt64) { self.rawValue = rawValue }

    /// The object key of an integer primary key: its order-preserving bits.
    init(primaryKey: Int64) { rawValue = UInt64(bitPattern: primaryKey) ^ (1 << 63) }

    /// Reads a big-endian key from 8 bytes.
    init(bytes: UnsafeRawBufferPointer) {
        rawValue = UInt64(bigEndian: bytes.loadUnaligned(as: UInt64.self))
    }

    /// Reads a big-endian key from bytes read from the file, which must be exactly 8 long.
    ///
    /// - Throws: ``StorageError`` naming `owner` (a class or database) when they are not.
    init(checking bytes: UnsafeRawBufferPointer, in owner: String) throws(StorageError) {
        guard bytes.count == 8 else {
            throw .damaged("an object key in '\(owner)' is \(bytes.count) bytes long instead of 8")
        }
        self.init(bytes: bytes)
    }

    /// Reads the key that ends an index entry read from the file.
    ///
    /// - Throws: ``StorageError`` naming `owner` when the entry is shorter than a key.
    init(suffixOf entry: UnsafeRawBufferPointer, in owner: String) throws(StorageError) {
        guard entry.count >= 8 else {
            throw .damaged("an index entry of '\(owner)' is \(entry.count) bytes long, shorter than an object key")
        }
        self.init(bytes: UnsafeRawBufferPointer(rebasing: entry[(entry.count - 8)...]))
    }

    static func < (lhs: ObjectKey, rhs: ObjectKey) -> Bool { lhs.rawValue < rhs.rawValue }

    /// Calls `body` with the key's 8 big-endian bytes, the form used in databases.
    @inline(__always)
    func withBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try withUnsafeBytes(of: rawValue.bigEndian, body)
    }

    /// Appends the key's big-endian bytes to `buffer`.
    func append(to buffer: inout [UInt8]) {
        IndexKeyEncoder.appendBigEndian(rawValue, to: &buffer)
    }
}
