import CRC32C
import Synchronization

/// The checksums of an unencrypted file's records: each value of a sealed database ends with a
/// CRC-32C of the database's seal id, the value's key and its bytes, so that a changed byte, or
/// a value moved under another key, is reported (``LMDBError/sealBroken``) instead of read as
/// another value.
///
/// It is a ``ValueSealer`` that keeps plaintext in place: a value is checked where LMDB maps it
/// and read with no copy, and transactions call its static checks directly, not through the protocol. An
/// environment whose file may or may not have checksums opens with an idle one and activates it
/// once the file says so, before any sealed database is opened.
///
/// ```swift
/// var options = Environment.Options()
/// options.sealer = RecordChecksums(active: true)
/// let env = try Environment.open(path: path, options: options)
/// ```
public final class RecordChecksums: ValueSealer {
    /// Bytes a checksum adds to each value.
    public static let size = 4

    private let active: Atomic<Bool>

    /// Checksums in use (`active`), or idle until ``activate()``.
    public init(active: Bool) {
        self.active = Atomic(active)
    }

    /// Puts the checksums in use. Transactions begun before keep reading without them.
    public func activate() {
        active.store(true, ordering: .relaxed)
    }

    public var isActive: Bool { active.load(ordering: .relaxed) }
    public var sealingOverhead: Int { Self.size }

    /// The checksum of `value` stored under `key` in the database whose seal id is `database`.
    @inline(__always)
    static func checksum(of value: UnsafeRawBufferPointer, database: UInt64, key: UnsafeRawBufferPointer) -> UInt32 {
        burrow_crc32c_record(database, key.baseAddress, key.count, value.baseAddress, value.count)
    }

    public func seal(_ plaintext: UnsafeRawBufferPointer, into sealed: UnsafeMutableRawBufferPointer,
                     database: UInt64, key: UnsafeRawBufferPointer) {
        Self.seal(plaintext, into: sealed, database: database, key: key)
    }

    /// Writes `plaintext` (unless it is already there) and its checksum into `sealed`.
    @inline(__always)
    static func seal(_ plaintext: UnsafeRawBufferPointer, into sealed: UnsafeMutableRawBufferPointer,
                     database: UInt64, key: UnsafeRawBufferPointer) {
        if let target = sealed.baseAddress, let source = plaintext.baseAddress, target != UnsafeMutableRawPointer(mutating: source) {
            target.copyMemory(from: source, byteCount: plaintext.count)
        }
        let checksum = checksum(of: plaintext, database: database, key: key)
        sealed.storeBytes(of: checksum.littleEndian, toByteOffset: plaintext.count, as: UInt32.self)
    }

    /// Whether `sealed` ends with the checksum of what comes before it.
    @inline(__always)
    static func verify(_ sealed: UnsafeRawBufferPointer, database: UInt64, key: UnsafeRawBufferPointer) -> Bool {
        guard sealed.count >= size, let base = sealed.baseAddress else { return false }
        let length = sealed.count - size
        let stored = UInt32(littleEndian: base.loadUnaligned(fromByteOffset: length, as: UInt32.self))
        return stored == burrow_crc32c_record(database, key.baseAddress, key.count, base, length)
    }

    public func open(_ sealed: UnsafeRawBufferPointer, into plaintext: UnsafeMutableRawBufferPointer,
                     database: UInt64, key: UnsafeRawBufferPointer) -> Bool {
        guard Self.verify(sealed, database: database, key: key) else { return false }
        if let target = plaintext.baseAddress, let source = sealed.baseAddress {
            target.copyMemory(from: source, byteCount: plaintext.count)
        }
        return true
    }
}
