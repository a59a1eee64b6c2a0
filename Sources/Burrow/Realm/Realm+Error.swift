import Foundation
import LMDB

extension Realm {
    /// An error caused by the outside world: files, disk, keys, other processes, schema on disk,
    /// or a query taken from a person.
    ///
    /// ```swift
    /// do { let realm = try Realm(configuration: config) }
    /// catch Realm.Error.fileNotFound { print("no such realm") }
    /// catch let error as Realm.Error { print(error.code, error.localizedDescription) }
    /// ```
    public struct Error: Swift.Error, Equatable, CustomStringConvertible, LocalizedError, Sendable {
        /// What went wrong, in categories RealmSwift names.
        public enum Code: Int, Sendable, CustomStringConvertible {
            /// An error with no more precise category.
            case fail
            /// The file could not be read or written.
            case fileAccess
            /// The process may not open the file in the requested mode.
            case filePermissionDenied
            /// A file that should not exist does.
            case fileExists
            /// A file that should exist does not.
            case fileNotFound
            /// The lock file was made by an incompatible library version.
            case incompatibleLockFile
            /// No address space is left to map the file.
            case addressSpaceExhausted
            /// The schema in the file differs from the model classes.
            case schemaMismatch
            /// Not a Burrow file, a wrong or missing encryption key, or a corrupt file.
            case invalidDatabase
            /// The disk is full.
            case outOfDiskSpace
            /// The file was written by a newer format version.
            case unsupportedFileFormatVersion
            /// A file operation (copy, delete, compact) failed.
            case fileOperationFailed
            /// A query could not be parsed or does not fit the schema.
            case invalidQuery
            /// The realm was used from a thread that does not own it.
            case wrongThread
            /// A limit was reached: `maximumFileSize`, too many pinned versions or open readers.
            case limitExceeded

            public var description: String {
                switch self {
                case .fail: "fail"
                case .fileAccess: "fileAccess"
                case .filePermissionDenied: "filePermissionDenied"
                case .fileExists: "fileExists"
                case .fileNotFound: "fileNotFound"
                case .incompatibleLockFile: "incompatibleLockFile"
                case .addressSpaceExhausted: "addressSpaceExhausted"
                case .schemaMismatch: "schemaMismatch"
                case .invalidDatabase: "invalidDatabase"
                case .outOfDiskSpace: "outOfDiskSpace"
                case .unsupportedFileFormatVersion: "unsupportedFileFormatVersion"
                case .fileOperationFailed: "fileOperationFailed"
                case .invalidQuery: "invalidQuery"
                case .wrongThread: "wrongThread"
                case .limitExceeded: "limitExceeded"
                }
            }
        }

        /// The category.
        public let code: Code
        /// What happened, for people.
        public let message: String
        /// The file concerned, when there is one.
        public let fileURL: URL?

        /// An error of `code` with `message`.
        public init(_ code: Code, _ message: String, fileURL: URL? = nil) {
            self.code = code
            self.message = message
            self.fileURL = fileURL
        }

        /// `Realm.Error.<code>: <message>`.
        public var description: String { "Realm.Error.\(code): \(message)" }
        /// The message, for `localizedDescription`.
        public var errorDescription: String? { message }

        /// The code ``Code/fail``, for `catch Realm.Error.fail`.
        public static let fail = Code.fail
        /// The code ``Code/fileAccess``, for `catch Realm.Error.fileAccess`.
        public static let fileAccess = Code.fileAccess
        /// The code ``Code/filePermissionDenied``, for `catch Realm.Error.filePermissionDenied`.
        public static let filePermissionDenied = Code.filePermissionDenied
        /// The code ``Code/fileExists``, for `catch Realm.Error.fileExists`.
        public static let fileExists = Code.fileExists
        /// The code ``Code/fileNotFound``, for `catch Realm.Error.fileNotFound`.
        public static let fileNotFound = Code.fileNotFound
        /// The code ``Code/incompatibleLockFile``, for `catch Realm.Error.incompatibleLockFile`.
        public static let incompatibleLockFile = Code.incompatibleLockFile
        /// The code ``Code/addressSpaceExhausted``, for `catch Realm.Error.addressSpaceExhausted`.
        public static let addressSpaceExhausted = Code.addressSpaceExhausted
        /// The code ``Code/schemaMismatch``, for `catch Realm.Error.schemaMismatch`.
        public static let schemaMismatch = Code.schemaMismatch
        /// The code ``Code/invalidDatabase``, for `catch Realm.Error.invalidDatabase`.
        public static let invalidDatabase = Code.invalidDatabase
        /// The code ``Code/outOfDiskSpace``, for `catch Realm.Error.outOfDiskSpace`.
        public static let outOfDiskSpace = Code.outOfDiskSpace
        /// The code ``Code/unsupportedFileFormatVersion``, for `catch Realm.Error.unsupportedFileFormatVersion`.
        public static let unsupportedFileFormatVersion = Code.unsupportedFileFormatVersion
        /// The code ``Code/fileOperationFailed``, for `catch Realm.Error.fileOperationFailed`.
        public static let fileOperationFailed = Code.fileOperationFailed
        /// The code ``Code/invalidQuery``, for `catch Realm.Error.invalidQuery`.
        public static let invalidQuery = Code.invalidQuery
        /// The code ``Code/wrongThread``, for `catch Realm.Error.wrongThread`.
        public static let wrongThread = Code.wrongThread
        /// The code ``Code/limitExceeded``, for `catch Realm.Error.limitExceeded`.
        public static let limitExceeded = Code.limitExceeded
    }
}

