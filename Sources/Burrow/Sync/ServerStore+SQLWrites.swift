import Foundation
import PostgreSQL

extension ServerStore {
    /// The client id of changes other programs made in SQL.
    static let sqlWriter = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
    /// How many recorded SQL writes one transaction turns into changes at most.
    static let sqlWritesPerTurn = 1000

    /// Turns the writes other programs made to the class tables in SQL (`INSERT`, `UPDATE`,
    /// `DELETE`, recorded by triggers in `burrow.sql_writes`) into changes, settled by the same
    /// rules as uploads, in the order they committed and before any upload after them; returns
    /// how many it turned. Any client does it, once it hears of them.
    ///
    /// Each write gets a clock from the server's time when it was made, later than that of the
    /// write before it: a property set in SQL wins over an upload made before it, and loses to
    /// one made after.
    ///
    /// - Throws: ``PostgresError``.
    @discardableResult
    func adoptSQLWrites(limit: Int = ServerStore.sqlWritesPerTurn) throws -> Int {
        let waiting = try connection.execute("SELECT EXISTS (SELECT 1 FROM burrow.sql_writes)")
        guard waiting[0, 0] == "t" else { return 0 }
        return try connection.transaction {
            try connection.execute("SELECT pg_advisory_xact_lock(\(ServerSchema.uploadLock))")
            return try adoptSQLWritesLocked(limit: limit)
        }
    }

    /// ``adoptSQLWrites(limit:)`` in a transaction that holds the upload lock.
    func adoptSQLWritesLocked(limit: Int) throws -> Int {
        let result = try connection.execute("""
            SELECT id, class, kind, old::text, new::text, milliseconds FROM burrow.sql_writes ORDER BY id LIMIT \(limit)
            """)
        guard result.rowCount > 0 else { return 0 }
        let stored = try connection.execute("SELECT value FROM burrow.meta WHERE key = 'sql_clock'")
        var last = stored.rowCount == 1 ? stored[0, 0].flatMap { UInt64($0) } ?? 0 : 0
        var operations: [SyncOperation] = []
        var sqlRows: [HistoryKey: (before: [String: JSONValue]?, after: [String: JSONValue]?)] = [:]
        var lastID = ""
        for row in 0..<result.rowCount {
            lastID = result[row, 0] ?? lastID
            // A write that does not read (a table renamed to a class's name, a hand-made row)
            // is dropped: nothing a client could apply comes of it.
            guard let className = result[row, 1], let keyName = primaryKeys[className], let kind = result[row, 2],
                  let milliseconds = result[row, 5].flatMap(Int64.init), milliseconds >= 0 else { continue }
            let old = result[row, 3].flatMap { try? JSONValue(parsing: $0) }?.objectValue
            let new = result[row, 4].flatMap { try? JSONValue(parsing: $0) }?.objectValue
            let reading = HybridTimestamp(milliseconds: UInt64(milliseconds))
            last = Swift.max(reading.rawValue, last &+ 1)
            let clock = ChangeClock(timestamp: HybridTimestamp(rawValue: last), client: Self.sqlWriter).text
            for operation in Self.operations(className: className, keyName: keyName, kind: kind, old: old, new: new, clock: clock) {
                let key = HistoryKey(className: className, primaryKey: operation.primaryKey.asciiText)
                func row(_ members: [(String, JSONValue)]?) -> [String: JSONValue]? {
                    guard let members, Self.member(keyName, of: members)?.asciiText == operation.primaryKey.asciiText else { return nil }
                    return Dictionary(members, uniquingKeysWith: { a, _ in a })
                }
                // The row before the first of its writes, which they are settled from, and the
                // row the last one left.
                let before = sqlRows[key].map { $0.before } ?? row(old)
                sqlRows[key] = (before, operation.kind == .delete ? nil : row(new))
                operations.append(operation)
            }
        }
        try merge(operations, client: Self.sqlWriter, sqlRows: sqlRows)
        try connection.execute("DELETE FROM burrow.sql_writes WHERE id <= $1", [lastID])
        try connection.execute("""
            INSERT INTO burrow.meta VALUES ('sql_clock', $1) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value
            """, [String(last)])
        return result.rowCount
    }

    private static func member(_ name: String, of members: [(String, JSONValue)]) -> JSONValue? {
        members.first { $0.0 == name }?.1
    }

    /// The changes one SQL write made: a creation with every column, an update with the columns
    /// it changed, a deletion; an update of the primary key deletes one object and creates another.
    static func operations(className: String, keyName: String, kind: String, old: [(String, JSONValue)]?,
                           new: [(String, JSONValue)]?, clock: String) -> [SyncOperation] {
        func creation(_ row: [(String, JSONValue)], key: JSONValue) -> SyncOperation {
            SyncOperation(className: className, primaryKey: key, kind: .create, clock: clock,
                          fields: row.map { ($0.0, SyncOperation.Field(value: $0.1, clock: clock)) })
        }
        func deletion(key: JSONValue) -> SyncOperation {
            SyncOperation(className: className, primaryKey: key, kind: .delete, clock: clock, fields: [])
        }
        let oldKey = old.flatMap { member(keyName, of: $0) }, newKey = new.flatMap { member(keyName, of: $0) }
        switch kind {
        case "insert":
            guard let new, let newKey else { return [] }
            return [creation(new, key: newKey)]
        case "delete":
            guard let oldKey else { return [] }
            return [deletion(key: oldKey)]
        default:
            guard let old, let new, let oldKey, let newKey else { return [] }
            if oldKey.canonical != newKey.canonical { return [deletion(key: oldKey), creation(new, key: newKey)] }
            let before = Dictionary(old, uniquingKeysWith: { a, _ in a })
            let changed = new.filter { name, value in before[name].map { $0.canonical != value.canonical } ?? true }
            guard !changed.isEmpty else { return [] }
            return [SyncOperation(className: className, primaryKey: newKey, kind: .update, clock: nil,
                                  fields: changed.map { ($0.0, SyncOperation.Field(value: $0.1, clock: clock)) })]
        }
    }
}
