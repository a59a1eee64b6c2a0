import Foundation
import LMDB

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A realm: one database file (or in-memory store) seen from one thread, at one version.
///
/// ```swift
/// let realm = try Realm()
/// let puppies = realm.objects(Dog.self).filter("age < 2")
/// try realm.write { realm.add(Dog(value: ["name": "Rex", "age": 1])) }
/// puppies.count   // 1: results are live
/// ```
///
/// A realm reads a snapshot: commits from other threads and processes become visible after
/// ``refresh()`` or at the start of a write. `Realm()` returns the calling thread's cached
/// instance for the configuration (copies of a `Realm` value are the same realm). A realm and
/// its objects belong to the thread that opened them; using them from another thread traps.
public struct Realm: Equatable {
    private let handle: RealmHandle

    /// The realm's state, shared by every copy.
    var core: RealmCore { handle.session.core }

    /// A value for `core`, counting one more use of it.
    init(core: RealmCore) {
        handle = RealmHandle(RealmUse(core))
    }

    /// The realm for ``Configuration/defaultConfiguration``: this thread's cached instance, or
    /// with `queue`, the one confined to that serial queue.
    ///
    /// - Throws: ``Realm/Error``: `fileNotFound`, `filePermissionDenied`, `invalidDatabase`
    ///   (not a Burrow file), `schemaMismatch`, `unsupportedFileFormatVersion`, …
    public init(queue: DispatchQueue? = nil) throws {
        try self.init(configuration: .defaultConfiguration, queue: queue)
    }

    /// The realm for the file at `fileURL`, otherwise configured by default.
    public init(fileURL: URL) throws {
        var configuration = Configuration.defaultConfiguration
        configuration.fileURL = fileURL
        try self.init(configuration: configuration)
    }

    /// The realm for `configuration`: this thread's cached instance, or a new one. With
    /// `queue`, the realm is confined to that serial queue instead of the calling thread: it
    /// may be used in any block the queue runs, whatever thread runs it, and nowhere else. Code
    /// the main queue runs on another thread than the main one (code on the main actor once
    /// `dispatchMain()` ended the main thread) gets the main queue's realm, as with
    /// `queue: .main`: the main actor may resume on another thread after each `await`.
    ///
    /// ```swift
    /// let queue = DispatchQueue(label: "import")
    /// queue.async {
    ///     let realm = try! Realm(configuration: config, queue: queue)
    ///     try! realm.write { realm.add(Dog()) }
    /// }
    /// ```
    /// Opening a queue-confined realm anywhere but on that queue traps ("Realm opened from
    /// incorrect dispatch queue."), as do settings that exclude each other, with RealmSwift's
    /// messages: `readOnly` with `deleteRealmIfMigrationNeeded` or `shouldCompactOnLaunch`, and
    /// `deleteRealmIfMigrationNeeded` with a `syncConfiguration`.
    /// - Throws: ``Realm/Error``: `fileNotFound` (read-only and missing, or missing folder),
    ///   `filePermissionDenied`, `invalidDatabase` (not a Burrow file; the file is left as it
    ///   was), `schemaMismatch` (stored schema differs from the model classes, or a lower
    ///   `schemaVersion`; unless ``Configuration/deleteRealmIfMigrationNeeded``),
    ///   `fileOperationFailed` (a file to delete for `deleteRealmIfMigrationNeeded` is open), `unsupportedFileFormatVersion`, `outOfDiskSpace`, `limitExceeded` (more
    ///   versions kept than `maximumNumberOfActiveVersions`, or no reader slot left).
    public init(configuration: Configuration, queue: DispatchQueue? = nil) throws {
        try self.init(configuration: configuration, confinement: queue.map { .queue($0) } ?? .ofCaller())
    }

    /// Traps for settings that exclude each other, with RealmSwift's messages.
    private static func refuseExclusiveSettings(of configuration: Configuration) {
        if configuration.readOnly {
            burrowPrecondition(!configuration.deleteRealmIfMigrationNeeded, "Cannot set `deleteRealmIfMigrationNeeded` when `readOnly` is set.")
            burrowPrecondition(configuration.shouldCompactOnLaunch == nil, "Cannot set `shouldCompactOnLaunch` when `readOnly` is set.")
        }
        burrowPrecondition(configuration.syncConfiguration == nil || !configuration.deleteRealmIfMigrationNeeded,
                           "Cannot set 'deleteRealmIfMigrationNeeded' when sync is enabled ('syncConfig' is set).")
    }

    /// What tells the `objectTypes` of configurations apart (empty without a list).
    private static func listedTypesIdentity(_ configuration: Configuration) -> String {
        guard let listed = configuration.objectTypes, !listed.isEmpty else { return "" }
        return "#types:" + listed.map { String(UInt(bitPattern: ObjectIdentifier($0)), radix: 16) }.sorted().joined(separator: ",")
    }

