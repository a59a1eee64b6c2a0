/// Unsigned LEB128 integers: seven bits a byte, least significant first.
enum Varint {
    static func append(_ value: UInt64, to bytes: inout [UInt8]) {
        var rest = value
        while rest >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    /// Reads integers from bytes that may be damaged: every read checks its bounds.
    struct Reader {
        private let bytes: UnsafeRawBufferPointer
        private var position = 0
        /// What the bytes are, for the message of the damage found in them.
        private let subject: String

        init(_ bytes: UnsafeRawBufferPointer, subject: String = "a change log record") {
            self.bytes = bytes
            self.subject = subject
        }

        var isAtEnd: Bool { position == bytes.count }

        mutating func byte() throws(StorageError) -> UInt8 {
            guard position < bytes.count else { throw StorageError.damaged("\(subject) ends early") }
            defer { position += 1 }
            return bytes[position]
        }

        mutating func uint64() throws(StorageError) -> UInt64 {
            var value: UInt64 = 0
            for shift in stride(from: 0, through: 63, by: 7) {
                let byte = try self.byte()
                let bits = UInt64(byte & 0x7F)
                guard shift < 63 || bits <= 1 else { throw StorageError.damaged("\(subject) has an integer out of range") }
                value |= bits << UInt64(shift)
                if byte & 0x80 == 0 { return value }
            }
            throw StorageError.damaged("\(subject) has an integer out of range")
        }

        mutating func uint32() throws(StorageError) -> UInt32 {
            let value = try uint64()
            guard value <= UInt64(UInt32.max) else { throw StorageError.damaged("\(subject) has an id out of range") }
            return UInt32(value)
        }

        /// The next `count` bytes.
        mutating func bytes(_ count: Int) throws(StorageError) -> [UInt8] {
            guard count >= 0, count <= bytes.count - position else { throw StorageError.damaged("\(subject) ends early") }
            defer { position += count }
            return Array(bytes[position..<position + count])
        }

        /// A count of items that each take at least one byte, so never more than `limit`.
        mutating func count(atMost limit: Int) throws(StorageError) -> Int {
            let value = try uint64()
            guard value <= UInt64(limit) else { throw StorageError.damaged("\(subject) has a count out of range") }
            return Int(value)
        }
    }
}
