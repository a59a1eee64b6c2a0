import Foundation
import PostgreSQL

/// Sync's statements against the server of record: applying an upload batch once, in one
/// transaction, and pulling the changes that took effect since a sequence number.
struct ServerStore {
    let connection: PostgresConnection
    /// Each synced class's primary key property name, by class.
    let primaryKeys: [String: String]
    /// The list properties of each synced class that has any, whose elements' position keys a
    /// first download reads from `burrow.objects`.
    var listProperties: [String: [String]] = [:]
    /// Each synced class's primary key column type, by class.
    var primaryKeyTypes: [String: PropertyType] = [:]
    /// A streaming replica to download from, when there is one: the change log and the class
    /// tables as they were a moment ago. Uploads, locks and trimming stay on `connection`.
    var readConnection: PostgresConnection?

    /// Where downloads read.
    private var reader: PostgresConnection { readConnection ?? connection }

    /// `t`'s primary key equals `primaryKey`, a key in wire form in the SQL expression `wire`
    /// (`jsonb`).
    func primaryKeyMatches(_ className: String, wire: String) -> String? {
        guard let name = primaryKeys[className], let type = primaryKeyTypes[className] else { return nil }
        return "t.\(PostgresConnection.quoted(name)) = (\(wire) #>> '{}')::\(SubscriptionSQL.sqlType(type))"
    }

    /// The condition selecting the rows of `className` whose primary keys are `keys` (wire form).
    func rows(_ className: String, keyedBy keys: [JSONValue]) -> String {
        guard let name = primaryKeys[className], let type = primaryKeyTypes[className], !keys.isEmpty else { return "FALSE" }
        let literals = keys.map { SubscriptionSQL.sqlLiteral(wire: $0, type: type) }
        return "t.\(PostgresConnection.quoted(name)) IN (\(literals.joined(separator: ", ")))"
    }

    /// Applies `operations`, batch `number` of `client`, unless the server applied it already
    /// (a retry after a lost acknowledgement): settles each against the object's history,
    /// writes the class tables, the histories and the changes that took effect, and announces
    /// the new sequence number; all in one transaction, after the uploads before it.
    ///
    /// - Throws: ``PostgresError``; ``SyncError`` for a class the server does not know.
    func apply(_ operations: [SyncOperation], batch number: UInt64, client: UUID) throws {
        try once(batch: number, client: client, orElse: ()) { try merge(operations, client: client) }
    }

    /// Runs `body` in one transaction holding the upload lock, unless the server applied batch
    /// `number` of `client` already (a retry after a lost acknowledgement), then records the
    /// batch as applied. Writes other programs made before the batch are ordered before it.
    private func once<Result>(batch number: UInt64, client: UUID, orElse skipped: Result,
                              _ body: () throws -> Result) throws -> Result {
        try connection.transaction {
            try connection.execute("SELECT pg_advisory_xact_lock(\(ServerSchema.uploadLock))")
            let last = try connection.execute("SELECT last_batch FROM burrow.clients WHERE client = $1", [client.uuidString])
            if last.rowCount == 1, let applied = last[0, 0].flatMap(UInt64.init), applied >= number { return skipped }
            while try adoptSQLWritesLocked(limit: Self.sqlWritesPerTurn) == Self.sqlWritesPerTurn {}
            let result = try body()
            try connection.execute("""
                INSERT INTO burrow.clients (client, last_batch) VALUES ($1, $2)
                ON CONFLICT (client) DO UPDATE SET last_batch = EXCLUDED.last_batch, seen = now()
                """, [client.uuidString, String(number)])
            return result
        }
    }

    /// An object's operations the server refused to apply, and why.
    struct Refusal {
        let operations: [SyncOperation]
        let reason: String
    }

