import CSodium
import PostgreSQL

extension ServerSchema {
    /// The view of the change log that every role reads whole: each change's sequence number,
    /// class, kind and clock, and its object's primary key only as a digest (``keyDigest(_:)``),
    /// never a value. A client matches a digest against the objects it holds, to learn that one
    /// of them was deleted or left its role's view.
    static let changeLog = "burrow.change_log"

    /// The digest of a primary key (wire form) that ``changeLog`` shows: SHA-256, in hex, of a
    /// string's text after an `s`, or of any other value's JSON text after a `j`.
    static func keyDigest(_ primaryKey: JSONValue) -> String {
        let text = primaryKey.stringValue.map { "s" + $0 } ?? "j" + primaryKey.text
        var digest = [UInt8](repeating: 0, count: Int(crypto_hash_sha256_BYTES))
        let bytes = Array(text.utf8)
        _ = crypto_hash_sha256(&digest, bytes, UInt64(bytes.count))
        return Hex.text(digest)
    }

    /// ``keyDigest(_:)`` in SQL, of the `jsonb` expression `key`.
    private static func keyDigestSQL(_ key: String) -> String {
        "encode(sha256(convert_to(CASE WHEN jsonb_typeof(\(key)) = 'string' THEN 's' || (\(key) #>> '{}') "
            + "ELSE 'j' || \(key)::text END, 'UTF8')), 'hex')"
    }

    /// Keeps roles apart in Burrow's own tables, as the row-level security policies of the class
    /// tables keep them apart there (a role without those policies sees every row anyway):
    ///
    /// - `burrow.changes` shows a role only the changes of objects whose row it can read now
    ///   (`burrow.can_see`); `burrow.change_log` tells it of the others without their values.
    /// - `burrow.objects` shows a role the histories of those objects and of deleted ones, which
    ///   keep no values (``ObjectHistory``); roles write histories only through
    ///   `burrow.store_histories`, which refuses to overwrite one the role could not read.
    /// - `burrow.sql_writes`, rows other programs wrote, is read only by roles that row-level
    ///   security does not bind (the owner, `BYPASSRLS`): they turn them into changes.
    ///
    /// The owner of these tables and roles with `BYPASSRLS` read everything, as before. Runs in
    /// ``install(on:)``'s transaction, which holds the upload lock.
    static func installIsolation(on connection: PostgresConnection) throws {
        try connection.execute("""
            CREATE OR REPLACE FUNCTION burrow.can_see(class_name text, key jsonb) RETURNS boolean LANGUAGE plpgsql STABLE
            SET search_path = pg_catalog, pg_temp AS $$
            DECLARE
                class_table regclass := to_regclass(format('%I.%I', '\(tableSchema)', class_name));
                key_column name;
                key_type text;
                seen boolean;
            BEGIN
                IF class_table IS NULL OR NOT has_table_privilege(class_table, 'SELECT') THEN RETURN false; END IF;
                -- Without policies, the role reads every row, those deleted since too.
                IF NOT (SELECT relrowsecurity FROM pg_class WHERE oid = class_table) THEN RETURN true; END IF;
                SELECT a.attname, format_type(a.atttypid, a.atttypmod) INTO key_column, key_type
                    FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = i.indkey[0]
                    WHERE i.indrelid = class_table AND i.indisprimary;
                IF key_column IS NULL THEN RETURN false; END IF;
                BEGIN
                    EXECUTE format('SELECT EXISTS (SELECT 1 FROM %s t WHERE t.%I = ($1 #>> ''{}'')::%s)', class_table, key_column, key_type)
                        INTO seen USING key;
                EXCEPTION WHEN data_exception THEN
                    RETURN false;
                END;
                RETURN seen;
            END $$;
            ALTER TABLE burrow.changes ENABLE ROW LEVEL SECURITY;
            DROP POLICY IF EXISTS burrow_read ON burrow.changes;
            DROP POLICY IF EXISTS burrow_write ON burrow.changes;
            CREATE POLICY burrow_read ON burrow.changes FOR SELECT USING (burrow.can_see(class, pk));
            CREATE POLICY burrow_write ON burrow.changes FOR INSERT WITH CHECK (true);
            CREATE OR REPLACE VIEW \(changeLog) AS
                SELECT seq, class, kind, clock, \(keyDigestSQL("pk")) AS key FROM burrow.changes;
            GRANT SELECT ON \(changeLog) TO PUBLIC;
            -- A deleted object's history keeps no values: nothing of it is anyone's to hide.
            UPDATE burrow.objects SET clocks = '{}', collections = '{}'
                WHERE deleted IS NOT NULL AND (created IS NULL OR created <= deleted) AND (clocks <> '{}' OR collections <> '{}');
            ALTER TABLE burrow.objects ENABLE ROW LEVEL SECURITY;
            DROP POLICY IF EXISTS burrow_read ON burrow.objects;
            CREATE POLICY burrow_read ON burrow.objects FOR SELECT
                USING (burrow.can_see(class, pk) OR (deleted IS NOT NULL AND (created IS NULL OR created <= deleted)));
            ALTER TABLE burrow.sql_writes ENABLE ROW LEVEL SECURITY;
            """)
        try installHistoryStore(on: connection)
    }

