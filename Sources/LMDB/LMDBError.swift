import CLMDB

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// An error reported by LMDB or by the operating system underneath it.
///
/// The code is LMDB's own (negative values) or an `errno` value (positive). Match
/// known codes with `catch`:
///
/// ```swift
/// do { try txn.put(key, value, in: db) }
/// catch LMDBError.mapFull { /* grow the map and retry */ }
/// ```
public struct LMDBError: Error, Equatable, Hashable, CustomStringConvertible, Sendable {
    /// The raw code: an `MDB_*` error constant or an `errno` value.
    public let code: Int32

    /// Wraps a raw LMDB or `errno` code.
    public init(code: Int32) { self.code = code }

    /// The key/data pair already exists (`MDB_KEYEXIST`).
    public static let keyExists = LMDBError(code: MDB_KEYEXIST)
    /// No matching key/data pair (`MDB_NOTFOUND`).
    public static let notFound = LMDBError(code: MDB_NOTFOUND)
    /// A requested page was not found: usually a corrupt file (`MDB_PAGE_NOTFOUND`).
    public static let pageNotFound = LMDBError(code: MDB_PAGE_NOTFOUND)
    /// The located page was the wrong type: a corrupt file (`MDB_CORRUPTED`).
    public static let corrupted = LMDBError(code: MDB_CORRUPTED)
    /// A fatal error in an update; the environment must be closed (`MDB_PANIC`).
    public static let panic = LMDBError(code: MDB_PANIC)
    /// The environment was written by an incompatible LMDB version (`MDB_VERSION_MISMATCH`).
    public static let versionMismatch = LMDBError(code: MDB_VERSION_MISMATCH)
    /// The file is not an LMDB file (`MDB_INVALID`).
    public static let invalid = LMDBError(code: MDB_INVALID)
    /// The environment's map size is used up (`MDB_MAP_FULL`).
    public static let mapFull = LMDBError(code: MDB_MAP_FULL)
    /// Too many named databases are open (`MDB_DBS_FULL`).
    public static let databasesFull = LMDBError(code: MDB_DBS_FULL)
    /// Every reader slot is taken (`MDB_READERS_FULL`).
    public static let readersFull = LMDBError(code: MDB_READERS_FULL)
    /// The transaction has too many dirty pages (`MDB_TXN_FULL`).
    public static let transactionFull = LMDBError(code: MDB_TXN_FULL)
    /// Another process grew the map beyond this one's size (`MDB_MAP_RESIZED`).
    public static let mapResized = LMDBError(code: MDB_MAP_RESIZED)
    /// The operation does not fit the database's flags (`MDB_INCOMPATIBLE`).
    public static let incompatible = LMDBError(code: MDB_INCOMPATIBLE)
    /// The transaction cannot be used any more, after an earlier error (`MDB_BAD_TXN`).
    public static let badTransaction = LMDBError(code: MDB_BAD_TXN)
    /// A key or a DUPSORT value is too large (`MDB_BAD_VALSIZE`).
    public static let badValueSize = LMDBError(code: MDB_BAD_VALSIZE)
    /// A sealed value failed its authentication: tampered with, damaged, moved to another key,
    /// or sealed with another key (Burrow's own code, outside LMDB's range).
    public static let sealBroken = LMDBError(code: -30_700)
    /// A page names a key or value that lies past the end of the file: a damaged length,
    /// caught before anything read it (Burrow's own code, outside LMDB's range).
    public static let pastEndOfFile = LMDBError(code: -30_701)
    /// A leaf page a read stood on does not have the shape of a sound one (its header, the
    /// offsets of its entries or the order of its keys), caught before anything read from it
    /// (Burrow's own code, outside LMDB's range).
    public static let damagedPage = LMDBError(code: -30_702)
    /// The file or folder does not exist (`ENOENT`).
    public static let noSuchFile = LMDBError(code: ENOENT)
    /// Permission to the file was denied (`EACCES`).
    public static let permissionDenied = LMDBError(code: EACCES)
    /// The disk is full (`ENOSPC`).
    public static let noSpace = LMDBError(code: ENOSPC)
    /// The file already exists (`EEXIST`).
    public static let fileExists = LMDBError(code: EEXIST)
    /// The operation would block, or the resource is busy (`EBUSY`).
    public static let busy = LMDBError(code: EBUSY)

    /// LMDB's text for the code (which covers `errno` values too).
    public var description: String {
        if self == .sealBroken { return "a sealed value failed its authentication check (tampered with, damaged, or sealed with another key)" }
        if self == .pastEndOfFile { return "The file is damaged: a page names bytes past the end of the file." }
        if self == .damagedPage { return "The file is damaged: a page's header, the offsets of its entries, the order of its keys or the branch pages that lead to it are not those of a sound page." }
        return String(cString: mdb_strerror(code))
    }

    /// Lets `catch LMDBError.notFound` match a thrown error.
    public static func ~= (pattern: LMDBError, error: any Error) -> Bool {
        (error as? LMDBError) == pattern
    }

    /// Throws the error for `code` unless it is `MDB_SUCCESS`.
    @inline(__always)
    package static func check(_ code: Int32) throws(LMDBError) {
        if code != MDB_SUCCESS { throw LMDBError(code: code) }
    }
}
