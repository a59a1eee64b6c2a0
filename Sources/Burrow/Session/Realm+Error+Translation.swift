import Foundation
import LMDB

extension Realm.Error {
    /// Translates a failure met doing `operation` on the file at `path` into the category a
    /// Realm user handles; every storage and LMDB error reaches the API through here.
    ///
    /// A ``Realm/Error`` is kept. LMDB's codes become RealmSwift's; opening failures read as
    /// RealmSwift's ("Failed to open Realm file at path '…': No such file or directory"); a
    /// full map while writing is `maximumFileSize` when there is one (the map is that size),
    /// and a short write on a full filesystem is a full disk. Damage and keys that cannot be
    /// keys are `invalidDatabase`. Anything else is `invalidDatabase` while reading (a record
    /// that does not decode) and `fail` while writing.
    init(translating error: any Swift.Error, path: String, operation: FileOperation, maximumFileSize: Int? = nil) {
        switch error {
        case let error as Realm.Error:
            self = error
        case let error as LMDBError:
            self.init(error, path: path, operation: operation, maximumFileSize: maximumFileSize)
        case let error as StorageError:
            switch error.kind {
            case .damaged: self.init(.invalidDatabase, "Cannot read '\(path)': \(error.description)", fileURL: URL(fileURLWithPath: path))
            case .invalidKey: self.init(.invalidDatabase, error.description, fileURL: URL(fileURLWithPath: path))
            }
        default:
            self.init(operation.writesFile ? .fail : .invalidDatabase, "Cannot \(operation.action) '\(path)': \(error)",
                      fileURL: URL(fileURLWithPath: path))
        }
    }

    private init(_ error: LMDBError, path: String, operation: FileOperation, maximumFileSize: Int?) {
        let url = URL(fileURLWithPath: path)
        let action = operation.action
        if operation == .open, let opening = Self.openingFailure(error, path: path) {
            self = opening
            return
        }
        if operation.writesFile, let failure = Self.writeFailure(error, path: path, action: action, maximumFileSize: maximumFileSize) {
            self = failure
            return
        }
        let detail = "\(action) '\(path)': \(error.description)"
        switch error {
        case .noSuchFile: self.init(.fileNotFound, "Cannot \(detail)", fileURL: url)
        case .permissionDenied, LMDBError(code: EPERM), LMDBError(code: EROFS):
            self.init(.filePermissionDenied, "Permission denied to \(detail)", fileURL: url)
        case .invalid, .corrupted, .pageNotFound, .panic, .pastEndOfFile, .damagedPage:
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

    /// The error of a failed write, when the file's size limit or a full disk explains it.
    private static func writeFailure(_ error: LMDBError, path: String, action: String, maximumFileSize: Int?) -> Realm.Error? {
        let url = URL(fileURLWithPath: path)
        if error == .mapFull, let limit = maximumFileSize {
            return Realm.Error(.limitExceeded, "Cannot \(action) '\(path)': the write would take the file past its maximumFileSize of \(limit) bytes.",
                               fileURL: url)
        }
        // LMDB reports a short write as EIO: on a filesystem with no room left, that is a full disk.
        if error == LMDBError(code: EIO), freeBytes(at: path).map({ $0 < 16 << 20 }) == true {
            return Realm.Error(.outOfDiskSpace, "Out of space: \(action) '\(path)': a short write, the disk is full.", fileURL: url)
        }
        return nil
    }

    /// The bytes an unprivileged write can still take on the filesystem of `path`.
    private static func freeBytes(at path: String) -> Int? {
        var info = statvfs()
        guard statvfs(path, &info) == 0 else { return nil }
        return Int(info.f_bavail) * Int(info.f_frsize)
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
        case .invalid, .corrupted, .pageNotFound, .panic, .pastEndOfFile, .damagedPage:
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
    /// The message of `error`, for traps.
    static func message(of error: any Swift.Error) -> String {
        (error as? Realm.Error)?.message ?? "\(error)"
    }
}
