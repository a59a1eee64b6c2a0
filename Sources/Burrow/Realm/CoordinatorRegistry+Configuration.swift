/// The registry of open files, asked with a realm's configuration.
extension CoordinatorRegistry {
    /// The coordinator of `configuration`'s file, opening the file if this process has not.
    ///
    /// - Throws: ``Realm/Error`` from opening the file.
    static func coordinator(for configuration: Realm.Configuration) throws -> Coordinator {
        try coordinator(for: configuration.fileOptions)
    }

    /// Whether this process has the realm of `configuration` open.
    static func isOpen(_ configuration: Realm.Configuration) -> Bool {
        isOpen(configuration.fileOptions)
    }
}