    /// The realm for `configuration` confined to `confinement` (not frozen): its cached
    /// instance, or a new one over `coordinator` (opened here when not given).
    init(configuration: Configuration, confinement: Confinement, coordinator opened: Coordinator? = nil) throws {
        Self.refuseExclusiveSettings(of: configuration)
        // Configurations of one file that list different classes are different realms: each
        // refuses the classes its own list leaves out.
        let identity = configuration.identity + (configuration.readOnly ? "#readOnly" : "") + Self.listedTypesIdentity(configuration)
        let entries = RealmInstanceCache.entries(for: confinement)
        if case .queue = confinement {
            burrowPrecondition(RealmInstanceCache.isRunningOnQueue(of: entries), "Realm opened from incorrect dispatch queue.")
        }
        if let cached = RealmInstanceCache.realm(for: identity, in: entries)?.core {
            let use = RealmUse(adopting: cached)  // the lookup counted this use
            if cached.configuration.encryptionKey != configuration.encryptionKey {
                try Coordinator.verifyKey(configuration.encryptionKey, of: cached.coordinator.environment)
            }
            if cached.configuration.schemaVersion != configuration.schemaVersion && !configuration.readOnly {
                throw Realm.openedAtAnotherVersion(cached.coordinator.path, version: cached.configuration.schemaVersion,
                                                   asked: configuration.schemaVersion)
            }
            if cached.configuration.syncConfiguration == nil && configuration.syncConfiguration != nil {
                // The instance this thread holds has no session: handing it out would not sync.
                throw Realm.Error(.fail, "Realm at path '\(cached.coordinator.path)' already opened without a sync configuration on this thread: "
                                  + "close it before opening the file for sync.", fileURL: URL(fileURLWithPath: cached.coordinator.path))
            }
            handle = RealmHandle(use)
            return
        }
        let coordinator = try opened ?? Realm.checkedCoordinator(for: configuration)
        let declared = configuration.objectTypes.map { ClassInfo.closure(of: $0) } ?? []
        let core = try RealmCore(configuration: configuration, coordinator: coordinator, confinement: confinement,
                                 cacheEntries: entries, cacheIdentity: identity)
        try coordinator.verifyVersionLimit(configuration.maximumNumberOfActiveVersions, adding: 0, doing: .open)
        let use = RealmUse(core)
        RealmInstanceCache.store(core)
        handle = RealmHandle(use)
        try createTables(for: declared)
        if let sync = configuration.syncConfiguration {
            try SyncSessionRegistry.checkSyncable(schema)
            if !coordinator.isJournaling { try SyncSessionRegistry.refuseObjectsWrittenWithoutSync(in: core) }
            coordinator.startJournaling()
            SyncSessionRegistry.startSession(for: self, sync: sync)
        }
        core.openingDidEnd()
        Logger.log(.detail, "DB: \(getpid()) Open realm at version \(core.readTransaction.id): \(coordinator.path)")
        Logger.log(.trace, "DB: \(getpid()) Realm confined to \(confinement), reader slots in use: \(coordinator.environment.activeTransactionCount): \(coordinator.path)")
    }

    /// Creates the tables of the declared classes the file does not have yet, so that the
    /// schema is complete from the moment the realm opens.
    private func createTables(for infos: [ClassInfo]) throws {
        let catalog = core.catalog
        let missing = infos.filter { catalog.layouts[$0.className] == nil }
        guard !missing.isEmpty, !configuration.readOnly else { return }
        try write {
            for info in missing {
                core.perform(in: core.writeState!) { _ = try core.boundForWriting(info, in: core.writeState!) }
            }
        }
    }

    /// Two values are equal when they are the same realm instance (same file, same thread).
    public static func == (lhs: Realm, rhs: Realm) -> Bool { lhs.core === rhs.core }

    /// The configuration the realm was opened with.
    public var configuration: Configuration { core.configuration }

    /// The classes of the realm: the configuration's ``Configuration/objectTypes`` and the
    /// classes they link to; without them, every model class of the program and every class the
    /// file stores.
    ///
    /// ```swift
    /// let dog = realm.schema["Dog"]
    /// print(dog?.properties.map(\.name) ?? [])   // ["name", "age"]
    /// ```
    /// A class the file does not store yet is listed with its model's properties; its table is
    /// created when the realm opens (with `objectTypes`) or at the first write of one.
    /// Without `objectTypes`, two model classes stored under one name (`A.Dog` and `B.Dog`)
    /// trap here: list the ones this realm stores.
    public var schema: Schema {
        core.verifyThread()
        return Schema.of(declared: configuration.objectTypes.map { ClassInfo.closure(of: $0) },
                         stored: core.catalog.schema)
    }

    /// The classes the file stores, at the realm's version: the model classes it stores and
    /// every other class, as the dynamic API (``dynamicObjects(_:)``) reads them. Tools that
    /// know a file only from itself list its classes here.
    ///
    /// ```swift
    /// for objectSchema in realm.fileSchema.objectSchema where !objectSchema.isEmbedded {
    ///     print(objectSchema.className, realm.dynamicObjects(objectSchema.className).count)
    /// }
    /// ```
    /// Unlike ``schema``, it never lists a class the file does not store.
    public var fileSchema: Schema {
        core.verifyThread()
        return Schema(core.catalog.schema.classes.map(\.objectSchema))
    }