    /// Applies batch `number` after the server refused it whole: object by object, each in a
    /// savepoint, leaving out those whose data the server refuses (a row-level security
    /// policy, a constraint), which it returns with the reason. Applied once, as ``apply(_:batch:client:)``.
    ///
    /// - Throws: ``PostgresError`` for any other failure.
    func applyRefusingEach(_ operations: [SyncOperation], batch number: UInt64, client: UUID) throws -> [Refusal] {
        try once(batch: number, client: client, orElse: []) {
            var groups: [HistoryKey: [SyncOperation]] = [:]
            var order: [HistoryKey] = []
            for operation in operations {
                let key = HistoryKey(className: operation.className, primaryKey: operation.primaryKey.asciiText)
                if groups[key] == nil { order.append(key) }
                groups[key, default: []].append(operation)
            }
            var refused: [Refusal] = []
            for key in order {
                try connection.execute("SAVEPOINT burrow_object")
                do {
                    try merge(groups[key]!, client: client)
                    try connection.execute("RELEASE SAVEPOINT burrow_object")
                } catch {
                    guard let reason = Self.refusal(error) else { throw error }
                    try connection.execute("ROLLBACK TO SAVEPOINT burrow_object")
                    refused.append(Refusal(operations: groups[key]!, reason: reason))
                }
            }
            return refused
        }
    }

    /// Why `error` refuses the data written, when it does.
    static func refusal(_ error: any Error) -> String? {
        if let error = error as? PostgresError, error.refusesData { return error.message.trimmingCharacters(in: .whitespacesAndNewlines) }
        if let error = error as? SyncError, error.code == .writeRejected { return error.message }
        return nil
    }

    /// Settles `operations` (made by `client`) against each object's history, writes the class
    /// tables, the histories and the changes that took effect, and announces the new sequence
    /// number, in the transaction under way, which holds the upload lock.
    ///
    /// For objects other programs wrote in SQL, `sqlRows` gives the row before their writes
    /// and the row they left: the writes are settled from the first, and the table is written
    /// only where the settled row differs from the second (a property an upload set later).
    ///
    /// - Throws: ``PostgresError``; ``SyncError`` for a class the server does not know, or a
    ///   row this role cannot read (`writeRejected`).
    func merge(_ operations: [SyncOperation], client: UUID,
               sqlRows: [HistoryKey: (before: [String: JSONValue]?, after: [String: JSONValue]?)] = [:]) throws {
        // Burrow's own writes to the class tables are not other programs' writes.
        try connection.execute("SET LOCAL burrow.applying = 'on'")
        var histories = try loadHistories(of: operations)
        let loaded = Set(histories.keys)
        // Rows written in SQL are known without reading them, which this role may not be let do.
        var rows = try loadRows(of: operations.filter {
            sqlRows[HistoryKey(className: $0.className, primaryKey: $0.primaryKey.asciiText)] == nil
        })
        let read = Set(rows.keys)
        for (key, written) in sqlRows { rows[key] = written.before }
        var effects: [SyncOperation] = []
        var touched: [HistoryKey] = []
        var seen = Set<HistoryKey>()
        for operation in operations {
            let key = HistoryKey(className: operation.className, primaryKey: operation.primaryKey.asciiText)
            guard primaryKeys[operation.className] != nil else {
                throw SyncError(.schemaMismatch, "the class '\(operation.className)' is not synced by the server")
            }
            var history = histories[key] ?? ObjectHistory()
            // An object that exists, whose row this role cannot read: a row-level security
            // policy hides it, and a change to it would silently change nothing.
            if history.exists && rows[key] == nil && !seen.contains(key) && sqlRows[key] == nil {
                throw SyncError(.writeRejected, "the server's row-level security hides this object's row from this role")
            }
            var row = rows[key]
            if let effect = history.apply(operation, to: &row) { effects.append(effect) }
            histories[key] = history
            rows[key] = row
            if seen.insert(key).inserted { touched.append(key) }
        }
        try storeHistories(touched.map { ($0, histories[$0]!) }, seen: loaded)
        // The keys the table did not show are most often of objects new to the server.
        let uploaded = touched.filter { sqlRows[$0] == nil }
        try storeRows(uploaded.map { ($0, rows[$0] ?? nil) }, unread: Set(uploaded).subtracting(read))
        for key in touched {
            guard let written = sqlRows[key], !Self.sameRow(rows[key] ?? nil, written.after) else { continue }
            // A policy may forbid this role the row; the SQL writer's value then stands.
            try connection.execute("SAVEPOINT burrow_sql_row")
            do {
                try storeRows([(key, rows[key] ?? nil)])
                try connection.execute("RELEASE SAVEPOINT burrow_sql_row")
            } catch let error as PostgresError where error.refusesData {
                try connection.execute("ROLLBACK TO SAVEPOINT burrow_sql_row")
            }
        }
        try storeEffects(effects, client: client)
        if !effects.isEmpty {
            try connection.execute("SELECT pg_notify('\(ServerSchema.channel)', (SELECT max(seq)::text FROM \(ServerSchema.changeLog)))")
        }
    }

