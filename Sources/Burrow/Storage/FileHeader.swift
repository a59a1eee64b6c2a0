import Foundation
import LMDB

/// The keys and the header record of a file's metadata database.
///
/// The metadata database is the named database `0`. Its `header` record starts every Burrow
/// file: the magic `BURROWDB`, the format version (UInt32, big-endian) and a 16-byte file id.
enum FileHeader {
    static let magic = Array("BURROWDB".utf8)
    /// The format this build writes. 3: decimals are IEEE 754 decimal128 (BID), 16 bytes. 4: in
    /// an unencrypted file, rows and collection entries end with a checksum (``RecordChecksums``).
    static let formatVersion: UInt32 = 4
    /// The formats this build reads: 3 as 4 without checksums.
    static let readableVersions: ClosedRange<UInt32> = 3...4
    /// The first format whose unencrypted values carry checksums.
    static let firstVersionWithChecksums: UInt32 = 4
    static let metadataDatabaseName = "0"

    static let headerKey = Array("header".utf8)
    static let schemaKey = Array("schema".utf8)
    static let schemaVersionKey = Array("schemaVersion".utf8)
    static let schemaGenerationKey = Array("schemaGeneration".utf8)
    static let layoutEpochKey = Array("layoutEpoch".utf8)
    /// The key check of an encrypted file: ``keyCheckText`` sealed with the file's key. Its
    /// presence is what marks a file as encrypted.
    static let keyCheckKey = Array("keyCheck".utf8)
    static let keyCheckText = Array("Burrow encryption key check".utf8)

    /// The key of a class's next object key counter.
    static func nextObjectKeyKey(classID: UInt32) -> [UInt8] { Array("nextKey.\(classID)".utf8) }

    /// A new header of format `version` with a random file id.
    static func newHeader(version: UInt32 = formatVersion) -> [UInt8] {
        var bytes = magic
        withUnsafeBytes(of: version.bigEndian) { bytes.append(contentsOf: $0) }
        withUnsafeBytes(of: UUID().uuid) { bytes.append(contentsOf: $0) }
        return bytes
    }

    /// What a stored header says.
    enum Verdict: Equatable {
        case valid
        case notBurrow
        case unsupportedVersion(UInt32)
    }

    static func check(_ header: [UInt8]?) -> Verdict {
        guard let version = version(of: header) else { return .notBurrow }
        return readableVersions.contains(version) ? .valid : .unsupportedVersion(version)
    }

    /// The format version a header names, or `nil` when it is not a Burrow header.
    static func version(of header: [UInt8]?) -> UInt32? {
        guard let header, header.count >= 12, Array(header.prefix(8)) == magic else { return nil }
        return header[8..<12].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
    }

    static func encodeUInt64(_ value: UInt64) -> [UInt8] {
        withUnsafeBytes(of: value.bigEndian) { Array($0) }
    }

    /// The 64-bit number stored under `key` in `metadata`, or `absent` when there is none.
    ///
    /// - Throws: ``StorageError`` when the record is not 8 bytes long, since a made-up counter
    ///   could hand out an object key twice; LMDB's errors from reading.
    static func number(_ key: [UInt8], in metadata: Database, txn: Transaction, absent: UInt64) throws -> UInt64 {
        guard let bytes = try txn.value(for: key, in: metadata) else { return absent }
        guard bytes.count == 8 else {
            throw StorageError.damaged("the metadata record '\(String(decoding: key, as: UTF8.self))' is \(bytes.count) bytes long instead of 8")
        }
        return bytes.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
    }

    /// Database names for a class's tables.
    static func rowsName(classID: UInt32) -> String { "t\(classID)" }
    static func indexName(classID: UInt32, propertyID: UInt32) -> String { "i\(classID).\(propertyID)" }
    static func primaryKeyName(classID: UInt32) -> String { "p\(classID)" }
    /// The database of one list property's elements.
    static func collectionName(classID: UInt32, propertyID: UInt32) -> String { "c\(classID).\(propertyID)" }
    /// The backlink index of every to-one link.
    static let linksName = "l"
}
