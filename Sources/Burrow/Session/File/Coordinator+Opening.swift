import Foundation
import LMDB

/// Opening a realm's file: where it lives, the LMDB environment, the metadata of a new file, and
/// the checks that a file is Burrow's, of a version this build reads, at no newer schema version.
extension Coordinator {
    static func openFile(_ file: FileOptions) throws -> Coordinator {
        let isInMemory = file.inMemoryIdentifier != nil
        let (path, createdFolder) = try prepareLocation(file)
        let url = URL(fileURLWithPath: path)
        let lockPath = path + "-lock"
        let lockExisted = FileManager.default.fileExists(atPath: lockPath)
        // Read before a seed is copied in: a seeded file is one this open created.
        let dataExisted = FileManager.default.fileExists(atPath: path)
        if file.readOnly && !dataExisted {
            throw Realm.Error(.fileNotFound, "Failed to open Realm file at path '\(path)': No such file or directory", fileURL: url)
        }
        let cipher = try cipher(for: file.encryptionKey, path: path)
        if !isInMemory { try file.copySeedIfNeeded(to: path) }
        var options = Environment.Options()
        // Unencrypted: the checksums, idle until the file's header says it has them.
        options.sealer = cipher ?? RecordChecksums(active: false)
        options.readOnly = file.readOnly
        // A read-only open looks at the file and leaves the lock file's other slots as they
        // are (`burrow info` shows stale ones); writers clear slots of dead processes.
        options.clearsStaleReaders = !file.readOnly
        options.noSync = isInMemory
        options.fileMode = file.filePermissions
        if let limit = file.maximumFileSize {
            options.mapSize = limit
        } else if let initial = file.initialMapSize {
            options.mapSize = initial
        }
        let firstInProcess = !Environment.isOpen(path: path)
        let result = Result { () throws -> Coordinator in
            func openEnvironment() throws -> Environment {
                switch Result(catching: { () throws(LMDBError) in try Environment.open(path: path, options: options) }) {
                case .success(let opened): return opened
                case .failure(let error): throw Realm.Error(translating: error, path: path, operation: .open)
                }
            }
            var opened: Environment? = try openEnvironment()
            if let decide = file.shouldCompactOnLaunch, firstInProcess, dataExisted, !isInMemory, !file.readOnly,
               FileCompactor.compactIfAsked(opened!, path: path, decide: decide) {
                // Closed before opening again: the file may be the same one.
                opened = nil
                opened = try openEnvironment()
            }
            let environment = opened!
            try verifyKey(cipher, of: environment)
            try announceCreated(folder: createdFolder, data: dataExisted ? nil : path, lock: lockExisted ? nil : lockPath,
                                file: file)
            let (metadata, catalog) = try loadCatalog(environment, file: file)
            let coordinator = Coordinator(catalogs: CatalogStore(environment: environment, metadata: metadata, catalog: catalog),
                                          isInMemory: isInMemory, isReadOnly: file.readOnly,
                                          mapLimit: file.maximumFileSize, inMemoryIdentifier: file.inMemoryIdentifier)
            do {
                try coordinator.journalIfSynced()
            } catch {
                throw Realm.Error(translating: error, path: path, operation: .open)
            }
            Logger.log(.detail, "DB: \(getpid()) Open file\(dataExisted ? "" : " (created)")\(file.readOnly ? " read-only" : ""): \(path)")
            return coordinator
        }
        if case .failure = result {
            // Leave a file that is not ours exactly as it was: remove only what we created.
            if !lockExisted && !Environment.isOpen(path: path) { unlink(lockPath) }
            if !dataExisted && !isInMemory { unlink(path) }
            if let createdFolder { rmdir(createdFolder.path) }
        }
        return try result.get()
    }

    /// Gives the files and folder this open created the configured mode (whatever the
    /// process's umask) and hands each to `fileCreationHook`, folder first.
    private static func announceCreated(folder: URL?, data: String?, lock: String?, file: FileOptions) throws {
        let created = [data, lock].compactMap { $0 }
        for path in created { chmod(path, file.filePermissions) }
        guard let hook = file.fileCreationHook else { return }
        for url in [folder].compactMap({ $0 }) + created.map({ URL(fileURLWithPath: $0) }) { try hook(url) }
    }

