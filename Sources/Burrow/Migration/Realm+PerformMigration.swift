import Foundation

extension Realm {
    /// Runs `configuration`'s migration on its file now, without keeping a realm open, so that
    /// a program chooses when the work happens; opening a realm migrates by itself otherwise.
    ///
    /// ```swift
    /// var configuration = Realm.Configuration(fileURL: url, schemaVersion: 2)
    /// configuration.migrationBlock = { migration, oldVersion in /* … */ }
    /// try Realm.performMigration(for: configuration)
    /// ```
    /// - Throws: ``Realm/Error`` as ``Realm/init(configuration:queue:)`` does: a schema that
    ///   needs a higher version, or a migration that leaves primary keys duplicate
    ///   (`schemaMismatch`); a file that is not Burrow's or a wrong key (`invalidDatabase`).
    public static func performMigration(for configuration: Realm.Configuration = .defaultConfiguration) throws {
        // Opening migrates (or, under deleteRealmIfMigrationNeeded, starts the file anew); the
        // realm is let go at once.
        _ = try Realm(configuration: configuration)
    }
}