    private static func sameRow(_ lhs: [String: JSONValue]?, _ rhs: [String: JSONValue]?) -> Bool {
        guard let lhs, let rhs else { return lhs == nil && rhs == nil }
        return lhs.count == rhs.count && lhs.allSatisfy { name, value in rhs[name].map { $0.canonical == value.canonical } ?? false }
    }

    struct HistoryKey: Hashable {
        let className: String
        /// The primary key's wire form as ASCII text (`asciiText`): keys compare byte for byte.
        let primaryKey: String
    }

    private func loadHistories(of operations: [SyncOperation]) throws -> [HistoryKey: ObjectHistory] {
        let keys = JSONValue.array(operations.map { .object([("class", .string($0.className)), ("pk", $0.primaryKey)]) })
        let result = try connection.execute("""
            SELECT o.class, o.pk::text, o.created, o.deleted, o.clocks::text, o.collections::text FROM burrow.objects o
            JOIN jsonb_to_recordset($1::jsonb) AS k(class text, pk jsonb) ON o.class = k.class AND o.pk = k.pk
            """, [keys.text])
        var histories: [HistoryKey: ObjectHistory] = [:]
        for row in 0..<result.rowCount {
            guard let className = result[row, 0], let keyText = result[row, 1], let key = try? JSONValue(parsing: keyText),
                  let clocks = result[row, 4].flatMap({ try? JSONValue(parsing: $0) })?.objectValue,
                  let collections = result[row, 5].flatMap({ try? JSONValue(parsing: $0) })?.objectValue else {
                throw SyncError(.malformedServerData, "burrow.objects holds an unreadable row")
            }
            histories[HistoryKey(className: className, primaryKey: key.asciiText)] = ObjectHistory(
                created: result[row, 2], deleted: result[row, 3],
                clocks: Dictionary(clocks.compactMap { name, clock in clock.stringValue.map { (name, $0) } }, uniquingKeysWith: { a, _ in a }),
                collections: try Dictionary(collections.map { name, state throws(SyncError) in (name, try CollectionState(json: state)) },
                                            uniquingKeysWith: { a, _ in a }))
        }
        return histories
    }

    private func loadRows(of operations: [SyncOperation]) throws -> [HistoryKey: [String: JSONValue]] {
        var rows: [HistoryKey: [String: JSONValue]] = [:]
        for (className, classOperations) in Dictionary(grouping: operations, by: \.className) {
            guard let keyName = primaryKeys[className] else { continue }
            let table = ServerSchema.table(className), column = PostgresConnection.quoted(keyName)
            let keys = JSONValue.array(classOperations.map { .object([(keyName, $0.primaryKey)]) })
            let result = try connection.execute("""
                SELECT to_jsonb(t)::text FROM \(table) t
                WHERE t.\(column) IN (SELECT k.\(column) FROM jsonb_populate_recordset(NULL::\(table), $1::jsonb) k)
                """, [keys.text])
            for row in 0..<result.rowCount {
                guard let text = result[row, 0], let members = (try? JSONValue(parsing: text))?.objectValue,
                      let key = members.first(where: { $0.0 == keyName })?.1 else {
                    throw SyncError(.malformedServerData, "a row of \(table) does not read")
                }
                rows[HistoryKey(className: className, primaryKey: key.asciiText)] = Dictionary(members, uniquingKeysWith: { a, _ in a })
            }
        }
        return rows
    }

