import Foundation
import LMDB

extension Realm {
    /// Writes a compacted copy of the realm's latest committed version to `fileURL`, which
    /// must not exist: free pages are left out, so the copy is as small as the data.
    ///
    /// ```swift
    /// try realm.writeCopy(toFile: backups.appendingPathComponent("today.realm"))
    /// ```
    ///
    /// With the realm's own key (or none, for both), the copy is written with LMDB's own copy
    /// (`mdb_env_copyfd2`, compacting) under a read transaction, so writers elsewhere go on
    /// meanwhile. With another key, to add or remove encryption, or from an unencrypted file
    /// written before rows had checksums, every record is read in the clear and stored again
    /// under the copy's key or with its checksum (set and map entries keyed anew, indexes
    /// rebuilt; the change log is left out). A failed copy leaves no file. Traps inside a write
    /// transaction, whose changes the copy could not include.
    ///
    /// ```swift
    /// try realm.writeCopy(toFile: plainURL)                          // decrypted
    /// try realm.writeCopy(toFile: sealedURL, encryptionKey: newKey)  // encrypted with newKey
    /// ```
    ///
    /// - Parameter encryptionKey: the copy's 64-byte key; `nil` for a copy that is not encrypted.
    /// - Throws: ``Realm/Error`` `fileExists` when `fileURL` exists, `fileNotFound` when its
    ///   folder does not, `outOfDiskSpace`, `fileAccess`; `invalidDatabase` for a key that is
    ///   not 64 bytes long, or damage met while re-encrypting.
    public func writeCopy(toFile fileURL: URL, encryptionKey: Data? = nil) throws {
        core.verifyThread()
        burrowPrecondition(core.writeState == nil, "Cannot write a copy of a Realm in a write transaction: commit or cancel it first.")
        let path = fileURL.standardizedFileURL.path
        let environment = core.coordinator.environment
        do {
            let cipher = try encryptionKey.map { try FileCipher(key: $0, path: path) }
            // A file from before checksums (format 3) is copied record by record, into the current format.
            let currentFormat = environment.isEncrypted || environment.recordChecksums?.isActive == true
            if cipher?.fingerprint == (environment.options.sealer as? FileCipher)?.fingerprint && currentFormat {
                try environment.copy(to: path, compact: true)
            } else {
                let copy = RekeyedCopy(source: environment, catalog: core.coordinator.catalogs.catalog, metadata: core.coordinator.metadata)
                try copy.write(to: path, cipher: cipher, mode: configuration.filePermissions)
            }
        } catch {
            throw Error(translating: error, path: path, operation: .writeCopy)
        }
    }
}

extension Realm {
    /// Writes a compacted copy of the realm's latest committed version to the file
    /// `configuration` names, encrypted with its key (or not, without one); the file must not
    /// exist. As RealmSwift's, this converts between local and synced files: with a
    /// `syncConfiguration`, the copy records every object it holds for upload, so that
    /// opening it with that configuration uploads them all (under a client id of its own); without
    /// one, the copy is a local file, leaving out a synced file's sync state.
    ///
    /// ```swift
    /// var synced = Realm.Configuration(fileURL: syncedURL, objectTypes: [Task.self])
    /// synced.syncConfiguration = SyncConfiguration(server: "postgresql://ana@db.internal/tasks")
    /// try local.writeCopy(configuration: synced)       // a local file's objects will upload
    /// let realm = try Realm(configuration: synced)
    /// ```
    ///
    /// The copy is written record by record, with its indexes rebuilt and no change log. Traps
    /// inside a write transaction, and for a configuration without a `fileURL` (an
    /// `inMemoryIdentifier`).
    ///
    /// - Throws: ``Realm/Error`` `fileExists` when the file exists, `fileNotFound` when its
    ///   folder does not, `outOfDiskSpace`, `fileAccess`; `invalidDatabase` for a key that is
    ///   not 64 bytes long, or damage met in this file; ``SyncError`` `missingPrimaryKey` with a
    ///   `syncConfiguration` when a class has no primary key.
    public func writeCopy(configuration: Realm.Configuration) throws {
        core.verifyThread()
        burrowPrecondition(core.writeState == nil, "Cannot write a copy of a Realm in a write transaction: commit or cancel it first.")
        guard let fileURL = configuration.fileURL, configuration.inMemoryIdentifier == nil else {
            burrowPreconditionFailure("writeCopy(configuration:) writes a file: give the configuration a fileURL, not an inMemoryIdentifier.")
        }
        let forSync = configuration.syncConfiguration != nil
        if forSync { try SyncSessionRegistry.checkSyncable(schema) }
        let path = fileURL.standardizedFileURL.path
        do {
            let cipher = try configuration.encryptionKey.map { try FileCipher(key: $0, path: path) }
            let coordinator = core.coordinator
            try RekeyedCopy(source: coordinator.environment, catalog: coordinator.catalogs.catalog, metadata: coordinator.metadata)
                .write(to: path, cipher: cipher, mode: configuration.filePermissions, forSync: forSync)
        } catch {
            throw Error(translating: error, path: path, operation: .writeCopy)
        }
    }
}

extension Realm.Configuration {
    /// What the engine needs of the configuration to open its file, with the schema check
    /// and migration it asks for.
    var fileOptions: FileOptions {
        FileOptions(fileURL: fileURL, defaultDirectory: Self.defaultDirectory, inMemoryIdentifier: inMemoryIdentifier, readOnly: readOnly, encryptionKey: encryptionKey,
                    filePermissions: filePermissions, maximumFileSize: maximumFileSize, initialMapSize: initialMapSize,
                    createsRowChecksums: createsRowChecksums,
                    schemaVersion: schemaVersion, maximumNumberOfActiveVersions: maximumNumberOfActiveVersions,
                    seedFilePath: seedFilePath, shouldCompactOnLaunch: shouldCompactOnLaunch, fileCreationHook: fileCreationHook,
                    migrate: { [self] environment, metadata, catalog in
                        try SchemaMigration.apply(environment: environment, metadata: metadata, catalog: catalog, configuration: self)
                    })
    }
}
