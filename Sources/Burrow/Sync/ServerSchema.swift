import PostgreSQL

/// Burrow's tables in the server's database: the `burrow` schema of sync's own records, and a
/// table per synced class, named as the class, with a column per property in its natural
/// PostgreSQL type, so that any program reads the current data with plain SQL.
///
/// - `burrow.meta`: the server's id and the format.
/// - `burrow.classes`: each synced class's properties and their types.
/// - `burrow.clients`: each client's last applied upload batch (uploads apply once), the
///   sequence number it pulled through, and when it was last seen (what trimming keeps).
/// - `burrow.objects`: per object, when it was last created and deleted, when each
///   property was last set (the clocks that settle conflicts), and each collection element
///   by element (``CollectionState``).
/// - `burrow.changes`: every change that took effect, numbered by a server sequence: what
///   clients pull.
/// - `burrow.sql_writes`: writes other programs made to the class tables in SQL, recorded by
///   triggers, until a client turns them into changes.
/// - `burrow.change_log`: the change log without values, which every role reads whole; each
///   role reads in `burrow.changes` and `burrow.objects` only what its policies show it of the
///   class tables (``installIsolation(on:)``).
enum ServerSchema {
    /// The channel on which commits announce their last sequence number.
    static let channel = "burrow_changes"
    /// What a write made in SQL announces on ``channel``.
    static let sqlWritePayload = "sql"
    /// The schema of the class tables. Named outright: a search path that starts with the
    /// role's own schema would put them elsewhere for a role named like one (`burrow`).
    static let tableSchema = "public"

    /// The qualified name of `className`'s table: `public."Task"`.
    static func table(_ className: String) -> String {
        PostgresConnection.quoted(tableSchema) + "." + PostgresConnection.quoted(className)
    }

    /// The key of the advisory lock that orders uploads: the sequence numbers of changes then
    /// commit in order, so a client that pulled through one never misses a smaller one.
    static let uploadLock = 7_362_001

    /// Creates the `burrow` schema and its tables, unless they exist.
    ///
    /// - Throws: ``PostgresError``.
    static func install(on connection: PostgresConnection) throws {
        // A database an operator set up needs nothing, and its clients' roles may not create.
        guard !(try installedParts(on: connection)).isComplete else { return }
        try connection.transaction {
            try connection.execute("SELECT pg_advisory_xact_lock(\(uploadLock))")
            // Checked again under the lock: clients connecting at once all find the schema
            // missing, and the ones that waited must not alter again what the first installed
            // (its ALTER TABLEs would wait on the others' reads, which wait on them: a deadlock).
            let parts = try installedParts(on: connection)
            guard parts.changes else {
                try connection.execute("""
                    CREATE SCHEMA IF NOT EXISTS burrow;
                    CREATE TABLE IF NOT EXISTS burrow.meta (key text PRIMARY KEY, value text NOT NULL);
                    INSERT INTO burrow.meta VALUES ('server', gen_random_uuid()::text), ('format', '1') ON CONFLICT DO NOTHING;
                    CREATE TABLE IF NOT EXISTS burrow.classes (name text PRIMARY KEY, properties jsonb NOT NULL);
                    CREATE TABLE IF NOT EXISTS burrow.clients (client uuid PRIMARY KEY, last_batch bigint NOT NULL,
                        seen timestamptz NOT NULL DEFAULT now());
                    CREATE TABLE IF NOT EXISTS burrow.objects (class text NOT NULL, pk jsonb NOT NULL, created text COLLATE "C",
                        deleted text COLLATE "C", clocks jsonb NOT NULL DEFAULT '{}', collections jsonb NOT NULL DEFAULT '{}',
                        PRIMARY KEY (class, pk));
                    CREATE TABLE IF NOT EXISTS burrow.changes (seq bigserial PRIMARY KEY, client uuid NOT NULL, class text NOT NULL,
                        pk jsonb NOT NULL, kind text NOT NULL CHECK (kind IN ('create', 'update', 'delete')), clock text COLLATE "C",
                        fields jsonb NOT NULL DEFAULT '{}', at timestamptz NOT NULL DEFAULT now());
                    """)
                try installCapture(on: connection)
                try installTrimming(on: connection)
                try installIsolation(on: connection)
                return
            }
            // A server set up before collections merged element by element gains their column.
            if !parts.collections {
                try connection.execute("ALTER TABLE burrow.objects ADD COLUMN IF NOT EXISTS collections jsonb NOT NULL DEFAULT '{}'")
            }
            // And one set up before other programs' writes were synced gains their capture.
            if !parts.capture { try installCapture(on: connection) }
            // And one set up before the change log was trimmed gains the trimming.
            if !parts.trimming { try installTrimming(on: connection) }
            // And one set up before roles were kept apart in the change log gains that.
            if !parts.isolation { try installIsolation(on: connection) }
        }
    }