    /// Writes `histories`, through `burrow.store_histories`, which refuses (as row-level
    /// security would) to overwrite the history of an object alive on the server that this role
    /// could not read: one not in `seen`.
    private func storeHistories(_ histories: [(HistoryKey, ObjectHistory)], seen: Set<HistoryKey>) throws {
        guard !histories.isEmpty else { return }
        var records = JSONTextWriter(capacity: histories.count * 320)
        records.beginArray()
        for (key, history) in histories {
            records.beginObject()
            records.key("class")
            records.string(key.className)
            // The key's ASCII text is its JSON text.
            records.key("pk")
            records.raw(key.primaryKey)
            records.key("seen")
            records.bool(seen.contains(key))
            records.key("created")
            records.string(history.created)
            records.key("deleted")
            records.string(history.deleted)
            records.key("clocks")
            records.beginObject()
            for (name, clock) in history.clocks.sorted(by: { $0.key < $1.key }) {
                records.key(name)
                records.string(clock)
            }
            records.endObject()
            records.key("collections")
            records.beginObject()
            for (name, state) in history.collections.sorted(by: { $0.key < $1.key }) {
                records.key(name)
                records.value(state.json)
            }
            records.endObject()
            records.endObject()
        }
        records.endArray()
        try connection.execute("SELECT burrow.store_histories($1::jsonb)", [records.text])
    }

    /// Writes `rows` to their class tables: a row deletes its object's row when `nil`, and
    /// replaces or inserts it otherwise. Those of `unread` keys (the table did not show them
    /// when read) are first inserted as they are, without arbitrating conflicts, which costs a
    /// third more; a row there after all undoes that insert and takes the way that replaces.
    private func storeRows(_ rows: [(HistoryKey, [String: JSONValue]?)], unread: Set<HistoryKey> = []) throws {
        for (className, entries) in Dictionary(grouping: rows, by: \.0.className) {
            guard let keyName = primaryKeys[className] else { continue }
            let table = ServerSchema.table(className), column = PostgresConnection.quoted(keyName)
            let alive = entries.compactMap { key, row in row.map { (key, $0) } }
            let gone = try entries.filter { $0.1 == nil }.map { key, _ in JSONValue.object([(keyName, try JSONValue(parsing: key.primaryKey))]) }
            if !gone.isEmpty {
                try connection.execute("""
                    DELETE FROM \(table) WHERE \(column) IN (SELECT k.\(column) FROM jsonb_populate_recordset(NULL::\(table), $1::jsonb) k)
                    """, [JSONValue.array(gone).text])
            }
            let fresh = alive.filter { unread.contains($0.0) }
            if !fresh.isEmpty {
                try connection.execute("SAVEPOINT burrow_new_rows")
                do {
                    try insert(fresh.map(\.1), into: table, keyColumn: column, replacing: false)
                    try connection.execute("RELEASE SAVEPOINT burrow_new_rows")
                } catch let error as PostgresError where error.sqlState == Self.uniqueViolation {
                    try connection.execute("ROLLBACK TO SAVEPOINT burrow_new_rows")
                    try insert(fresh.map(\.1), into: table, keyColumn: column, replacing: true)
                }
            }
            let known = alive.filter { !unread.contains($0.0) }
            if !known.isEmpty { try insert(known.map(\.1), into: table, keyColumn: column, replacing: true) }
        }
    }

    /// PostgreSQL's SQLSTATE for a duplicate key.
    private static let uniqueViolation = "23505"

