import Foundation

extension Realm {
    /// Where a realm lives and how to open it.
    ///
    /// ```swift
    /// var config = Realm.Configuration()
    /// config.fileURL = directory.appendingPathComponent("users.realm")
    /// config.objectTypes = [Person.self, Dog.self]
    /// Realm.Configuration.defaultConfiguration = config
    /// let realm = try Realm()
    /// ```
    public struct Configuration: Sendable {
        private static let storedDefault = DefaultConfigurationBox()

        /// The configuration `Realm()` uses: `default.realm` in ``defaultDirectory`` unless set.
        public static var defaultConfiguration: Configuration {
            get { storedDefault.value ?? Configuration() }
            set { storedDefault.value = newValue }
        }

        /// The folder of the default file: `$BURROW_HOME` if set, else
        /// `$XDG_DATA_HOME/burrow`, else `~/.local/share/burrow`. Created when first opened.
        public static var defaultDirectory: URL {
            let environment = ProcessInfo.processInfo.environment
            if let home = environment["BURROW_HOME"], !home.isEmpty {
                return URL(fileURLWithPath: home, isDirectory: true)
            }
            if let data = environment["XDG_DATA_HOME"], !data.isEmpty {
                return URL(fileURLWithPath: data, isDirectory: true).appendingPathComponent("burrow", isDirectory: true)
            }
            return FileManager.default.homeDirectoryForCurrentUser
                .appendingPathComponent(".local/share/burrow", isDirectory: true)
        }

        private var storedFileURL: URL?
        private var storedInMemoryIdentifier: String?

        /// The file of the realm. Setting it clears ``inMemoryIdentifier``.
        public var fileURL: URL? {
            get { storedFileURL }
            set {
                storedFileURL = newValue
                if newValue != nil { storedInMemoryIdentifier = nil }
            }
        }

        /// The name of an in-memory realm, shared by every instance in this process that uses it
        /// and gone when the last one is released. Setting it clears ``fileURL``.
        public var inMemoryIdentifier: String? {
            get { storedInMemoryIdentifier }
            set {
                storedInMemoryIdentifier = newValue
                if newValue != nil { storedFileURL = nil }
            }
        }

        /// The 64-byte key the file is encrypted with, or `nil` for a file that is not encrypted.
        ///
        /// ```swift
        /// var random = SystemRandomNumberGenerator()   // keep the key: nothing recovers it
        /// let key = Data((0..<64).map { _ in UInt8.random(in: .min ... .max, using: &random) })
        /// let realm = try Realm(configuration: .init(fileURL: url, encryptionKey: key))
        /// ```
        ///
        /// A new file is created encrypted with this key; an existing one opens only with the key
        /// it was created with. Every object, collection element, index key and the schema are
        /// sealed (see <doc:Encryption> for what is protected and what is not). Opening
        /// throws ``Realm/Error`` `invalidDatabase` for a wrong key, for no key on an encrypted
        /// file, for a key on a file that is not encrypted, and (where RealmSwift traps) for a key
        /// that is not 64 bytes long.
        public var encryptionKey: Data?
        /// Open without writing: the file must exist, and writes trap.
        public var readOnly: Bool
        /// The version of the model classes; stored in the file. Opening a file of a lower
        /// version migrates it (see ``migrationBlock``).
        public var schemaVersion: UInt64
        /// Called once when the realm opens a file of a lower ``schemaVersion``, to move its data
        /// to the new schema (see ``Migration``); added and removed properties need no block.
        ///
        /// ```swift
        /// config.migrationBlock = { migration, oldSchemaVersion in
        ///     if oldSchemaVersion < 1 { migration.renameProperty(onType: "Dog", from: "nick", to: "name") }
        /// }
        /// ```
        public var migrationBlock: MigrationBlock?
        /// The classes this realm stores, with the classes they link to; `nil` means every
        /// class used with it. Listing them checks their schema against the file when the realm
        /// opens, and any other model class traps where it is read or written ("Object type
        /// 'Dog' is not managed by the Realm."), as in RealmSwift.
        public var objectTypes: [ObjectBase.Type]?
        /// Whether a file whose schema differs from the model classes (or whose schema version
        /// differs from ``schemaVersion``, higher or lower) is deleted and created anew at open,
        /// instead of the open throwing `schemaMismatch` or migrating it: for data that is only
        /// a cache. The ``migrationBlock`` is then never called.
        ///
        /// ```swift
        /// config.deleteRealmIfMigrationNeeded = true
        /// ```
        /// The file is not deleted while another realm of this or another process has it open:
        /// the open then throws `fileOperationFailed`.
        public var deleteRealmIfMigrationNeeded: Bool
        /// Largest size the file may grow to, in bytes; `nil` lets it grow as needed.
        public var maximumFileSize: Int?
        /// Mode of every file Burrow creates for this realm, the lock file too, whatever the
        /// process's umask.
        public var filePermissions: mode_t
        /// A realm file copied in as the realm's file when that does not exist yet, as a
        /// starting set of data shipped with a program.
        ///
        /// ```swift
        /// config.seedFilePath = Bundle.module.url(forResource: "starter", withExtension: "realm")
        /// ```
        public var seedFilePath: URL?
        /// The most versions the file may have to keep at once; `nil`: no limit.
        ///
        /// ```swift
        /// config.maximumNumberOfActiveVersions = 1_000
        /// ```
        /// LMDB keeps a version's pages until no reader reads it or anything older, so the
        /// versions to keep are all those from the oldest one a reader holds (a realm that is
        /// not refreshed, a frozen value, in any process) to the newest. A commit that would
        /// make more than this many throws ``Realm/Error/Code/limitExceeded``, naming the
        /// readers that hold the oldest versions, and opening a realm while there are more
        /// throws too: the file cannot grow without bound behind a forgotten reader.
        public var maximumNumberOfActiveVersions: UInt?
        /// The size of the map the file starts with when it has no `maximumFileSize` (LMDB's
        /// virtual reservation, 64 GiB by default, grown when writes near it): small in tests,
        /// to make the map grow many times.
        var initialMapSize: Int?
        /// Whether a new unencrypted file's rows and collection entries carry checksums (file
        /// format 4, the default); `false` creates a file of format 3, without them, to measure
        /// what they cost. A file that exists keeps its format.
        @_spi(Benchmarks) public var createsRowChecksums = true
        /// Whether opening checks the file's schema against the model classes (and migrates it):
        /// not when only the file's schema version is wanted.
        var checksSchema = true
        /// Asked at the first open of the file in the process, with the file's size and the
        /// bytes its data uses (both in bytes); when it returns `true` the file is replaced by
        /// a compacted copy, unless another process has it open. Not asked for read-only or
        /// in-memory realms.
        ///
        /// ```swift
        /// config.shouldCompactOnLaunch = { total, used in total > 100 << 20 && used * 2 < total }
        /// ```
        public var shouldCompactOnLaunch: (@Sendable (_ totalBytes: Int, _ usedBytes: Int) -> Bool)?
        /// Called once with every file and folder an open creates for the realm (the folder
        /// first, then the data and lock files), after they take ``filePermissions``: to set
        /// ownership, extended attributes or backup exclusions. A throw fails the open, which
        /// removes what it created and rethrows the error.
        ///
        /// ```swift
        /// config.fileCreationHook = { url in try FileManager.default.setAttributes([.groupOwnerAccountName: "app"], ofItemAtPath: url.path) }
        /// ```
        public var fileCreationHook: (@Sendable (URL) throws -> Void)?

