import CSodium
import Foundation
import LMDB
import Synchronization

/// The encryption of one file, from its 64-byte key: seals every stored value with
/// XChaCha20-Poly1305 and hashes index keys with keyed BLAKE2b (libsodium).
///
/// Two 32-byte sub-keys are derived from the key, one for values and one for index keys, so
/// that neither reveals the other. A value is sealed with a 24-byte nonce never used before
/// under the key, and its database and key as associated data: a sealed value copied to
/// another object, list entry or table no longer opens. A sealed value is 40 bytes longer
/// than its plaintext.
///
/// Nonces are 16 random bytes drawn once per cipher, then a 64-bit count of the values this
/// cipher sealed: unique without a system call per value (drawing 24 random bytes each time
/// cost more than the sealing), and as safe, since XChaCha20's nonces are long enough for a
/// random prefix never to repeat.
final class FileCipher: ValueSealer, @unchecked Sendable {
    /// The length of an encryption key.
    static let keyLength = 64
    /// The length of an index key's hash.
    static let hashLength = 16

    private static let nonceLength = Int(crypto_aead_xchacha20poly1305_ietf_NPUBBYTES)
    private static let tagLength = Int(crypto_aead_xchacha20poly1305_ietf_ABYTES)
    /// libsodium's one-time setup, done before the first cipher is made.
    private static let sodiumReady: Bool = sodium_init() >= 0

    // Immutable after init; read by every thread that reads the file.
    private let valueKey: [UInt8]
    private let indexKey: [UInt8]
    /// A digest of the whole key, to tell whether two configurations name the same key.
    let fingerprint: [UInt8]
    /// The random first 16 bytes of every nonce this cipher makes.
    private let noncePrefix: [UInt8]
    /// How many values this cipher has sealed: the last 8 bytes of the next nonce.
    private let sealed = Atomic<UInt64>(0)

    var sealingOverhead: Int { Self.nonceLength + Self.tagLength }

    /// A cipher for `key`.
    ///
    /// - Throws: ``StorageError/invalidKey(_:)`` when the key is not 64 bytes long.
    init(key: Data, path: String) throws(StorageError) {
        guard key.count == Self.keyLength else {
            throw .invalidKey("Encryption key must be exactly \(Self.keyLength) bytes long, but the key given for '\(path)' is \(key.count) bytes.")
        }
        burrowPrecondition(Self.sodiumReady, "libsodium could not be initialized.")
        let bytes = [UInt8](key)
        valueKey = Self.derive(from: bytes, purpose: "values")
        indexKey = Self.derive(from: bytes, purpose: "indexes")
        fingerprint = Self.derive(from: bytes, purpose: "identity")
        var prefix = [UInt8](repeating: 0, count: Self.nonceLength - 8)
        randombytes_buf(&prefix, prefix.count)
        noncePrefix = prefix
    }

    /// A 32-byte sub-key: BLAKE2b of `purpose`, keyed with the whole key.
    private static func derive(from key: [UInt8], purpose: String) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 32)
        let label = Array("burrow.\(purpose)".utf8)
        _ = crypto_generichash(&out, out.count, label, UInt64(label.count), key, key.count)
        return out
    }

    func seal(_ plaintext: UnsafeRawBufferPointer, into sealed: UnsafeMutableRawBufferPointer,
              database: UInt64, key: UnsafeRawBufferPointer) {
        burrowPrecondition(sealed.count == plaintext.count + sealingOverhead, "A sealed value needs \(sealingOverhead) bytes more than its plaintext.")
        let nonce = sealed.baseAddress!.assumingMemoryBound(to: UInt8.self)
        makeNonce(at: nonce)
        withAssociatedData(database: database, key: key) { ad in
            var written: UInt64 = 0
            _ = crypto_aead_xchacha20poly1305_ietf_encrypt(
                nonce + Self.nonceLength, &written,
                plaintext.baseAddress?.assumingMemoryBound(to: UInt8.self), UInt64(plaintext.count),
                ad.baseAddress, UInt64(ad.count), nil, nonce, valueKey)
        }
    }

    func open(_ sealed: UnsafeRawBufferPointer, into plaintext: UnsafeMutableRawBufferPointer,
              database: UInt64, key: UnsafeRawBufferPointer) -> Bool {
        guard sealed.count == plaintext.count + sealingOverhead, let base = sealed.baseAddress else { return false }
        let nonce = base.assumingMemoryBound(to: UInt8.self)
        return withAssociatedData(database: database, key: key) { ad in
            var read: UInt64 = 0
            return crypto_aead_xchacha20poly1305_ietf_decrypt(
                plaintext.baseAddress?.assumingMemoryBound(to: UInt8.self), &read, nil,
                nonce + Self.nonceLength, UInt64(sealed.count - Self.nonceLength),
                ad.baseAddress, UInt64(ad.count), nonce, valueKey) == 0 && Int(read) == plaintext.count
        }
    }

    /// Writes a nonce this cipher has not used: its prefix, then its count of sealed values.
    private func makeNonce(at nonce: UnsafeMutablePointer<UInt8>) {
        let count = sealed.wrappingAdd(1, ordering: .relaxed).newValue
        let bytes = UnsafeMutableRawBufferPointer(start: nonce, count: Self.nonceLength)
        bytes.copyBytes(from: noncePrefix)
        withUnsafeBytes(of: count.bigEndian) { UnsafeMutableRawBufferPointer(rebasing: bytes[noncePrefix.count...]).copyMemory(from: $0) }
    }

    /// The associated data of a value: its database's id, big-endian, then its key.
    private func withAssociatedData<Result>(database: UInt64, key: UnsafeRawBufferPointer,
                                            _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 8 + key.count) { ad in
            let bytes = UnsafeMutableRawBufferPointer(ad)
            withUnsafeBytes(of: database.bigEndian) { bytes.copyMemory(from: $0) }
            UnsafeMutableRawBufferPointer(rebasing: bytes[8...]).copyMemory(from: key)
            return body(UnsafeBufferPointer(ad))
        }
    }

    /// Appends the keyed hash of `plainKey` (an order-preserving index key) to `key`.
    func appendHash(of plainKey: [UInt8], to key: inout [UInt8]) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Self.hashLength) { out in
            _ = crypto_generichash(out.baseAddress!, Self.hashLength, plainKey, UInt64(plainKey.count), indexKey, indexKey.count)
            key.append(contentsOf: out)
        }
    }

    /// The cipher of the file `txn` reads, or `nil` when the file is not encrypted.
    @inline(__always)
    static func of(_ txn: Transaction) -> FileCipher? {
        guard let sealer = txn.environment.options.sealer else { return nil }
        return sealer as? FileCipher
    }
}

extension Environment {
    /// Whether the file is opened with a cipher (its sealer may otherwise be its checksums).
    var isEncrypted: Bool { options.sealer is FileCipher }

    /// The checksums of an unencrypted file's values, in use or idle.
    var recordChecksums: RecordChecksums? { options.sealer as? RecordChecksums }
}