    /// Inserts `rows` into `table`; `replacing` replaces a row of the same key (`keyColumn`,
    /// quoted) where one exists, and otherwise a row of the same key fails the insert.
    private func insert(_ rows: [[String: JSONValue]], into table: String, keyColumn column: String, replacing: Bool) throws {
        let columns = Set(rows.flatMap(\.keys)).sorted()
        let quoted = columns.map(PostgresConnection.quoted)
        var records = JSONTextWriter(capacity: rows.count * 128)
        records.beginArray()
        for row in rows {
            records.beginObject()
            for (name, value) in row.sorted(by: { $0.key < $1.key }) {
                records.key(name)
                records.value(value)
            }
            records.endObject()
        }
        records.endArray()
        let updates = quoted.filter { $0 != column }.map { "\($0) = EXCLUDED.\($0)" }
        let conflict = !replacing ? "" : "ON CONFLICT (\(column)) DO " + (updates.isEmpty ? "NOTHING" : "UPDATE SET " + updates.joined(separator: ", "))
        try connection.execute("""
            INSERT INTO \(table) (\(quoted.joined(separator: ", ")))
            SELECT \(quoted.joined(separator: ", ")) FROM jsonb_populate_recordset(NULL::\(table), $1::jsonb)
            \(conflict)
            """, [records.text])
    }

    private func storeEffects(_ effects: [SyncOperation], client: UUID) throws {
        guard !effects.isEmpty else { return }
        var records = JSONTextWriter(capacity: effects.count * 256)
        records.beginArray()
        for effect in effects { effect.write(to: &records) }
        records.endArray()
        try connection.execute("""
            INSERT INTO burrow.changes (client, class, pk, kind, clock, fields)
            SELECT $1::uuid, e.value->>'class', e.value->'pk', e.value->>'kind', e.value->>'clock', e.value->'fields'
            FROM jsonb_array_elements($2::jsonb) WITH ORDINALITY AS e(value, position) ORDER BY e.position
            """, [client.uuidString, records.text])
    }

    /// A change pulled: its sequence number, what it did, and whether its object is now in the
    /// view of the subscriptions (`false` also when it is gone).
    struct PulledChange {
        let sequence: UInt64
        let operation: SyncOperation
        let inView: Bool
    }

    /// A change of an object whose row this role cannot read (deleted since, or hidden by a
    /// row-level security policy), as the change log shows it: without its values, its primary
    /// key only as a digest (``ServerSchema/keyDigest(_:)``).
    struct HiddenChange {
        let sequence: UInt64
        let className: String
        let kind: SyncOperation.Kind
        let clock: String?
        let keyDigest: String
    }

    /// A page of the change log.
    struct Page {
        var changes: [PulledChange] = []
        var hidden: [HiddenChange] = []
        /// The first and last sequence numbers of the page, `nil` when it is empty.
        var first: UInt64?
        var last: UInt64?
        /// The size of its text.
        var bytes = 0
    }

