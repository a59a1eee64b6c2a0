import Foundation
import LMDB

/// Bringing a file's stored schema to the program's model classes when the file opens: the
/// schema version is checked, added and removed indexes are applied, and a higher schema
/// version runs the migration (with the configuration's block) in one write transaction.
enum SchemaMigration {
    /// The catalog to open the file with, after whatever the open had to change.
    ///
    /// - Throws: ``Realm/Error``: `schemaMismatch` for a lower schema version, for a changed
    ///   schema at the same version (listing every difference), for a read-only file that needs
    ///   a migration, for any file that needs one under `deleteRealmIfMigrationNeeded` (the open
    ///   then deletes it), and for primary keys left duplicate by a migration; the errors of
    ///   writing.
    static func apply(environment: Environment, metadata: MetadataStore, catalog: Catalog,
                      configuration: Realm.Configuration) throws -> Catalog {
        guard configuration.checksSchema else { return catalog }
        let path = environment.path, url = URL(fileURLWithPath: environment.path)
        let probe = try environment.beginReadTransaction()
        let storedVersion = try metadata.schemaVersion(in: probe)
        probe.abort()
        if storedVersion > configuration.schemaVersion {
            throw Realm.Error(.schemaMismatch,
                              "Provided schema version \(configuration.schemaVersion) is less than last set version \(storedVersion).",
                              fileURL: url)
        }
        let plan = MigrationPlan(stored: catalog.schema, models: models(for: configuration, stored: catalog.schema),
                                 encrypted: environment.isEncrypted)
        let raisesVersion = storedVersion < configuration.schemaVersion
        // With deleteRealmIfMigrationNeeded a file that would need a migration (another schema,
        // or another version) is never migrated: the open deletes it and starts anew, as in
        // RealmSwift, whatever the version.
        if configuration.deleteRealmIfMigrationNeeded && !configuration.readOnly && (raisesVersion || !plan.differences.isEmpty) {
            let reasons = plan.differences.isEmpty ? ["- The schema version changes from \(storedVersion) to \(configuration.schemaVersion)."] : plan.differences
            throw Realm.Error(.schemaMismatch, SchemaDifferences(lines: reasons).message(path: path), fileURL: url)
        }
        if !plan.differences.isEmpty && (!raisesVersion || configuration.readOnly) {
            throw Realm.Error(.schemaMismatch, SchemaDifferences(lines: plan.differences).message(path: path), fileURL: url)
        }
        // A read-only realm reads the model's names without writing them.
        if configuration.readOnly { return plan.renamingInMemory(catalog) }
        guard raisesVersion || plan.adjustsAtOpen else { return catalog }
        Logger.log(.detail, "DB: \(getpid()) Migrate from schema version \(storedVersion) to \(configuration.schemaVersion)"
                   + " (\(plan.differences.count) change(s)): \(path)")
        let run = try MigrationRun(environment: environment, metadata: metadata, catalog: catalog, plan: plan)
        do {
            try run.prepare()
            if raisesVersion, let block = configuration.migrationBlock {
                block(Migration(run: run), storedVersion)
                run.endBlock()
            }
            if let failure = run.failure { throw failure }
            try run.finish(schemaVersion: configuration.schemaVersion)
        } catch {
            run.abort()
            throw converted(error, path: path)
        }
        let reader = try environment.beginReadTransaction()
        let migrated = try CatalogStore.read(in: reader, metadata: metadata)
        try reader.commit()  // keeps the database handles it opened
        return migrated
    }

    /// The model classes to bring the file to: the declared ones, or without
    /// ``Realm/Configuration/objectTypes`` each model class of the program that alone bears a
    /// stored class's name (a name two models share is checked when one of them is first used).
    static func models(for configuration: Realm.Configuration, stored: StoredSchema) -> [ClassInfo] {
        if let declared = configuration.objectTypes { return ClassInfo.closure(of: declared) }
        let storedNames = Set(stored.classes.map(\.name))
        let candidates = Dictionary(grouping: ModelDiscovery.modelTypes.filter { storedNames.contains(ClassInfo.storedName(of: $0)) },
                                    by: ClassInfo.storedName(of:))
        return candidates.values.compactMap { $0.count == 1 ? ClassInfo.of($0[0]) : nil }
    }

    private static func converted(_ error: any Error, path: String) -> any Error {
        Realm.Error(translating: error, path: path, operation: .migrate)
    }
}