    /// Moves the realm to the latest committed version; returns whether anything changed.
    ///
    /// ```swift
    /// realm.refresh()      // see what other threads and processes committed
    /// ```
    /// The realm's pending notifications are delivered here, whether or not the version moved
    /// (an observation registered since reports its initial state).
    ///
    /// When another process grew the file past this process's map while other snapshots of
    /// this process (frozen realms, realms of other threads or queues) keep it from being
    /// mapped larger, the realm stays at its version and this returns `false`; it moves once
    /// those are released.
    @discardableResult
    public func refresh() -> Bool { core.refresh() }

    /// Whether the realm moves to the latest version on its own; `true` by default.
    ///
    /// ```swift
    /// realm.autorefresh = false
    /// ```
    /// A realm moves on its own only where it has observations and a place to deliver them: on
    /// its queue or actor, or from its thread's `RunLoop` while that runs. Elsewhere it reads one
    /// version until it calls ``refresh()`` (or `asyncRefresh()`), begins a write (which starts
    /// from the latest version and leaves the realm there), reads again after ``invalidate()``,
    /// or resolves a ``ThreadSafeReference`` made at a newer version. With `autorefresh` off, as
    /// in RealmSwift, a realm with observations stays at its version too, and its ``observe(_:)``
    /// blocks hear `.refreshRequired` when another thread or process commits; ``refresh()``
    /// moves it on and delivers the changes.
    public var autorefresh: Bool {
        get {
            core.verifyThread()
            return core.autorefresh
        }
        nonmutating set {
            core.verifyThread()
            core.autorefresh = newValue
        }
    }

    /// Releases the version the realm reads, so that later writes can reuse the space it
    /// holds: call it before a long wait on a thread that read data it no longer needs.
    ///
    /// ```swift
    /// realm.invalidate()
    /// dog.isInvalidated           // true: objects read before are unusable
    /// realm.objects(Dog.self)     // reads the latest version
    /// ```
    ///
    /// Objects read before are invalidated for good; results and collections read the latest
    /// version when next used. An open write transaction is cancelled first. Calling it again
    /// before anything is read does nothing.
    public func invalidate() {
        if core.writeState != nil { cancelWrite() }
        core.invalidate()
    }

    // MARK: Files

    /// Whether the file of `config` exists (for an in-memory realm: whether it is open).
    public static func fileExists(for config: Configuration) -> Bool {
        if config.inMemoryIdentifier != nil { return CoordinatorRegistry.isOpen(config) }
        guard let path = config.fileURL?.path else { return false }
        return FileManager.default.fileExists(atPath: path)
    }

    /// Deletes the file of `config` and every auxiliary file; returns whether the main file
    /// existed.
    ///
    /// ```swift
    /// try Realm.deleteFiles(for: config)
    /// ```
    /// - Throws: ``Realm/Error/Code/fileOperationFailed`` when the realm is open in this or
    ///   another process (LMDB's lock on the lock file tells), or a file cannot be removed.
    @discardableResult
    public static func deleteFiles(for config: Configuration) throws -> Bool {
        guard let url = config.fileURL, config.inMemoryIdentifier == nil else { return false }
        let path = url.standardizedFileURL.path
        if Environment.isOpen(path: path) {
            throw Realm.Error(.fileOperationFailed, "Cannot delete the files of '\(path)': it is open in this process.", fileURL: url)
        }
        if Environment.isOpenElsewhere(path: path) {
            throw Realm.Error(.fileOperationFailed, "Cannot delete the files of '\(path)': another process has it open.", fileURL: url)
        }
        let folder = url.deletingLastPathComponent().path
        let name = url.lastPathComponent
        let existed = FileManager.default.fileExists(atPath: path)
        let siblings = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        for sibling in siblings where sibling == name || sibling == name + "-lock" || sibling.hasPrefix(name + ".") {
            let siblingPath = URL(fileURLWithPath: folder).appendingPathComponent(sibling).path
            if unlink(siblingPath) != 0 && errno != ENOENT {
                throw Realm.Error(.fileOperationFailed, "Cannot delete '\(siblingPath)': \(String(cString: strerror(errno)))",
                                  fileURL: url)
            }
        }
        return existed
    }

    /// The schema version stored in the file at `fileURL`, without opening a realm (no
    /// migration runs, no schema is checked).
    ///
    /// ```swift
    /// let version = try Realm.schemaVersion(at: url)
    /// ```
    /// - Parameter encryptionKey: the file's key, for an encrypted file.
    /// - Throws: ``Realm/Error``: `fileNotFound`, `invalidDatabase` (not a Burrow file, or a
    ///   wrong, missing or unexpected key).
    public static func schemaVersion(at fileURL: URL, encryptionKey: Data? = nil) throws -> UInt64 {
        var configuration = Configuration(fileURL: fileURL, encryptionKey: encryptionKey, readOnly: true, schemaVersion: .max)
        configuration.checksSchema = false
        let coordinator = try CoordinatorRegistry.coordinator(for: configuration)
        let txn = try coordinator.environment.beginReadTransaction()
        return try coordinator.schemaVersion(in: txn)
    }
}