    /// The changes after sequence number `after`, oldest first, at most `limit`. `views` holds
    /// the SQL condition of each class whose subscriptions select some of its objects: a change
    /// of another class is in view. A change of an object this role cannot read comes hidden.
    ///
    /// - Throws: ``PostgresError``; ``SyncError/Code/malformedServerData`` for a row that does
    ///   not decode (nothing of the pull is then applied).
    func changes(after sequence: UInt64, limit: Int, views: [String: String] = [:]) throws -> Page {
        // Each class's row is looked up by primary key for each change of the page (a lateral
        // join with LIMIT 1): an EXISTS in the select list may be planned as a hash of the
        // whole table, on every pull.
        var joins: [String] = [], cases: [String] = []
        for (index, (className, condition)) in views.sorted(by: { $0.key < $1.key }).enumerated() {
            guard let matches = primaryKeyMatches(className, wire: "c.pk") else { continue }
            let name = PostgresConnection.literal(className)
            joins.append("""
                LEFT JOIN LATERAL (SELECT TRUE AS found FROM \(ServerSchema.table(className)) t
                    WHERE c.class = \(name) AND \(matches) AND (\(condition)) LIMIT 1) v\(index) ON TRUE
                """)
            cases.append("WHEN \(name) THEN v\(index).found IS NOT NULL")
        }
        let inView = cases.isEmpty ? "TRUE" : "CASE c.class \(cases.joined(separator: " ")) ELSE TRUE END"
        // The whole log comes from the view without values; each change this role may read
        // comes from `burrow.changes`, which shows it no other: looked up by sequence number
        // (a plain join may be planned as a hash of the whole log).
        let result = try reader.execute("""
            SELECT k.seq, k.class, k.kind, k.clock, k.key,
                CASE WHEN c.seq IS NOT NULL THEN
                    json_build_object('class', c.class, 'pk', c.pk, 'kind', c.kind, 'clock', c.clock, 'fields', c.fields)::text
                END,
                \(inView)
            FROM (SELECT * FROM \(ServerSchema.changeLog) WHERE seq > $1 ORDER BY seq LIMIT \(limit)) k
            LEFT JOIN LATERAL (SELECT * FROM burrow.changes x WHERE x.seq = k.seq LIMIT 1) c ON TRUE
            \(joins.joined(separator: "\n"))
            ORDER BY k.seq
            """, [String(sequence)])
        var page = Page()
        for row in 0..<result.rowCount {
            guard let sequence = result[row, 0].flatMap(UInt64.init) else {
                throw SyncError(.malformedServerData, "a row of burrow.changes has no sequence number")
            }
            page.first = page.first ?? sequence
            page.last = sequence
            guard let text = result[row, 5] else {
                guard let className = result[row, 1], let kind = result[row, 2].flatMap(SyncOperation.Kind.init(rawValue:)),
                      let digest = result[row, 4] else {
                    throw SyncError(.malformedServerData, "change \(sequence) of the change log has no class, kind or key")
                }
                let clock = result[row, 3]
                guard kind == .update || clock.flatMap(ChangeClock.init(text:)) != nil else {
                    throw SyncError(.malformedServerData, "change \(sequence), a \(kind.rawValue) of '\(className)', has no valid clock")
                }
                page.hidden.append(HiddenChange(sequence: sequence, className: className, kind: kind, clock: clock, keyDigest: digest))
                continue
            }
            let json: JSONValue
            do { json = try JSONValue(parsing: text) } catch {
                throw SyncError(.malformedServerData, "change \(sequence) does not parse: \(error)")
            }
            page.bytes += text.utf8.count
            page.changes.append(PulledChange(sequence: sequence, operation: try SyncOperation(json: json), inView: result[row, 6] != "f"))
        }
        return page
    }

    /// Checks that the server accepts `condition` on `className`'s table, without running it.
    ///
    /// - Throws: ``PostgresError`` naming what the server refused.
    func check(_ className: String, condition: String) throws {
        try reader.execute("EXPLAIN SELECT 1 FROM \(ServerSchema.table(className)) t WHERE \(condition)")
    }

    /// The latest sequence number (`0` when nothing changed yet), and the last one trimmed
    /// from the change log.
    func position() throws -> (latest: UInt64, trimmed: UInt64) {
        let result = try connection.execute("""
            SELECT coalesce((SELECT max(seq) FROM \(ServerSchema.changeLog)), 0),
                   coalesce((SELECT value FROM burrow.meta WHERE key = 'trimmed'), '0')
            """)
        guard let latest = result[0, 0].flatMap(UInt64.init), let trimmed = result[0, 1].flatMap(UInt64.init) else {
            throw SyncError(.malformedServerData, "the server's sequence numbers do not read")
        }
        return (Swift.max(latest, trimmed), trimmed)
    }