    /// Creates (or replaces) `burrow.store_histories(records jsonb)`, the one way roles write
    /// histories: it refuses, as row-level security would, to overwrite the history of an
    /// object alive on the server whose row the role could not read (a record without `seen`).
    static func installHistoryStore(on connection: PostgresConnection) throws {
        try connection.execute("""
            CREATE OR REPLACE FUNCTION burrow.store_histories(records jsonb) RETURNS void LANGUAGE plpgsql SECURITY DEFINER
            SET search_path = pg_catalog, pg_temp AS $$
            BEGIN
                -- Histories the role did not read are most often of objects new to the server
                -- (an upload of new objects): inserted as they are, without looking first nor
                -- arbitrating conflicts, which costs several times more. One that exists after
                -- all undoes the insert and takes the way that looks.
                BEGIN
                    INSERT INTO burrow.objects (class, pk, created, deleted, clocks, collections)
                    SELECT class, pk, created, deleted, clocks, collections FROM jsonb_to_recordset(records)
                        AS r(class text, pk jsonb, seen boolean, created text, deleted text, clocks jsonb, collections jsonb)
                    WHERE NOT coalesce(r.seen, false);
                EXCEPTION WHEN unique_violation THEN
                    IF EXISTS (SELECT 1 FROM jsonb_to_recordset(records) AS r(class text, pk jsonb, seen boolean)
                               JOIN burrow.objects o ON o.class = r.class AND o.pk = r.pk
                               WHERE NOT coalesce(r.seen, false) AND o.created IS NOT NULL AND (o.deleted IS NULL OR o.created > o.deleted)) THEN
                        RAISE EXCEPTION 'the server''s row-level security hides this object''s row from this role'
                            USING ERRCODE = 'insufficient_privilege';
                    END IF;
                    INSERT INTO burrow.objects (class, pk, created, deleted, clocks, collections)
                    SELECT class, pk, created, deleted, clocks, collections FROM jsonb_to_recordset(records)
                        AS r(class text, pk jsonb, seen boolean, created text, deleted text, clocks jsonb, collections jsonb)
                    WHERE NOT coalesce(r.seen, false)
                    ON CONFLICT (class, pk) DO UPDATE SET created = EXCLUDED.created, deleted = EXCLUDED.deleted,
                        clocks = EXCLUDED.clocks, collections = EXCLUDED.collections;
                END;
                INSERT INTO burrow.objects (class, pk, created, deleted, clocks, collections)
                SELECT class, pk, created, deleted, clocks, collections FROM jsonb_to_recordset(records)
                    AS r(class text, pk jsonb, seen boolean, created text, deleted text, clocks jsonb, collections jsonb)
                WHERE coalesce(r.seen, false)
                ON CONFLICT (class, pk) DO UPDATE SET created = EXCLUDED.created, deleted = EXCLUDED.deleted,
                    clocks = EXCLUDED.clocks, collections = EXCLUDED.collections;
            END $$;
            """)
    }

    /// Whether `burrow.store_histories` inserts histories new to the server without
    /// arbitrating conflicts (servers set up before it did keep a slower, equivalent one).
    static func historyStoreIsCurrent(on connection: PostgresConnection) throws -> Bool {
        try connection.execute("""
            SELECT coalesce((SELECT prosrc LIKE '%unique_violation%' FROM pg_proc
                             WHERE oid = to_regprocedure('burrow.store_histories(jsonb)')), false)
            """)[0, 0] == "t"
    }
}
