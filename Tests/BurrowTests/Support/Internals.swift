@testable import Burrow
import Foundation
import LMDB

// Where tests reach Burrow's internals. Tests of behaviour import Burrow plainly and see what
// the API does not show only through these files: accessors on the API's values
// (`realm.internals`, `results.internals`, `object.internals`, `configuration.internals`,
// `token.internals`), and `Internals` for what belongs to no one value. What they hand out is
// of a public type, or a wrapper declared here, so that a change inside the engine changes
// these files and not the tests. The files:
// - Internals.swift: realms, results, objects, configurations, tokens and the process;
// - Internals+Storage.swift: the records of the file;
// - Internals+Models.swift: model classes, schemas and queries;
// - Internals+Sorting.swift: the orders results sort by.
// LayeringTests checks that no other test file names `.core`, and lists the files that still
// import Burrow `@testable`.

/// What tests read of the engine that belongs to no one realm or value.
enum Internals {
    /// Whether a realm of `configuration`'s file is open anywhere in this process (so that the
    /// file has a coordinator).
    static func isOpen(_ configuration: Realm.Configuration) -> Bool { CoordinatorRegistry.isOpen(configuration) }

    /// `text` read as sync's JSON: written back compactly, in ASCII, and the string it holds
    /// when it is one.
    ///
    /// - Throws: the parser's error, whose description gives the byte and the reason.
    static func parsedSyncJSON(_ text: String, maximumDepth: Int = 64) throws -> (text: String, ascii: String, string: String?) {
        let value = try JSONValue(parsing: text, maximumDepth: maximumDepth)
        return (value.text, value.asciiText, value.stringValue)
    }

    /// `text` read as sync's JSON and written again by a `JSONTextWriter`, member by member and
    /// element by element (scalars as strings, booleans and values), beside `JSONValue`'s text.
    static func syncJSONWrittenByParts(_ text: String) throws -> (streamed: String, tree: String) {
        let value = try JSONValue(parsing: text)
        func write(_ value: JSONValue, to writer: inout JSONTextWriter) {
            switch value {
            case .array(let items):
                writer.beginArray()
                for item in items { write(item, to: &writer) }
                writer.endArray()
            case .object(let members):
                writer.beginObject()
                for (name, member) in members {
                    writer.key(name)
                    write(member, to: &writer)
                }
                writer.endObject()
            case .string(let string): writer.string(string)
            case .bool(let bool): writer.bool(bool)
            default: writer.value(value)
            }
        }
        var writer = JSONTextWriter()
        write(value, to: &writer)
        return (writer.text, value.text)
    }

    /// The sync operation `text` describes (as the outbox and the change log hold it), written
    /// by `JSONTextWriter` and as a `JSONValue` tree built here from its members.
    ///
    /// - Throws: `SyncError` for a text that is no operation.
    static func syncOperationTexts(_ text: String) throws -> (streamed: String, tree: String) {
        let operation = try SyncOperation(json: try JSONValue(parsing: text))
        var writer = JSONTextWriter()
        operation.write(to: &writer)
        let fields = JSONValue.object(operation.fields.map { name, field in
            var members: [(String, JSONValue)] = [("v", field.value), ("c", .string(field.clock))]
            if let edits = field.edits { members.append(("e", edits.json)) }
            if let keys = field.keys { members.append(("k", .array(keys.map(JSONValue.string)))) }
            return (name, .object(members))
        })
        let tree = JSONValue.object([("class", .string(operation.className)), ("pk", operation.primaryKey),
                                     ("kind", .string(operation.kind.rawValue)),
                                     ("clock", operation.clock.map(JSONValue.string) ?? .null), ("fields", fields)])
        return (writer.text, tree.text)
    }
}

// MARK: - Realms

extension Realm {
    /// The engine state behind the realm, as tests look at it.
    var internals: RealmInternals { RealmInternals(core: core) }
}