    /// The last sequence number trimmed from the change log.
    func trimmedSequence() throws -> UInt64 {
        let result = try connection.execute("SELECT value FROM burrow.meta WHERE key = 'trimmed'")
        return result.rowCount == 1 ? result[0, 0].flatMap(UInt64.init) ?? 0 : 0
    }

    /// Records that `client` pulled through `sequence`: trimming keeps what it has not pulled.
    func report(pulled sequence: UInt64, client: UUID) throws {
        try connection.execute("""
            INSERT INTO burrow.clients (client, last_batch, pulled) VALUES ($1, 0, $2)
            ON CONFLICT (client) DO UPDATE SET pulled = greatest(burrow.clients.pulled, EXCLUDED.pulled), seen = now()
            """, [client.uuidString, String(sequence)])
    }

    /// Trims the change log past what every client seen lately pulled; returns the last
    /// sequence number trimmed.
    @discardableResult
    func trim() throws -> UInt64 {
        try connection.execute("SELECT burrow.trim()")[0, 0].flatMap(UInt64.init) ?? 0
    }

    /// The latest sequence number, `0` when nothing changed yet.
    func latestSequence() throws -> UInt64 {
        try Self.latestSequence(on: connection)
    }

    /// The latest sequence number where downloads read: behind ``latestSequence()`` while a
    /// replica catches up.
    func readableSequence() throws -> UInt64 {
        try Self.holdsChangeLog(reader) ? Self.latestSequence(on: reader) : 0
    }

    /// Whether `source` has the change log: a replica made before the server was set up has
    /// it once it replays that far.
    private static func holdsChangeLog(_ source: PostgresConnection) throws -> Bool {
        try source.execute("SELECT to_regclass('\(ServerSchema.changeLog)') IS NOT NULL")[0, 0] == "t"
    }

    private static func latestSequence(on source: PostgresConnection) throws -> UInt64 {
        try source.execute("SELECT coalesce(max(seq), 0) FROM \(ServerSchema.changeLog)")[0, 0].flatMap(UInt64.init) ?? 0
    }

    /// Reads the current rows of `classes` (those for which the class's condition in
    /// `conditions` holds, all of them without one) and the sequence number they are current
    /// at, from one consistent snapshot (`REPEATABLE READ`), handing them to `page` a page at a
    /// time as creations; returns that sequence number. What a new client starts from, instead
    /// of replaying every change ever made. Pages start at the lower bound of `pageSizes` and
    /// double up to its upper one: a download killed early has applied some pages, and a large
    /// one commits (and syncs to disk) fewer times.
    ///
    /// A replica whose snapshot is older than `minimum` (what the file already pulled) is not
    /// read: the primary is, so that the file never goes back in time.
    ///
    /// - Throws: ``PostgresError``; ``SyncError/Code/malformedServerData`` for a row that does
    ///   not read; what `page` throws.
    func snapshot(of classes: [String], conditions: [String: String] = [:], pageSizes: ClosedRange<Int>, atLeast minimum: UInt64 = 0,
                  _ page: (_ operations: [SyncOperation], _ bytes: Int, _ rowsLeft: UInt64) throws -> Void) throws -> UInt64 {
        if readConnection != nil, try Self.holdsChangeLog(reader),
           let sequence = try snapshot(on: reader, of: classes, conditions: conditions, pageSizes: pageSizes, atLeast: minimum, page) {
            return sequence
        }
        return try snapshot(on: connection, of: classes, conditions: conditions, pageSizes: pageSizes, atLeast: 0, page) ?? 0
    }

