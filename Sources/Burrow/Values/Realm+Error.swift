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
            /// A write added an object whose primary key another object has (`.error` policy):
            /// nothing of the write was committed.
            case primaryKeyExists
            /// A write gave `create` a value that does not fit the property (a wrong type, a
            /// malformed collection or object): nothing of the write was committed.
            case invalidValue

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
                case .primaryKeyExists: "primaryKeyExists"
                case .invalidValue: "invalidValue"
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
        /// The code ``Code/primaryKeyExists``, for `catch Realm.Error.primaryKeyExists`.
        public static let primaryKeyExists = Code.primaryKeyExists
        /// The code ``Code/invalidValue``, for `catch Realm.Error.invalidValue`.
        public static let invalidValue = Code.invalidValue
    }
}

/// Lets `catch Realm.Error.fileNotFound` match a thrown ``Realm/Error`` by its code.
public func ~= (code: Realm.Error.Code, error: any Swift.Error) -> Bool {
    (error as? Realm.Error)?.code == code
}