/// The engine state behind a ``Realm``. Members of the engine's own types serve the files that
/// import Burrow `@testable` (these, and the unit tests of internal types); tests of behaviour
/// use those of public types, or hand the others on unopened (`===`).
struct RealmInternals {
    /// The engine's realm behind the ``Realm``.
    let core: RealmCore

    /// The file's coordination, shared by every realm of it in the process.
    var coordinator: Coordinator { core.coordinator }
    /// The file's LMDB environment.
    var environment: Environment { core.coordinator.environment }
    /// The fault injector of the file's LMDB calls.
    var faults: FaultInjector { core.coordinator.environment.faults }
    /// The transaction reads go through: the write's when one is open.
    var transaction: Transaction { core.transaction }
    /// The snapshot the realm reads outside writes.
    var readTransaction: Transaction { core.readTransaction }
    /// The catalog the realm reads through.
    var catalog: Catalog { core.catalog }
    /// The open write, if any.
    var writeState: WriteState? { core.writeState }
    /// The engine object itself, for identity.
    var identity: ObjectIdentifier { ObjectIdentifier(core) }
    /// Whether the realm is confined to the main queue (rather than to a thread, another
    /// queue or an actor).
    var isConfinedToTheMainQueue: Bool {
        // `DispatchQueue.main` wraps the one main queue in a new object each time: compared by label.
        if case .queue(let queue) = core.confinement { queue.label == DispatchQueue.main.label } else { false }
    }

    /// The frozen versions of the file the process holds, each pinned by one frozen realm.
    var frozenVersionCount: Int { core.coordinator.frozenVersionCount }
    /// The writers of the process waiting for the file's write turn.
    var writerQueue: WriterQueue { WriterQueue(gate: core.coordinator.writerGate) }

    /// `type` resolved against the file.
    func bound(_ type: ObjectBase.Type) -> BoundClass? { core.bound(type) }
    /// `info` resolved against the file.
    func bound(_ info: ClassInfo) -> BoundClass? { core.bound(info) }
}

/// The queue of a file's writers waiting for their turn, read from any thread.
struct WriterQueue: Sendable {
    fileprivate let gate: WriterGate

    /// The writers waiting now.
    var waitingCount: Int { gate.waitingCount }
}

// MARK: - Results

extension Results {
    /// The query and keys behind the results, as tests look at them.
    var internals: ResultsInternals { ResultsInternals(core: core) }
}

/// The query and keys behind ``Results``.
struct ResultsInternals {
    /// The engine's results behind the ``Results``.
    let core: ResultsCore

    /// What the results select.
    var query: ResultsQuery { core.query }
    /// A managed accessor for `key`.
    func object(for key: ObjectKey) -> ObjectBase { core.object(for: key) }
}

// MARK: - Objects

extension ObjectBase {
    /// The engine state behind the object, as tests look at it.
    var internals: ObjectInternals { ObjectInternals(object: self) }
}

/// The engine state behind an object.
struct ObjectInternals {
    /// The object looked at.
    let object: ObjectBase

    /// The raw value of the managed object's key in its table; traps while unmanaged. Objects
    /// of two classes may have the same key.
    var key: UInt64 { object.management!.key.rawValue }

    /// Writes `value` as the stored form of `property` of the managed object, through its
    /// setter of stored values: a value its property's type may not convert back from.
    func setStoredValue(_ value: _PersistedValue, of property: String) {
        object.setManagedValue(value, column: storedColumn(property, of: object))
    }
}

// MARK: - Collections

extension SingleMapEntry {
    /// The entry of `key` and `value`, to compare a map's entries with: the initializer is
    /// internal, as it is in RealmSwift.
    static func entry(key: Key, value: Value) -> SingleMapEntry { SingleMapEntry(key: key, value: value) }
}

// MARK: - Configurations

extension Realm.Configuration {
    /// The settings of the configuration the API does not show, to read or change.
    var internals: ConfigurationInternals {
        get { ConfigurationInternals(configuration: self) }
        set { self = newValue.configuration }
    }
}

