import LMDB

/// The sync session of each synced file in this process: one per file, started by the first
/// realm opened with a sync configuration, and running while the process does.
enum SyncSessionRegistry {
    private static let sessions = Locked<[String: SyncSession]>([:])

    /// Checks that every top-level class of `schema` can sync: each needs a primary key, which
    /// names its objects on every machine.
    ///
    /// - Throws: ``SyncError/Code/missingPrimaryKey`` naming the first class without one.
    static func checkSyncable(_ schema: Schema) throws {
        let keyless = schema.objectSchema.filter { !$0.isEmbedded && $0.primaryKeyProperty == nil }.map(\.className).sorted()
        if let first = keyless.first {
            throw SyncError(.missingPrimaryKey, "the class '\(first)' has no primary key: a synced class needs one, which names its objects on every machine")
        }
    }

    /// Throws when the file `core` reads holds objects although it never synced: they were
    /// written without a journal, so nothing would ever upload them, and a stale local file
    /// opened by mistake must not be taken for this server's data.
    static func refuseObjectsWrittenWithoutSync(in core: RealmCore) throws {
        let txn = core.readTransaction
        for layout in core.catalog.layouts.values.sorted(by: { $0.className < $1.className }) where layout.storedClass.isEmbedded != true {
            let count = try layout.count(in: txn)
            guard count > 0 else { continue }
            throw SyncError(.localFile, "'\(core.coordinator.path)' holds objects written while it was not synced (\(count) of '\(layout.className)'), "
                            + "which would never upload: open it without a sync configuration, or write a copy for sync with writeCopy(configuration:)")
        }
    }

    /// Starts the session of the file `realm` opened, unless it runs.
    static func startSession(for realm: Realm, sync: SyncConfiguration) {
        let configuration = realm.configuration
        let started = sessions.withLock { sessions -> SyncSession? in
            guard sessions[configuration.identity] == nil else { return nil }
            let session = SyncSession(realm: realm, sync: sync)
            sessions[configuration.identity] = session
            return session
        }
        started?.start()
    }

    /// The session of the file `configuration` opens.
    static func session(for configuration: Realm.Configuration) -> SyncSession? {
        sessions.withLock { $0[configuration.identity] }
    }
}

extension SyncSessionRegistry {
    /// Stops the session of `configuration`'s file and forgets it: its thread closes the file.
    static func stopSession(for configuration: Realm.Configuration) {
        let session = sessions.withLock { $0.removeValue(forKey: configuration.identity) }
        session?.stop()
    }
}
