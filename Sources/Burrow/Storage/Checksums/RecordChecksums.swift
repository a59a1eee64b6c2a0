import CRC32C
import LMDB
import Synchronization

/// The checksums of an unencrypted file's rows and collection entries: each value ends with a
/// CRC-32C of the database it belongs to, its key and its bytes, so that a changed byte in a
/// row, or a row moved under another key, is damage that is reported, not a different value
/// that is read. (An encrypted file's values are authenticated by its cipher instead.)
///
/// It works as the environment's ``ValueSealer`` that keeps plaintext in place: a value is
/// checked where LMDB maps it and read with no copy. Files written before checksums (format 3)
/// have none: their environment holds an idle one, and copies and compaction write the new
/// format (``FileHeader/firstVersionWithChecksums``).
final class RecordChecksums: ValueSealer {
    /// Bytes a checksum adds to each value.
    static let size = 4

    private let active: Atomic<Bool>

    /// Checksums in use (`active`), or idle until ``activate()`` (a file whose format is not
    /// known yet when its environment opens).
    init(active: Bool) {
        self.active = Atomic(active)
    }

    /// Puts the checksums in use, for a file whose header says its values carry them.
    /// Transactions begun before keep reading without them.
    func activate() {
        active.store(true, ordering: .relaxed)
    }

    var isActive: Bool { active.load(ordering: .relaxed) }
    var sealingOverhead: Int { Self.size }
    var keepsPlaintextInPlace: Bool { true }

    /// The checksum of `value` stored under `key` in the database of `database`.
    @inline(__always)
    static func checksum(of value: UnsafeRawBufferPointer, database: UInt64, key: UnsafeRawBufferPointer) -> UInt32 {
        var crc = withUnsafeBytes(of: database.littleEndian) { burrow_crc32c(0, $0.baseAddress, 8) }
        crc = burrow_crc32c(crc, key.baseAddress, key.count)
        return burrow_crc32c(crc, value.baseAddress, value.count)
    }

    func seal(_ plaintext: UnsafeRawBufferPointer, into sealed: UnsafeMutableRawBufferPointer,
              database: UInt64, key: UnsafeRawBufferPointer) {
        if let target = sealed.baseAddress, let source = plaintext.baseAddress, target != UnsafeMutableRawPointer(mutating: source) {
            target.copyMemory(from: source, byteCount: plaintext.count)
        }
        let checksum = Self.checksum(of: plaintext, database: database, key: key)
        sealed.storeBytes(of: checksum.littleEndian, toByteOffset: plaintext.count, as: UInt32.self)
    }

    func verify(_ sealed: UnsafeRawBufferPointer, database: UInt64, key: UnsafeRawBufferPointer) -> Bool {
        guard sealed.count >= Self.size else { return false }
        let length = sealed.count - Self.size
        let stored = UInt32(littleEndian: sealed.loadUnaligned(fromByteOffset: length, as: UInt32.self))
        return stored == Self.checksum(of: UnsafeRawBufferPointer(rebasing: sealed[..<length]), database: database, key: key)
    }

    func open(_ sealed: UnsafeRawBufferPointer, into plaintext: UnsafeMutableRawBufferPointer,
              database: UInt64, key: UnsafeRawBufferPointer) -> Bool {
        guard verify(sealed, database: database, key: key) else { return false }
        if let target = plaintext.baseAddress, let source = sealed.baseAddress {
            target.copyMemory(from: source, byteCount: plaintext.count)
        }
        return true
    }
}