/// The settings of a ``Realm/Configuration`` the API does not show.
struct ConfigurationInternals {
    /// The configuration read or changed.
    var configuration: Realm.Configuration

    /// The size of the map the file starts with (`nil`: the engine's default); small, to make
    /// the map grow many times.
    var initialMapSize: Int? {
        get { configuration.initialMapSize }
        set { configuration.initialMapSize = newValue }
    }
}

// MARK: - Notification tokens

extension NotificationToken {
    /// The state of the observation behind the token, as tests look at it.
    var internals: NotificationTokenInternals { NotificationTokenInternals(token: self) }
}

/// The state of the observation behind a ``NotificationToken``.
struct NotificationTokenInternals {
    /// The token looked at.
    let token: NotificationToken

    /// Whether ``NotificationToken/invalidate()`` was called: by the test, or by the
    /// observation itself when what it observed is gone.
    var isInvalidated: Bool { token.isInvalidated }
}

extension Realm.Configuration {
    /// Stops the sync session of the file this configuration opens, so that its thread closes
    /// the file before the test's folder goes.
    func stopSyncSession() {
        SyncSessionRegistry.stopSession(for: self)
    }
}

extension Realm {
    /// Changes the realm's subscriptions in `block` and blocks until the file holds what they
    /// select, at most `timeout` seconds; then refreshes the realm.
    func updateSubscriptions(timeout: Double = 30, _ block: () -> Void) throws {
        let done = DispatchSemaphore(value: 0)
        let outcome = Locked<(any Swift.Error)?>(nil)
        subscriptions.update(block) { error in
            outcome.withLock { $0 = error }
            done.signal()
        }
        guard done.wait(timeout: .now() + timeout) == .success else {
            throw SyncError(.connectionLost, "the subscriptions' update did not finish in \(timeout) s")
        }
        if let error = outcome.withLock({ $0 }) { throw error }
        refresh()
    }
}

extension SyncSession {
    /// Blocks until every local write is uploaded and everything the server had is applied
    /// here, at most `timeout` seconds each.
    func waitUntilSynced(timeout: Double = 30) throws {
        try waitBlocking(for: .upload, timeout: timeout)
        try waitBlocking(for: .download, timeout: timeout)
    }

    /// Blocks until every local write is uploaded, at most `timeout` seconds.
    func waitUntilUploaded(timeout: Double = 30) throws {
        try waitBlocking(for: .upload, timeout: timeout)
    }
}

// MARK: - Sync

extension Internals {
    /// Runs the two stages a download's pages go through: `fetch` on a thread of its own,
    /// one page ahead of `apply`.
    static func pipelinePages<Page>(fetch: @escaping () throws -> Page?, apply: (Page) throws -> Void) throws {
        try PagePipeline.run(fetch: fetch, apply: apply)
    }

    /// A position key between `lower` and `upper`, as an insert at `clock` makes it.
    static func positionKey(between lower: String?, and upper: String?, clock: String) -> String {
        PositionKey.between(lower, upper, clock: clock)
    }

    /// Whether `key` is a valid position key.
    static func isPositionKey(_ key: String) -> Bool { PositionKey.isValid(key) }

    /// How long a position key may grow before its list gets new keys.
    static var longestPositionKey: Int { PositionKey.longest }

    /// The edits an upload carries for a list of strings that the server last had as `shadow`
    /// (keys and values) and is `local` here, made at `clock`.
    static func listEdits(shadow: [(key: String, value: String)], local: [String], clock: String)
        -> (put: [(key: String, value: String)], remove: [String]) {
        let elements = KeyedElements(kind: .list, entries: shadow.map { ($0.key, JSONValue.string($0.value)) })
        let edits = elements.edits(to: .array(local.map(JSONValue.string)), clock: clock)
        return (edits.put.map { ($0.key, $0.value.stringValue ?? "") }, edits.remove)
    }
}
