import Foundation

extension Realm {
    /// The coordinator of `configuration`'s file, its stored classes checked against the model
    /// classes: the declared ones, or without ``Configuration/objectTypes`` each model class
    /// of the program that alone bears a stored class's name (a name two models share is
    /// checked when one of them is first used). With
    /// ``Configuration/deleteRealmIfMigrationNeeded``, a file that would need a migration is
    /// deleted and opened anew.
    ///
    /// - Throws: ``Realm/Error``: `schemaMismatch` listing every difference (or when the file is
    ///   open in this process at another schema version), `fileOperationFailed`
    ///   when the file to delete is open elsewhere, and whatever opening the file throws.
    static func checkedCoordinator(for configuration: Configuration) throws -> Coordinator {
        do {
            let coordinator = try CoordinatorRegistry.coordinator(for: configuration)
            let version = coordinator.catalog.schemaVersion
            if version != configuration.schemaVersion && !(configuration.readOnly && version < configuration.schemaVersion) {
                // Opened by another configuration of this process, which did or did not migrate it.
                throw openedAtAnotherVersion(coordinator.path, version: version, asked: configuration.schemaVersion)
            }
            try coordinator.verify(SchemaMigration.models(for: configuration, stored: coordinator.catalog.schema))
            return coordinator
        } catch let error as Realm.Error where error.code == .schemaMismatch && configuration.deleteRealmIfMigrationNeeded {
            // The coordinator above is released by now, unless another realm has the file open,
            // in which case the deletion refuses.
            try Realm.deleteFiles(for: configuration)
            return try CoordinatorRegistry.coordinator(for: configuration)
        }
    }

    /// The error of opening a file this process has open at schema version `version` with
    /// another one, `asked`.
    static func openedAtAnotherVersion(_ path: String, version: UInt64, asked: UInt64) -> Realm.Error {
        Realm.Error(.schemaMismatch,
                    "Realm at path '\(path)' already opened with different schema version: it has version \(version), not \(asked).",
                    fileURL: URL(fileURLWithPath: path))
    }
}