    /// Which parts of Burrow's schema the server has.
    private struct InstalledParts {
        let changes, collections, capture, trimming, isolation: Bool
        var isComplete: Bool { changes && collections && capture && trimming && isolation }
    }

    /// Reads which parts of Burrow's schema the server has, from its catalog alone.
    private static func installedParts(on connection: PostgresConnection) throws -> InstalledParts {
        let found = try connection.execute("""
            SELECT to_regclass('burrow.changes') IS NOT NULL,
                   EXISTS (SELECT 1 FROM information_schema.columns
                           WHERE table_schema = 'burrow' AND table_name = 'objects' AND column_name = 'collections'),
                   to_regclass('burrow.sql_writes') IS NOT NULL,
                   to_regprocedure('burrow.trim()') IS NOT NULL,
                   to_regclass('\(changeLog)') IS NOT NULL
            """)
        return InstalledParts(changes: found[0, 0] == "t", collections: found[0, 1] == "t", capture: found[0, 2] == "t",
                              trimming: found[0, 3] == "t", isolation: found[0, 4] == "t")
    }

    /// The key of the lock that one trimming of the change log holds at a time.
    static let trimLock = 7_362_002

    /// Creates `burrow.trim()`, which removes the changes every client seen within the
    /// retention (`burrow.meta`'s `client_retention`, an interval, 7 days unless set) has
    /// pulled, keeping the latest, and records the last removed in `burrow.meta`'s `trimmed`.
    /// A client behind that point downloads its subscriptions again (a client reset). Runs in
    /// ``install(on:)``'s transaction, which holds the upload lock.
    private static func installTrimming(on connection: PostgresConnection) throws {
        try connection.execute("""
            ALTER TABLE burrow.clients ADD COLUMN IF NOT EXISTS pulled bigint NOT NULL DEFAULT 0;
            INSERT INTO burrow.meta VALUES ('trimmed', '0') ON CONFLICT DO NOTHING;
            CREATE OR REPLACE FUNCTION burrow.trim() RETURNS bigint LANGUAGE plpgsql SECURITY DEFINER
            SET search_path = pg_catalog, pg_temp AS $$
            DECLARE
                retention interval := coalesce((SELECT value FROM burrow.meta WHERE key = 'client_retention'), '7 days')::interval;
                trimmed bigint := coalesce((SELECT value::bigint FROM burrow.meta WHERE key = 'trimmed'), 0);
                newest bigint;
                horizon bigint;
            BEGIN
                IF NOT pg_try_advisory_xact_lock(\(trimLock)) THEN RETURN trimmed; END IF;
                SELECT max(seq) INTO newest FROM burrow.changes;
                IF newest IS NULL THEN RETURN trimmed; END IF;
                SELECT least(coalesce(min(pulled), newest), newest - 1) INTO horizon
                    FROM burrow.clients WHERE seen > now() - retention;
                IF horizon <= trimmed THEN RETURN trimmed; END IF;
                DELETE FROM burrow.changes WHERE seq <= horizon;
                UPDATE burrow.meta SET value = horizon::text WHERE key = 'trimmed';
                RETURN horizon;
            END $$;
            """)
    }