/// Lets `catch Realm.Error.fileNotFound` match a thrown ``Realm/Error`` by its code.
public func ~= (code: Realm.Error.Code, error: any Swift.Error) -> Bool {
    (error as? Realm.Error)?.code == code
}

extension Realm.Error {
    /// Translates a storage error into the category a Realm user handles. Opening failures read
    /// as RealmSwift's: "Failed to open Realm file at path '…': No such file or directory".
    init(_ error: LMDBError, path: String, doing action: String) {
        let url = URL(fileURLWithPath: path)
        if action == "open", let opening = Self.openingFailure(error, path: path) {
            self = opening
            return
        }
        let detail = "\(action) '\(path)': \(error.description)"
        switch error {
        case .noSuchFile: self.init(.fileNotFound, "Cannot \(detail)", fileURL: url)
        case .permissionDenied, LMDBError(code: EPERM), LMDBError(code: EROFS):
            self.init(.filePermissionDenied, "Permission denied to \(detail)", fileURL: url)
        case .invalid, .corrupted, .pageNotFound, .panic:
            self.init(.invalidDatabase, "Not a valid Burrow file, or damaged: \(detail)", fileURL: url)
        case .versionMismatch: self.init(.incompatibleLockFile, "Incompatible lock file: \(detail)", fileURL: url)
        case .noSpace, .mapFull, LMDBError(code: EDQUOT), LMDBError(code: EFBIG):
            self.init(.outOfDiskSpace, "Out of space: \(detail)", fileURL: url)
        case LMDBError(code: ENOMEM): self.init(.addressSpaceExhausted, "No address space left to \(detail)", fileURL: url)
        case .mapResized:
            self.init(.addressSpaceExhausted,
                      "Cannot \(action) '\(path)': another process grew it past this process's map, which cannot grow while "
                          + "this process holds other snapshots of the file (frozen realms, realms of other threads or queues); "
                          + "release them (invalidate or close those realms), or give every process the same, larger maximumFileSize",
                      fileURL: url)
        case .readersFull: self.init(.limitExceeded, "Too many open readers: \(detail)", fileURL: url)
        case LMDBError.fileExists: self.init(.fileExists, "File exists: \(detail)", fileURL: url)
        default: self.init(.fileAccess, "Cannot \(detail)", fileURL: url)
        }
    }

    /// The error of a file that cannot be opened, in RealmSwift's codes and words; `nil` for
    /// errors that are not about reaching the file.
    private static func openingFailure(_ error: LMDBError, path: String) -> Realm.Error? {
        let url = URL(fileURLWithPath: path)
        let failed = "Failed to open Realm file at path '\(path)': "
        let permissions = ". Please use a path where your app has read-write permissions."
        switch error {
        case .noSuchFile: return Realm.Error(.fileNotFound, failed + "No such file or directory", fileURL: url)
        case .permissionDenied, LMDBError(code: EROFS): return Realm.Error(.filePermissionDenied, failed + "Permission denied" + permissions, fileURL: url)
        case LMDBError(code: EPERM): return Realm.Error(.filePermissionDenied, failed + "Operation not permitted" + permissions, fileURL: url)
        case LMDBError(code: ENOTDIR): return notADirectory(path)
        case .invalid, .corrupted, .pageNotFound, .panic:
            // LMDB's two meta pages take 8 KiB at the least.
            if let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int, size < 8192 {
                return Realm.Error(.invalidDatabase, failed + "file is non-empty but too small (\(size) bytes) to be a valid Realm.", fileURL: url)
            }
            return Realm.Error(.invalidDatabase, failed + "not a valid Burrow file, or damaged (\(error.description)).", fileURL: url)
        default: return nil
        }
    }

    /// A path that goes through a file (`/dev/null/x`), as RealmSwift reports it.
    static func notADirectory(_ path: String) -> Realm.Error {
        Realm.Error(.fileOperationFailed, "Failed to open file at path '\(path)': parent path is not a directory",
                    fileURL: URL(fileURLWithPath: path))
    }
}

extension Realm.Error {
    /// Reports damage found in the file at `path`.
    init(_ error: StorageError, path: String) {
        self.init(.invalidDatabase, "Cannot read '\(path)': \(error.description)", fileURL: URL(fileURLWithPath: path))
    }

    /// The message of `error`, for traps.
    static func message(of error: any Swift.Error) -> String {
        (error as? Realm.Error)?.message ?? "\(error)"
    }
}