    /// ``snapshot(of:conditions:pageSizes:atLeast:_:)`` read from `source`; `nil`, having read
    /// nothing, when its latest sequence number is below `minimum`.
    private func snapshot(on source: PostgresConnection, of classes: [String], conditions: [String: String], pageSizes: ClosedRange<Int>,
                          atLeast minimum: UInt64,
                          _ page: (_ operations: [SyncOperation], _ bytes: Int, _ rowsLeft: UInt64) throws -> Void) throws -> UInt64? {
        let origin = ChangeClock(timestamp: .zero, client: UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))).text
        let connection = source
        return try connection.transaction(isolation: "REPEATABLE READ") {
            let sequence = try Self.latestSequence(on: connection)
            guard sequence >= minimum else { return nil }
            guard sequence > 0 else { return 0 }
            var rowsLeft: UInt64 = 0
            var pageSize = pageSizes.lowerBound
            for className in classes where primaryKeys[className] != nil {
                let condition = conditions[className].map { " WHERE \($0)" } ?? ""
                rowsLeft += try connection.execute("SELECT count(*) FROM \(ServerSchema.table(className)) t\(condition)")[0, 0].flatMap(UInt64.init) ?? 0
            }
            for className in classes {
                guard let keyName = primaryKeys[className] else { continue }
                let table = ServerSchema.table(className), lists = listProperties[className] ?? []
                let condition = conditions[className].map { " WHERE \($0)" } ?? ""
                // A list's elements have position keys, which only `burrow.objects` holds.
                try connection.execute(lists.isEmpty
                    ? "DECLARE burrow_snapshot NO SCROLL CURSOR FOR SELECT to_jsonb(t)::text, NULL FROM \(table) t\(condition)"
                    : """
                      DECLARE burrow_snapshot NO SCROLL CURSOR FOR SELECT to_jsonb(t)::text, o.collections::text FROM \(table) t
                      LEFT JOIN burrow.objects o ON o.class = \(PostgresConnection.literal(className))
                          AND o.pk = to_jsonb(t.\(PostgresConnection.quoted(keyName)))\(condition)
                      """)
                // The next page is fetched and parsed while this one is applied.
                try PagePipeline.run(fetch: { () throws -> (operations: [SyncOperation], bytes: Int)? in
                    let rows = try connection.execute("FETCH \(pageSize) FROM burrow_snapshot")
                    pageSize = min(pageSize * 2, pageSizes.upperBound)
                    if rows.rowCount == 0 { return nil }
                    var bytes = 0
                    let operations = try (0..<rows.rowCount).map { row throws -> SyncOperation in
                        bytes += (rows[row, 0]?.utf8.count ?? 0) + (rows[row, 1]?.utf8.count ?? 0)
                        guard let text = rows[row, 0], let members = (try? JSONValue(parsing: text))?.objectValue,
                              let key = members.first(where: { $0.0 == keyName })?.1 else {
                            throw SyncError(.malformedServerData, "a row of \(table) does not read")
                        }
                        let states = rows[row, 1].flatMap { try? JSONValue(parsing: $0) }
                        return SyncOperation(className: className, primaryKey: key, kind: .create, clock: origin,
                                             fields: members.map { name, value in
                                                 var field = SyncOperation.Field(value: value, clock: origin)
                                                 if lists.contains(name), let state = states?[name] { field.keys = Self.positionKeys(of: state, for: value) }
                                                 return (name, field)
                                             })
                    }
                    return (operations, bytes)
                }, apply: { fetched in
                    rowsLeft -= min(rowsLeft, UInt64(fetched.operations.count))
                    try page(fetched.operations, fetched.bytes, rowsLeft)
                })
                try connection.execute("CLOSE burrow_snapshot")
            }
            return sequence
        }
    }

    /// The position keys of the elements of the list `value`, from its collection state, or
    /// `nil` (the keys every machine gives a list without them) when the state does not hold
    /// that list: a value written by something else than a sync upload.
    private static func positionKeys(of state: JSONValue, for value: JSONValue) -> [String]? {
        guard let visible = (try? CollectionState(json: state))?.visible, visible.kind == .list,
              let items = value.arrayValue, visible.entries.count == items.count,
              zip(visible.entries, items).allSatisfy({ $0.value.canonical == $1.canonical }) else { return nil }
        return visible.keys
    }
}