        /// How the realm syncs with a PostgreSQL server of record; `nil` (the default) for a
        /// realm that stays on this machine.
        ///
        /// ```swift
        /// config.syncConfiguration = SyncConfiguration(server: "postgresql://ana@db.internal/tasks")
        /// ```
        public var syncConfiguration: SyncConfiguration?

        /// A configuration; every argument has RealmSwift's default, and they come in
        /// RealmSwift's order, Burrow's own (`maximumFileSize`, `filePermissions`) last.
        ///
        /// ```swift
        /// let config = Realm.Configuration(fileURL: url, schemaVersion: 2,
        ///                                  shouldCompactOnLaunch: { total, used in used * 2 < total },
        ///                                  objectTypes: [Dog.self, Person.self])
        /// ```
        public init(fileURL: URL? = nil,
                    inMemoryIdentifier: String? = nil,
                    syncConfiguration: SyncConfiguration? = nil,
                    encryptionKey: Data? = nil,
                    readOnly: Bool = false,
                    schemaVersion: UInt64 = 0,
                    migrationBlock: MigrationBlock? = nil,
                    deleteRealmIfMigrationNeeded: Bool = false,
                    shouldCompactOnLaunch: (@Sendable (_ totalBytes: Int, _ usedBytes: Int) -> Bool)? = nil,
                    objectTypes: [ObjectBase.Type]? = nil,
                    seedFilePath: URL? = nil,
                    maximumFileSize: Int? = nil,
                    filePermissions: mode_t = 0o644) {
            if let inMemoryIdentifier {
                storedInMemoryIdentifier = inMemoryIdentifier
            } else {
                storedFileURL = fileURL ?? Self.defaultDirectory.appendingPathComponent("default.realm")
            }
            self.encryptionKey = encryptionKey
            self.readOnly = readOnly
            self.schemaVersion = schemaVersion
            self.migrationBlock = migrationBlock
            self.deleteRealmIfMigrationNeeded = deleteRealmIfMigrationNeeded
            self.shouldCompactOnLaunch = shouldCompactOnLaunch
            self.syncConfiguration = syncConfiguration
            self.objectTypes = objectTypes
            self.seedFilePath = seedFilePath
            self.maximumFileSize = maximumFileSize
            self.filePermissions = filePermissions
        }

        /// The identity of the realm in this process: its file path, or its in-memory name.
        var identity: String {
            if let storedInMemoryIdentifier { return "memory:" + storedInMemoryIdentifier }
            return "file:" + (storedFileURL?.standardizedFileURL.path ?? "")
        }
    }
}

/// The process-wide default configuration, behind a lock.
private final class DefaultConfigurationBox: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Realm.Configuration?

    var value: Realm.Configuration? {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}