    /// Creates what records the writes other programs make to the class tables in SQL:
    /// `burrow.sql_writes`, which clients turn into changes (``ServerStore/adoptSQLWrites(limit:)``),
    /// and the trigger functions. A statement that writes a class table first takes the upload
    /// lock shared, so that uploads, which take it alone, see its writes recorded before they
    /// merge. A `TRUNCATE` would leave every client holding rows the server lost: it is refused.
    /// Runs in ``install(on:)``'s transaction, which holds the upload lock.
    private static func installCapture(on connection: PostgresConnection) throws {
        try connection.execute("""
            CREATE SCHEMA IF NOT EXISTS burrow;
            CREATE TABLE IF NOT EXISTS burrow.sql_writes (id bigserial PRIMARY KEY, class text NOT NULL,
                kind text NOT NULL CHECK (kind IN ('insert', 'update', 'delete')), old jsonb, new jsonb,
                milliseconds bigint NOT NULL);
            CREATE OR REPLACE FUNCTION burrow.order_sql_write() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                IF coalesce(current_setting('burrow.applying', true), '') <> 'on' THEN
                    PERFORM pg_advisory_xact_lock_shared(\(uploadLock));
                END IF;
                RETURN NULL;
            END $$;
            CREATE OR REPLACE FUNCTION burrow.capture_sql_write() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER
            SET search_path = pg_catalog, pg_temp AS $$
            BEGIN
                IF coalesce(current_setting('burrow.applying', true), '') = 'on' THEN RETURN NULL; END IF;
                INSERT INTO burrow.sql_writes (class, kind, old, new, milliseconds) VALUES (TG_TABLE_NAME, lower(TG_OP),
                    CASE WHEN TG_OP <> 'INSERT' THEN to_jsonb(OLD) END, CASE WHEN TG_OP <> 'DELETE' THEN to_jsonb(NEW) END,
                    floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint);
                PERFORM pg_notify('\(channel)', '\(sqlWritePayload)');
                RETURN NULL;
            END $$;
            CREATE OR REPLACE FUNCTION burrow.refuse_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                RAISE EXCEPTION 'TRUNCATE of the synced table % would leave clients holding rows the server lost; use DELETE', TG_TABLE_NAME;
            END $$;
            """)
    }

    /// Adds the triggers that record other programs' writes to each of `classes`' tables,
    /// where they lack them.
    private static func addCapture(to classes: [String], on connection: PostgresConnection) throws {
        let existing = try connection.execute("""
            SELECT c.relname FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE t.tgname = 'burrow_capture' AND n.nspname = $1
            """, [tableSchema])
        let captured = Set((0..<existing.rowCount).compactMap { existing[$0, 0] })
        for className in classes where !captured.contains(className) {
            let table = table(className)
            try connection.execute("""
                CREATE TRIGGER burrow_order BEFORE INSERT OR UPDATE OR DELETE ON \(table)
                    FOR EACH STATEMENT EXECUTE FUNCTION burrow.order_sql_write();
                \(captureTrigger(on: table));
                CREATE TRIGGER burrow_no_truncate BEFORE TRUNCATE ON \(table)
                    FOR EACH STATEMENT EXECUTE FUNCTION burrow.refuse_truncate();
                """)
        }
    }

    /// The statement that creates the trigger recording other programs' writes to `table`.
    /// Burrow's own writes are left out in its condition, not in its body: an after-row trigger
    /// otherwise queues an event for each row an upload writes.
    private static func captureTrigger(on table: String) -> String {
        """
        CREATE TRIGGER burrow_capture AFTER INSERT OR UPDATE OR DELETE ON \(table)
            FOR EACH ROW WHEN (coalesce(current_setting('burrow.applying', true), '') <> 'on')
            EXECUTE FUNCTION burrow.capture_sql_write()
        """
    }

    /// Brings what a server set up by an earlier version runs up to date where it did the same
    /// work more slowly: the history store (``installHistoryStore(on:)``) and the class tables'
    /// capture triggers. An operator's act (``Realm/setUpSyncServer(_:for:)``, `burrow sync
    /// setup`), with the rights of the owner of Burrow's schema; clients that connect leave
    /// the server as they find it, since their roles may not alter it.
    ///
    /// - Throws: ``PostgresError``.
    static func upgrade(on connection: PostgresConnection) throws {
        try connection.transaction {
            try connection.execute("SELECT pg_advisory_xact_lock(\(uploadLock))")
            if try !historyStoreIsCurrent(on: connection) { try installHistoryStore(on: connection) }
            let outdated = try connection.execute("""
                SELECT c.relname FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_namespace n ON n.oid = c.relnamespace
                WHERE t.tgname = 'burrow_capture' AND n.nspname = $1 AND t.tgqual IS NULL
                """, [tableSchema])
            for className in (0..<outdated.rowCount).compactMap({ outdated[$0, 0] }) {
                try connection.execute("DROP TRIGGER burrow_capture ON \(table(className)); \(captureTrigger(on: table(className)))")
            }
        }
    }

    /// The server's id: a file that synced with one server refuses another.
    static func serverID(on connection: PostgresConnection) throws -> String {
        let result = try connection.execute("SELECT value FROM burrow.meta WHERE key = 'server'")
        guard result.rowCount == 1, let id = result[0, 0] else { throw SyncError(.schemaMismatch, "the server's burrow.meta has no id") }
        return id
    }