    /// The data file's path, and the folder created for it (the default folder, when missing).
    private static func prepareLocation(_ file: FileOptions) throws -> (String, URL?) {
        if let identifier = file.inMemoryIdentifier {
            let shm = "/dev/shm"
            let folder = access(shm, W_OK) == 0 ? shm : NSTemporaryDirectory()
            var hasher = FNV1a()
            hasher.add(identifier.utf8)
            let name = "burrow-memory-\(getpid())-\(String(hasher.value, radix: 16)).realm"
            let path = URL(fileURLWithPath: folder).appendingPathComponent(name).path
            unlink(path)
            unlink(path + "-lock")
            return (path, nil)
        }
        guard let url = file.fileURL else {
            throw Realm.Error(.fail, "The configuration has neither a fileURL nor an inMemoryIdentifier.")
        }
        let folder = url.deletingLastPathComponent()
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder), !isFolder.boolValue {
            throw Realm.Error.notADirectory(url.path)
        }
        var createdFolder: URL?
        if !FileManager.default.fileExists(atPath: folder.path) {
            let defaultFolder = file.defaultDirectory.standardizedFileURL.path
            guard folder.standardizedFileURL.path == defaultFolder, !file.readOnly else {
                throw Realm.Error(.fileNotFound, "Failed to open Realm file at path '\(url.path)': No such file or directory", fileURL: url)
            }
            do {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                createdFolder = folder
            } catch {
                throw Realm.Error(.fileAccess, "Cannot create the folder '\(folder.path)': \(error.localizedDescription)", fileURL: url)
            }
        }
        return (url.standardizedFileURL.path, createdFolder)
    }

    /// Reads (or, for a new file, writes) the metadata, and opens every class's databases.
    private static func loadCatalog(_ environment: Environment, file: FileOptions) throws -> (MetadataStore, Catalog) {
        let path = environment.path
        do {
            return try readOrInitializeCatalog(environment, file: file)
        } catch {
            throw Realm.Error(translating: error, path: path, operation: .open)
        }
    }

    private static func readOrInitializeCatalog(_ environment: Environment, file: FileOptions) throws -> (MetadataStore, Catalog) {
        let path = environment.path
        let url = URL(fileURLWithPath: path)
        let probe = try environment.beginReadTransaction()
        let isNew = try probe.count(in: probe.openDatabase(named: nil)) == 0
        probe.abort()
        if isNew {
            guard !file.readOnly else {
                throw Realm.Error(.invalidDatabase, "Failed to open Realm file at path '\(path)': the file is empty, not a Burrow file.", fileURL: url)
            }
            try initialize(environment, schemaVersion: file.schemaVersion,
                           formatVersion: file.createsRowChecksums ? FileHeader.formatVersion : FileHeader.firstVersionWithChecksums - 1)
        }
        let txn = try environment.beginReadTransaction()
        guard case .burrow(let metadata) = try MetadataStore.open(in: txn, path: path) else {
            throw Realm.Error(.invalidDatabase, "Failed to open Realm file at path '\(path)': an LMDB file, but not a Burrow file.", fileURL: url)
        }
        switch try metadata.header(in: txn) {
        case .valid: try verifyKey(of: metadata, in: txn, path: path)
        case .notBurrow:
            throw Realm.Error(.invalidDatabase, "Failed to open Realm file at path '\(path)': not a Burrow file.", fileURL: url)
        case .unsupportedVersion(let version):
            throw Realm.Error(.unsupportedFileFormatVersion,
                              "'\(path)' has file format version \(version); this build reads versions "
                                  + "\(FileHeader.readableVersions.lowerBound) to \(FileHeader.readableVersions.upperBound).",
                              fileURL: url)
        }
        let hasChecksums = try metadata.hasChecksums(in: txn)
        try txn.commit()  // keeps the metadata's database handle
        // Before the tables' databases are opened: their handles say whether values are checked.
        if hasChecksums { environment.recordChecksums?.activate() }
        let tables = try environment.beginReadTransaction()
        let catalog = try CatalogStore.read(in: tables, metadata: metadata)
        try tables.commit()  // keeps the database handles opened by this transaction
        return (metadata, try file.migrate(environment, metadata, catalog))
    }

    /// Checks that `cipher` (from the options' key) is the one `environment` was opened
    /// with in this process: one environment serves every realm of a file.
    ///
    /// - Throws: ``Realm/Error`` `invalidDatabase` when they differ.
    static func verifyKey(_ cipher: FileCipher?, of environment: Environment) throws {
        try verifyKey(fingerprint: cipher?.fingerprint, of: environment)
    }

    /// Checks that `key` (the options') is the one `environment` was opened with.
    ///
    /// - Throws: ``Realm/Error`` `invalidDatabase` when they differ, or the key is not 64 bytes long.
    static func verifyKey(_ key: Data?, of environment: Environment) throws {
        try verifyKey(fingerprint: cipher(for: key, path: environment.path)?.fingerprint, of: environment)
    }

    /// The cipher of `key` for the file at `path`; `nil` without a key.
    ///
    /// - Throws: ``Realm/Error`` `invalidDatabase` when the key is not 64 bytes long.
    static func cipher(for key: Data?, path: String) throws(Realm.Error) -> FileCipher? {
        do {
            return try key.map { key throws(StorageError) in try FileCipher(key: key, path: path) }
        } catch {
            throw Realm.Error(translating: error, path: path, operation: .open)
        }
    }

    private static func verifyKey(fingerprint: [UInt8]?, of environment: Environment) throws {
        let opened = environment.options.sealer as? FileCipher
        guard fingerprint != opened?.fingerprint else { return }
        let path = environment.path
        let reason = switch (fingerprint, opened) {
        case (nil, _): "the file is open in this process with an encryption key, and none was given"
        case (_, nil): "the file is open in this process without encryption, and a key was given"
        default: "the file is open in this process with another encryption key"
        }
        throw Realm.Error(.invalidDatabase, "Failed to open Realm file at path '\(path)': \(reason).", fileURL: URL(fileURLWithPath: path))
    }

    /// Checks the environment's key (or its lack) against the file's key check.
    private static func verifyKey(of metadata: MetadataStore, in txn: Transaction, path: String) throws {
        let reason: String
        switch try metadata.keyVerdict(in: txn) {
        case .matches: return
        case .missing: reason = "the file is encrypted, and no encryption key was given"
        case .unexpected: reason = "the file is not encrypted, and an encryption key was given"
        case .wrong: reason = "the encryption key is not the file's (or the file's key check is damaged)"
        }
        throw Realm.Error(.invalidDatabase, "Failed to open Realm file at path '\(path)': \(reason).", fileURL: URL(fileURLWithPath: path))
    }

    private static func initialize(_ environment: Environment, schemaVersion: UInt64, formatVersion: UInt32) throws {
        let txn = try environment.beginTransaction()
        // Another process may have initialised the file since we looked.
        if try txn.count(in: txn.openDatabase(named: nil)) != 0 {
            txn.abort()
            return
        }
        try MetadataStore.initialize(in: txn, schemaVersion: schemaVersion, formatVersion: formatVersion)
        try txn.commit()
    }
}
