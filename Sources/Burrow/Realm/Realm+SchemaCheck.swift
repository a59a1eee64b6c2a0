extension Realm {
    /// The coordinator of `configuration`'s file, its stored classes checked against the model
    /// classes: the declared ones, or without ``Configuration/objectTypes`` each model class
    /// of the program that alone bears a stored class's name (a name two models share is
    /// checked when one of them is first used). With
    /// ``Configuration/deleteRealmIfMigrationNeeded``, a file that would need a migration is
    /// deleted and opened anew.
    ///
    /// - Throws: ``Realm/Error``: `schemaMismatch` listing every difference, `fileOperationFailed`
    ///   when the file to delete is open elsewhere, and whatever opening the file throws.
    static func checkedCoordinator(for configuration: Configuration) throws -> Coordinator {
        do {
            let coordinator = try CoordinatorRegistry.coordinator(for: configuration)
            try coordinator.verify(models(for: configuration, storedBy: coordinator))
            return coordinator
        } catch let error as Realm.Error where error.code == .schemaMismatch && configuration.deleteRealmIfMigrationNeeded {
            // The coordinator above is released by now, unless another realm has the file open,
            // in which case the deletion refuses.
            try Realm.deleteFiles(for: configuration)
            return try CoordinatorRegistry.coordinator(for: configuration)
        }
    }

    /// The model classes to check the file's stored classes against.
    private static func models(for configuration: Configuration, storedBy coordinator: Coordinator) -> [ClassInfo] {
        if let declared = configuration.objectTypes { return ClassInfo.closure(of: declared) }
        let storedNames = Set(coordinator.catalog.schema.classes.map(\.name))
        let candidates = Dictionary(grouping: ModelDiscovery.modelTypes.filter { storedNames.contains(ClassInfo.storedName(of: $0)) },
                                    by: ClassInfo.storedName(of:))
        return candidates.values.compactMap { $0.count == 1 ? ClassInfo.of($0[0]) : nil }
    }
}