    /// Each synced class's primary key column, by class, as the server's tables have them.
    ///
    /// - Throws: ``PostgresError``.
    static func primaryKeys(on connection: PostgresConnection) throws -> [String: String] {
        let result = try connection.execute("""
            SELECT c.name, a.attname FROM burrow.classes c
            JOIN pg_index i ON i.indrelid = to_regclass(format('%I.%I', $1::text, c.name)) AND i.indisprimary
            JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = i.indkey[0]
            """, [tableSchema])
        var keys: [String: String] = [:]
        for row in 0..<result.rowCount {
            if let className = result[row, 0], let column = result[row, 1] { keys[className] = column }
        }
        return keys
    }

    /// The PostgreSQL type of `property`'s column; `primaryKeyTypes` gives each class's primary
    /// key column type, for links.
    static func columnType(of property: Property, primaryKeyTypes: [String: String]) -> String {
        if property.isArray || property.isSet || property.isMap { return "jsonb" }
        if property.type == .object { return property.objectClassName.flatMap { primaryKeyTypes[$0] } ?? "jsonb" }
        return scalarType(property.type)
    }

    /// The PostgreSQL type of one value of `type`; `jsonb` for those without one of their own.
    static func scalarType(_ type: PropertyType) -> String {
        switch type {
        case .int: "bigint"
        case .bool: "boolean"
        case .float: "real"
        case .double: "double precision"
        case .string, .objectId: "text"
        case .data: "bytea"
        case .date: "timestamptz"
        case .decimal128: "numeric"
        case .UUID: "uuid"
        case .any, .object, .linkingObjects: "jsonb"
        }
    }

    /// Creates the table of each class of `schemas` (top-level classes with primary keys) that
    /// the server lacks, and adds the columns of properties it lacks: an additive migration.
    ///
    /// - Throws: ``SyncError/Code/schemaMismatch`` when a property has another type on the
    ///   server (a destructive change, refused); ``PostgresError``.
    static func migrate(_ schemas: [ObjectSchema], on connection: PostgresConnection) throws {
        var primaryKeyTypes: [String: String] = [:]
        for schema in schemas where !schema.isEmbedded {
            if let key = schema.primaryKeyProperty { primaryKeyTypes[schema.className] = columnType(of: key, primaryKeyTypes: [:]) }
        }
        try connection.transaction {
            try connection.execute("SELECT pg_advisory_xact_lock(\(uploadLock))")
            for schema in schemas where !schema.isEmbedded {
                guard let key = schema.primaryKeyProperty else { continue }
                let properties = schema.properties.filter { $0.type != .linkingObjects }
                let wanted = properties.map { ($0.name, columnType(of: $0, primaryKeyTypes: primaryKeyTypes)) }
                let existing = try connection.execute("SELECT properties::text FROM burrow.classes WHERE name = $1", [schema.className])
                let table = table(schema.className)
                if existing.rowCount == 0 {
                    let columns = wanted.map { name, type in
                        "\(PostgresConnection.quoted(name)) \(type)\(name == key.name ? " PRIMARY KEY" : "")"
                    }
                    try connection.execute("CREATE TABLE IF NOT EXISTS \(table) (\(columns.joined(separator: ", ")))")
                    try connection.execute("INSERT INTO burrow.classes VALUES ($1, $2::jsonb)",
                                           [schema.className, JSONValue.object(wanted.map { ($0, .string($1)) }).text])
                    continue
                }
                guard let text = existing[0, 0], let stored = try? JSONValue(parsing: text), let members = stored.objectValue else {
                    throw SyncError(.malformedServerData, "burrow.classes holds an unreadable entry for '\(schema.className)'")
                }
                var merged = members
                for (name, type) in wanted {
                    if let serverType = members.first(where: { $0.0 == name })?.1.stringValue {
                        guard serverType == type else {
                            throw SyncError(.schemaMismatch, "'\(schema.className).\(name)' is \(serverType) on the server and \(type) in this file: only additive changes are synced")
                        }
                        continue
                    }
                    try connection.execute("ALTER TABLE \(table) ADD COLUMN IF NOT EXISTS \(PostgresConnection.quoted(name)) \(type)")
                    merged.append((name, .string(type)))
                }
                if merged.count != members.count {
                    try connection.execute("UPDATE burrow.classes SET properties = $2::jsonb WHERE name = $1",
                                           [schema.className, JSONValue.object(merged).text])
                }
            }
            try addCapture(to: schemas.filter { !$0.isEmbedded && $0.primaryKeyProperty != nil }.map(\.className), on: connection)
        }
    }
}
