import Foundation
import PostgreSQL
import Synchronization

/// The thread that syncs one file: connects, makes the server's tables fit the schema, then
/// uploads what the journal holds and pulls what the server announces, until paused or
/// stopped; a lost connection is retried with backoff (0.1 s doubling to 5 s).
final class SyncWorker: @unchecked Sendable {
    private unowned let session: SyncSession
    private let stopped = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)
    private var wakeDescriptors: [Int32] = [-1, -1]
    /// The version of the subscription set the file holds what it selects of, once checked.
    private var appliedVersion: UInt64?
    /// The sequence number last reported to the server as pulled through, and when the next
    /// report may go.
    private var reportedPull: UInt64?
    private var nextReport = Date()
    /// How often a client reports how far it pulled, at most.
    static let reportInterval: TimeInterval = 5
    /// The server's trim point as last recorded in the file.
    private var recordedTrim: UInt64?
    /// This file's client id, once connected.
    private var client = UUID()
    /// When this client next trims the server's change log: not at once, so that connecting
    /// costs the server no maintenance work.
    private var nextTrim = Date().addingTimeInterval(SyncWorker.trimInterval)
    /// Which held object a change the log shows without its key concerns.
    private var heldDigests = HeldKeyDigests()
    /// How often a client trims the change log.
    static let trimInterval: TimeInterval = 60
    /// How many objects an upload batch carries at most.
    static let batchLimit = 5000
    /// How many rows a first download applies in one write: the first page, and the largest
    /// the pages double to.
    static let snapshotPageSizes = 5000...40_000

    init(session: SyncSession) {
        self.session = session
        _ = pipe(&wakeDescriptors)
        _ = fcntl(wakeDescriptors[0], F_SETFL, O_NONBLOCK)
        _ = fcntl(wakeDescriptors[1], F_SETFL, O_NONBLOCK)
    }

    deinit {
        close(wakeDescriptors[0])
        close(wakeDescriptors[1])
    }

    func start() {
        let thread = Thread { [self] in
            run()
            finished.signal()
        }
        thread.name = "burrow.sync"
        thread.start()
    }

    /// Makes the worker look at its state and the journal now.
    func wake() {
        var byte: UInt8 = 1
        _ = write(wakeDescriptors[1], &byte, 1)
    }

    func stop() {
        guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        wake()
        finished.wait()
    }

    private var isStopped: Bool { stopped.load(ordering: .acquiring) }

    private func drainWakes() {
        var buffer = [UInt8](repeating: 0, count: 64)
        while read(wakeDescriptors[0], &buffer, buffer.count) > 0 {}
    }

    private func sleep(_ seconds: Double) {
        var descriptor = pollfd(fd: wakeDescriptors[0], events: Int16(POLLIN), revents: 0)
        _ = poll(&descriptor, 1, Int32(seconds * 1000))
        drainWakes()
    }

    private func run() {
        let replica: LocalReplica
        do {
            // Without the sync configuration: opening it would start a session again, had
            // this one been stopped meanwhile. The file's coordinator journals either way.
            var configuration = session.configuration
            configuration.syncConfiguration = nil
            replica = LocalReplica(realm: try Realm(configuration: configuration))
        } catch {
            session.report(SyncError(.invalidServer, "the sync thread could not open the file: \(error)"))
            return
        }
        // A local commit wakes the worker at once; commits of other processes are seen by the
        // wait's timeout.
        let coordinator = replica.realm.core.coordinator
        coordinator.addJournalListener(ObjectIdentifier(self)) { [weak self] in self?.wake() }
        defer { coordinator.removeJournalListener(ObjectIdentifier(self)) }
        if let error = session.initialError { session.report(error) }
        var backoff = 0.1
        while !isStopped {
            if session.state == .paused {
                session.set(connection: .disconnected)
                sleep(1)
                continue
            }
            session.set(connection: .connecting)
            do {
                try syncWhileConnected(replica) { backoff = 0.1 }
            } catch let error as PostgresError {
                session.report(Self.syncError(error))
                backoff = error.kind == .authenticationFailed || error.kind == .missingDatabase ? 5 : backoff
            } catch let error as SyncError {
                session.report(error)
                backoff = 5
            } catch {
                session.report(SyncError(.malformedServerData, "\(error)"))
                backoff = 5
            }
            session.set(connection: .disconnected)
            try? replica.record(connection: .disconnected, server: PostgresConnection.redacted(session.sync.server))
            if isStopped { break }
            sleep(backoff)
            backoff = min(backoff * 2, 5)
        }
        session.set(connection: .disconnected)
    }

    static func syncError(_ error: PostgresError) -> SyncError {
        switch error.kind {
        case .authenticationFailed: SyncError(.authenticationFailed, error.description)
        case .missingDatabase: SyncError(.missingDatabase, error.description)
        case .invalidConnectionString: SyncError(.invalidServer, error.description)
        case .unreachable, .connectionLost: SyncError(.connectionLost, error.description)
        case .server: SyncError(error.isTransient ? .connectionLost : .writeRejected, error.description)
        }
    }

    private func syncWhileConnected(_ replica: LocalReplica, connected: () -> Void) throws {
        let connection = try PostgresConnection(session.sync.server)
        try connection.execute("SET TIME ZONE 'UTC'")
        // A client that vanishes mid-transaction (cut off, killed) must not hold the upload
        // lock until the server's TCP notices, hours later.
        try connection.execute("""
            SET idle_in_transaction_session_timeout = '20s'; SET tcp_keepalives_idle = 5; SET tcp_keepalives_interval = 2;
            SET tcp_keepalives_count = 3; SET tcp_user_timeout = 10000
            """)
        try ServerSchema.install(on: connection)
        try replica.adopt(serverID: try ServerSchema.serverID(on: connection))
        let schemas = replica.realm.schema.objectSchema.filter { !$0.isEmbedded }
        if let keyless = schemas.first(where: { $0.primaryKeyProperty == nil }) {
            throw SyncError(.missingPrimaryKey, "the synced class '\(keyless.className)' has no primary key")
        }
        try ServerSchema.migrate(replica.realm.schema.objectSchema, on: connection)
        try connection.execute("LISTEN \(ServerSchema.channel)")
        var store = ServerStore(connection: connection,
                                primaryKeys: Dictionary(schemas.map { ($0.className, $0.primaryKeyProperty!.name) }, uniquingKeysWith: { a, _ in a }))
        store.primaryKeyTypes = Dictionary(schemas.map { ($0.className, $0.primaryKeyProperty!.type) }, uniquingKeysWith: { a, _ in a })
        store.readConnection = connectReadServer()
        for schema in schemas {
            let lists = schema.properties.filter { CollectionKind(of: $0) == .list }.map(\.name)
            if !lists.isEmpty { store.listProperties[schema.className] = lists }
        }
        client = try replica.clientID()
        session.set(connection: .connected)
        try replica.record(connection: .connected, server: PostgresConnection.redacted(session.sync.server))
        connected()
        var needsPull = true
        var subscriptionsSeen = session.subscriptions.committed.version
        while !isStopped && session.state == .active {
            let progress = session.progress
            if progress.isObserved(.upload) { progress.report(.upload, units: 0, bytes: 0, remaining: UInt64(try replica.pendingCount())) }
            // One batch a turn, so that a file written without pause still downloads.
            session.armUploadWaiters()
            let uploaded: Bool
            if let batch = try replica.nextBatch(limit: Self.batchLimit) {
                var refused: [ServerStore.Refusal] = []
                do {
                    try store.apply(batch.operations, batch: batch.number, client: client)
                } catch let error where ServerStore.refusal(error) != nil {
                    // Some of its data the server refuses: the rest applies, and the refused is undone here.
                    refused = try store.applyRefusingEach(batch.operations, batch: batch.number, client: client)
                }
                try replica.acknowledge(batch)
                for operation in batch.operations { heldDigests.note(operation.className, operation.primaryKey) }
                if !refused.isEmpty { try compensate(refused, store: store, replica: replica) }
                if progress.isObserved(.upload) {
                    progress.report(.upload, units: UInt64(batch.sent.count), bytes: batch.bytes, remaining: UInt64(try replica.pendingCount()))
                }
                if batch.isWhole { session.uploadsDone() }
                uploaded = true
            } else {
                session.uploadsDone()
                uploaded = false
            }
            let subscriptions = session.subscriptions.committed.version
            if subscriptions != subscriptionsSeen {
                subscriptionsSeen = subscriptions
                needsPull = true
            }
            if needsPull || session.hasDownloadWaiters || progress.awaitsOutstandingWork(.download) {
                // While uploads wait, a turn pulls one page: both directions move.
                needsPull = try !pull(store, into: replica, pages: uploaded ? 1 : .max)
            }
            if Date() >= nextTrim {
                try store.trim()
                nextTrim = Date().addingTimeInterval(Self.trimInterval)
            }
            // After an upload, more may wait: the turn ends without waiting.
            let notifications = try connection.waitForNotifications(timeout: uploaded ? 0 : 0.05, wakeDescriptor: wakeDescriptors[0])
            drainWakes()
            if !notifications.isEmpty { needsPull = true }
        }
    }

    /// A connection to the read server, when the configuration names one and it answers;
    /// when it does not, downloads read the server until the next connection, and the error
    /// handler hears why.
    private func connectReadServer() -> PostgresConnection? {
        guard let readServer = session.sync.readServer else { return nil }
        do {
            let reader = try PostgresConnection(readServer)
            try reader.execute("SET TIME ZONE 'UTC'")
            return reader
        } catch {
            session.report(SyncError(.connectionLost, "the read server is out of reach, so downloads read the server until the next connection: \(error)"))
            return nil
        }
    }

    /// What the subscriptions select, class by class: the SQL condition, or `nil` for every
    /// object (a subscription without a query, or two that select alike).
    static func views(of entries: [SubscriptionEntry]) -> [String: String?] {
        var views: [String: String?] = [:]
        for entry in entries {
            guard let condition = entry.condition else { views[entry.className] = .some(nil); continue }
            switch views[entry.className] {
            case .none: views[entry.className] = condition
            case .some(.none): continue
            case .some(.some(let other)): views[entry.className] = other == condition ? other : "(\(other)) OR (\(condition))"
            }
        }
        return views
    }

    /// Applies the current rows of `classes` that `conditions` select, a page at a time;
    /// returns the sequence number they are current at, and the primary keys (wire form, as ASCII
    /// text) of the rows of each class of `keysOf` (those the file held before: what it keeps).
    /// Rows older than `minimum` (a replica behind what the file holds) are not read.
    private func download(_ classes: Set<String>, conditions: [String: String], atLeast minimum: UInt64, keysOf: Set<String>,
                          from store: ServerStore, into replica: LocalReplica) throws -> (through: UInt64, keys: [String: Set<String>]) {
        var keys: [String: Set<String>] = [:]
        let through = try store.snapshot(of: classes.sorted(), conditions: conditions, pageSizes: Self.snapshotPageSizes,
                                         atLeast: minimum) { operations, bytes, rowsLeft in
            try replica.apply(rows: operations).forEach(session.report)
            for operation in operations {
                if keysOf.contains(operation.className) { keys[operation.className, default: []].insert(operation.primaryKey.asciiText) }
                heldDigests.note(operation.className, operation.primaryKey)
            }
            session.progress.report(.download, units: UInt64(operations.count), bytes: bytes, remaining: rowsLeft)
        }
        return (through, keys)
    }

    /// Makes the file hold what the subscriptions select: downloads the objects of each class
    /// whose view changed, removes those no longer in any, and records the views held. A query
    /// the server refuses fails its version of the set, and the file keeps what it held.
    ///
    /// Returns the views the file now holds, and the sequence number the rows downloaded are
    /// current at, when it downloaded any class.
    private func reconcile(_ entries: [SubscriptionEntry], version: UInt64, held: [String: String?], pulled: UInt64,
                           store: ServerStore, replica: LocalReplica) throws -> (views: [String: String?], through: UInt64?) {
        let wanted = Self.views(of: entries)
        let changed = Set(wanted.keys.filter { held[$0] != wanted[$0] })
        for className in changed.sorted() {
            guard let condition = wanted[className] ?? nil else { continue }
            do {
                try store.check(className, condition: condition)
            } catch let error as PostgresError where error.isServerRefusal {
                session.subscriptions.fail(version, SyncError(.invalidSubscription, "the server refused the subscriptions' query on '\(className)': \(error.description)"))
                return (held, nil)
            }
        }
        var through: UInt64?
        if !changed.isEmpty {
            let downloaded = try download(changed, conditions: wanted.compactMapValues { $0 }, atLeast: pulled,
                                          keysOf: changed.filter { held[$0] != nil }, from: store, into: replica)
            through = downloaded.through
            // Objects the file held that the new views leave out go (those with local changes stay).
            for className in changed.sorted() where held[className] != nil {
                try replica.removeObjects(of: className, keeping: downloaded.keys[className] ?? [])
            }
        }
        let removed = Set(held.keys).subtracting(wanted.keys)
        if !removed.isEmpty { try replica.removeObjects(of: removed) }
        try replica.setHeldViews(wanted, subscriptions: entries, version: version)
        return (wanted, through)
    }

    /// Pulls and applies the changes the server has, at most `pages` pages of them; returns
    /// whether it pulled them all.
    private func pull(_ store: ServerStore, into replica: LocalReplica, pages: Int) throws -> Bool {
        // Other programs' writes in SQL become changes first, to be pulled with the rest.
        while try store.adoptSQLWrites() == ServerStore.sqlWritesPerTurn {}
        var pulled = try replica.pulledSequence()
        let (entries, version) = session.subscriptions.committed
        var views: [String: String?]
        let position = try store.position()
        if position.trimmed != recordedTrim {
            try replica.record(trimmed: position.trimmed)
            recordedTrim = position.trimmed
        }
        if pulled > 0 && (pulled < position.trimmed || pulled > position.latest) {
            // The changes after the file's last pull are gone from the server.
            views = try reset(entries, version: version, pulled: pulled, position: position, store: store, replica: replica)
            pulled = try replica.pulledSequence()
        } else if pulled == 0, try position.trimmed > 0 || replica.pendingCount() == 0 {
            // A file that never pulled starts from the server's tables: when it has nothing to
            // upload, or when the log no longer starts at the beginning (its changes to upload
            // win over the rows, as over any older change).
            let reconciled = try reconcile(entries, version: version, held: [:], pulled: 0, store: store, replica: replica)
            views = reconciled.views
            // Without a class to download, no change before now concerns the file.
            let through = try reconciled.through ?? store.latestSequence()
            if through > 0 {
                try replica.apply([], through: through)
                pulled = through
            }
            appliedVersion = version
        } else {
            // A view changed since starts from the server's rows; the changes pulled next
            // replay over them what changed since, which ends as the tables are.
            views = try replica.heldViews() ?? Self.views(of: entries)
            if appliedVersion != version {
                views = try reconcile(entries, version: version, held: views, pulled: pulled, store: store, replica: replica).views
                appliedVersion = version
            }
        }
        // Every class's changes are checked against its table as this role sees it: a row a
        // row-level security policy hides is out of view, like one no subscription selects.
        let filtered = views.mapValues { $0 ?? "TRUE" }
        // Read after the downloads above: a waiter that began during them waits for this; one
        // that begins during the read itself waits for the next.
        let mark = session.downloadWaiterMark
        let latest = try store.latestSequence()
        session.armDownloadWaiters(latest: latest, enqueuedBefore: mark)
        // A replica may not have it all yet: the file pulls what it has, and looks again soon.
        let readable = store.readConnection == nil ? latest : Swift.min(latest, try store.readableSequence())
        // Trimming needs to know roughly how far each client pulled: a write every few
        // seconds, not one per pull.
        defer {
            if pulled != reportedPull && Date() >= nextReport {
                try? store.report(pulled: pulled, client: client)
                reportedPull = pulled
                nextReport = Date().addingTimeInterval(Self.reportInterval)
            }
        }
        session.progress.report(.download, units: 0, bytes: 0, remaining: latest > pulled ? latest - pulled : 0)
        var pagesLeft = pages
        while pulled < readable && pagesLeft > 0 {
            pagesLeft -= 1
            let page = try store.changes(after: pulled, limit: 1000, views: filtered)
            // A server that answers with changes it was not asked for is not followed.
            guard let last = page.last, last > pulled else { break }
            // A gap may be a trim past the file meanwhile (or only numbers a rolled-back upload
            // took): when trimmed, the page may lack changes, and the next turn resets.
            if let first = page.first, first > pulled + 1, try store.trimmedSequence() > pulled { break }
            let changes = try resolve(page, views: views, replica: replica)
            try applyPage(changes.filter { views[$0.operation.className] != nil }, through: last, filtered: filtered,
                          store: store, replica: replica)
            session.progress.report(.download, units: last - pulled, bytes: page.bytes, remaining: latest > last ? latest - last : 0)
            pulled = last
        }
        let finished = pulled >= latest
        // Links may wait for targets in the pages still to come.
        if finished { try replica.settleDeferredLinks() }
        // The set is complete before a download waiter wakes: it sees the state it waited for.
        if finished { session.subscriptions.complete(version) }
        session.downloads(pulled: pulled)
        return finished
    }

    /// Undoes in the file the writes the server refused (a compensating write): each object
    /// becomes what the server holds, as this client may see it, or goes when it holds none;
    /// the error handler hears which objects and why.
    private func compensate(_ refused: [ServerStore.Refusal], store: ServerStore, replica: LocalReplica) throws {
        let objects = refused.map { (className: $0.operations[0].className, primaryKey: $0.operations[0].primaryKey) }
        let latest = try store.latestSequence()
        var held: Set<String> = []
        for (className, entries) in Dictionary(grouping: objects, by: \.className) {
            let downloaded = try download([className], conditions: [className: store.rows(className, keyedBy: entries.map(\.primaryKey))],
                                          atLeast: latest, keysOf: [className], from: store, into: replica)
            held.formUnion((downloaded.keys[className] ?? []).map { className + "\u{0}" + $0 })
        }
        try replica.removeObjects(objects.filter { !held.contains($0.className + "\u{0}" + $0.primaryKey.asciiText) })
        let info = refused.map { refusal in
            SyncError.CompensatingWriteInfo(objectType: refusal.operations[0].className,
                                            primaryKeyText: refusal.operations[0].primaryKey.stringValue ?? refusal.operations[0].primaryKey.text,
                                            reason: refusal.reason)
        }
        let named = info.prefix(5).map { "\($0.objectType) '\($0.primaryKeyText)' (\($0.reason))" }.joined(separator: "; ")
        session.report(SyncError(.writeRejected, "the server refused the writes of \(info.count) object(s), undone in this file: \(named)\(info.count > 5 ? "; …" : "")",
                                 compensatingWriteInfo: info))
    }

    /// Downloads the file's subscriptions again, because the server no longer has the changes
    /// after `pulled`: objects the server does not hold go, but for those with changes to
    /// upload, which stay and upload next. Reports the reset; returns the views held.
    private func reset(_ entries: [SubscriptionEntry], version: UInt64, pulled: UInt64, position: (latest: UInt64, trimmed: UInt64),
                       store: ServerStore, replica: LocalReplica) throws -> [String: String?] {
        let held = try replica.heldViews() ?? [:]
        let wanted = Self.views(of: entries)
        let downloaded = try download(Set(wanted.keys), conditions: wanted.compactMapValues { $0 }, atLeast: position.trimmed,
                                      keysOf: Set(wanted.keys), from: store, into: replica)
        for className in wanted.keys.sorted() {
            try replica.removeObjects(of: className, keeping: downloaded.keys[className] ?? [])
        }
        let dropped = Set(held.keys).subtracting(wanted.keys)
        if !dropped.isEmpty { try replica.removeObjects(of: dropped) }
        try replica.setHeldViews(wanted, subscriptions: entries, version: version)
        try replica.resetPulled(to: downloaded.through)
        appliedVersion = version
        let why = pulled > position.latest
            ? "the server's changes end at \(position.latest), before this file's last pull (\(pulled)): it was restored from an older backup"
            : "the server trimmed its changes through \(position.trimmed), past this file's last pull (\(pulled))"
        let kept = try replica.pendingCount()
        session.report(SyncError(.clientReset, "\(why); the file downloaded its subscriptions again and kept its \(kept) object(s) with changes not yet uploaded, which upload next"))
        return wanted
    }

    /// The changes of `page` in order, each change the log shows without its key (of an object
    /// deleted, or that a policy hides from this role) made one of the held object it concerns,
    /// out of view; those of objects the file does not hold concern it no more.
    private func resolve(_ page: ServerStore.Page, views: [String: String?], replica: LocalReplica) throws -> [ServerStore.PulledChange] {
        for change in page.changes { heldDigests.note(change.operation.className, change.operation.primaryKey) }
        guard !page.hidden.isEmpty else { return page.changes }
        var resolved: [ServerStore.PulledChange] = []
        for hidden in page.hidden where views[hidden.className] != nil {
            guard let key = try heldDigests.primaryKey(of: hidden.className, digest: hidden.keyDigest, keys: replica.primaryKeys(of:)) else {
                continue
            }
            let operation = SyncOperation(className: hidden.className, primaryKey: key, kind: hidden.kind, clock: hidden.clock, fields: [])
            resolved.append(ServerStore.PulledChange(sequence: hidden.sequence, operation: operation, inView: false))
        }
        return (page.changes + resolved).sorted { $0.sequence < $1.sequence }
    }

    /// Applies a page of changes: objects that left the views go; objects that entered one
    /// through a change of some of their properties come whole, as rows; the rest apply.
    private func applyPage(_ changes: [ServerStore.PulledChange], through last: UInt64, filtered: [String: String],
                           store: ServerStore, replica: LocalReplica) throws {
        // A deletion applies as such (it wins over edits here); other objects out of view go,
        // but for those with edits to upload.
        let leaving = changes.filter { !$0.inView && $0.operation.kind != .delete }.map { ($0.operation.className, $0.operation.primaryKey) }
        try replica.removeObjects(leaving)
        let schemas = replica.schemasByName
        var entering: [String: [JSONValue]] = [:]
        // A creation carries every property; other changes of an object not here bring it whole.
        for change in changes where change.inView && change.operation.kind != .create && filtered[change.operation.className] != nil {
            let operation = change.operation
            if replica.object(ofType: operation.className, primaryKey: operation.primaryKey, schemas: schemas) == nil {
                entering[operation.className, default: []].append(operation.primaryKey)
            }
        }
        if !entering.isEmpty {
            let conditions = Dictionary(uniqueKeysWithValues: entering.map { className, keys in
                (className, "(\(store.rows(className, keyedBy: keys))) AND (\(filtered[className]!))")
            })
            _ = try download(Set(entering.keys), conditions: conditions, atLeast: last, keysOf: [], from: store, into: replica)
        }
        let applied = changes.filter { $0.inView || $0.operation.kind == .delete }
        let rejected = try replica.apply(applied.map { ($0.sequence, $0.operation) }, through: last)
        rejected.forEach(session.report)
    }
}
