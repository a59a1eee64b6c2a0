#ifndef BURROW_BENCHMARKS_BASELINES_H
#define BURROW_BENCHMARKS_BASELINES_H

/// The workload of Burrow's benchmark on raw LMDB and on SQLite, one C function per step.
///
/// Each step returns the seconds it took (monotonic clock) and a check value: a count, a sum or
/// a number of hits that must equal Burrow's for the same step, so that the three engines are
/// seen to do the same work. Steps run in the order they are declared, on one handle, the way
/// `lmdb_anchor.c` and `sqlite_anchor.c` run them. Any failure prints the library's message
/// and ends the process.
///
///     LMDBBaseline *lmdb = lmdb_baseline_create("/tmp/bench.mdb");
///     BaselineStep insert = lmdb_baseline_insert(lmdb, 1000000);
///     BaselineStep get = lmdb_baseline_random_get(lmdb, 1000000);
///     lmdb_baseline_close(lmdb);

/// The outcome of one step.
typedef struct {
    /// Seconds the step took.
    double seconds;
    /// What the step found or did: objects stored, sum of ages, matches, hits…
    long long check;
} BaselineStep;

// MARK: Raw LMDB

/// An LMDB environment holding the workload: records keyed by 8-byte big-endian id in `objs`,
/// and the name index (`name` → id, `MDB_DUPSORT`) in `idx_name`.
typedef struct LMDBBaseline LMDBBaseline;

/// Creates a fresh environment at `path` (removing any file there), with default (durable)
/// flags plus `MDB_NOSUBDIR | MDB_NOTLS`.
LMDBBaseline *lmdb_baseline_create(const char *path);
/// Closes the environment.
void lmdb_baseline_close(LMDBBaseline *baseline);

/// Stores objects 1…`count` and their name index entries in one write transaction.
/// Check: entries stored.
BaselineStep lmdb_baseline_insert(LMDBBaseline *baseline, long count);
/// Reads `age` of `count` records chosen by `rand_r` (seed 1) among ids 1…`count`.
/// Check: sum of the ages read.
BaselineStep lmdb_baseline_random_get(LMDBBaseline *baseline, long count);
/// Walks every record and counts those with `age < 2`. Check: that count.
BaselineStep lmdb_baseline_scan_filter(LMDBBaseline *baseline);
/// Looks up `queries` names in the name index and counts their duplicates. Check: total hits.
BaselineStep lmdb_baseline_index_equality(LMDBBaseline *baseline, int queries);
/// Read all: a cursor walk decoding every field of every record.
BaselineStep lmdb_baseline_read_all(LMDBBaseline *baseline);
/// Walks the name index in order, skips `offset` entries and reads the next `limit` records
/// (a page sorted by name). Check: sum of the page's ids.
BaselineStep lmdb_baseline_sorted_page(LMDBBaseline *baseline, long offset, int limit);
/// Rewrites every record with `age + 1` in one write transaction. Check: records rewritten.
BaselineStep lmdb_baseline_update_all(LMDBBaseline *baseline);
/// Empties the records and the name index (`mdb_drop`) in one write transaction.
/// Check: entries left.
BaselineStep lmdb_baseline_delete_all(LMDBBaseline *baseline);
/// Commits `commits` write transactions of one record (and its index entry) each, durably.
/// Check: entries stored afterwards.
BaselineStep lmdb_baseline_durable_commits(LMDBBaseline *baseline, int commits);
/// Opens the closed environment at `path` and reads the number of records from the table's
/// header (`mdb_stat`). Check: that number.
BaselineStep lmdb_baseline_open_count(const char *path);

// MARK: Floors of Burrow's design

/// The index-equality step on a fresh raw LMDB file at `path` whose name index is laid out as
/// Burrow's: composite keys `value ++ objectKey` in a plain database, counted by walking each
/// name's entries. The index of objects 1…`count` is written untimed; the file is removed at the
/// end. Check: total hits.
BaselineStep lmdb_composite_index_equality(const char *path, long count, int queries);

/// What ``lmdb_concurrent_reads`` measured.
typedef struct {
    /// Wall-clock seconds from the start of the readers to the end of the last one.
    double seconds;
    /// The sum of the ages read, over every reader.
    long long sum;
    /// Small transactions the writer committed meanwhile.
    long long writes;
} ConcurrentReads;

/// The writer's pause between commits in the concurrent-reads step, the same for both engines:
/// a writer left to loop would take a share of the two cores that depends on its engine's
/// commit speed, not on how reads scale.
#define CONCURRENT_WRITE_PAUSE_MICROSECONDS 2000

/// `threads` reader threads, each with its own read transaction, doing `reads` random
/// primary-key lookups in a fresh file at `path` of objects 1…`count` (written untimed), while
/// one more thread commits one-record writes, each durable, a pause apart, until the readers are
/// done. The file is removed at the end.
ConcurrentReads lmdb_concurrent_reads(const char *path, long count, int threads, long reads);

// MARK: SQLite

/// `threads` threads, each with a connection of its own to a fresh database at `path`, each
/// committing `commitsPerThread` one-row transactions (`BEGIN IMMEDIATE` … `COMMIT`) in WAL
/// mode with `synchronous=FULL`. The database is removed at the end. Check: rows stored.
BaselineStep sqlite_concurrent_durable_commits(const char *path, int threads, int commitsPerThread);

/// A SQLite database holding the workload in table `obj` with an index on `name`, in WAL mode
/// with `synchronous=NORMAL`.
typedef struct SQLiteBaseline SQLiteBaseline;

/// Creates a fresh database at `path` (removing any file there, with its `-wal` and `-shm`).
SQLiteBaseline *sqlite_baseline_create(const char *path);
/// Closes the database.
void sqlite_baseline_close(SQLiteBaseline *baseline);

/// Inserts objects 1…`count` in one transaction. Check: rows stored.
BaselineStep sqlite_baseline_insert(SQLiteBaseline *baseline, long count);
/// `SELECT age … WHERE id = ?` for `count` ids chosen by `rand_r` (seed 1).
/// Check: sum of the ages read.
BaselineStep sqlite_baseline_random_get(SQLiteBaseline *baseline, long count);
/// `SELECT count(*) … WHERE age < 2` (no index on `age`). Check: that count.
BaselineStep sqlite_baseline_scan_filter(SQLiteBaseline *baseline);
/// `SELECT count(*) … WHERE name = ?` for `queries` names, through the index.
/// Check: total hits.
BaselineStep sqlite_baseline_index_equality(SQLiteBaseline *baseline, int queries);
/// Read all: `SELECT id, name, age, score, flag, blob FROM obj`, reading every column.
BaselineStep sqlite_baseline_read_all(SQLiteBaseline *baseline);
/// `SELECT id FROM obj ORDER BY name LIMIT limit OFFSET offset`. Check: sum of the page's ids.
BaselineStep sqlite_baseline_sorted_page(SQLiteBaseline *baseline, long offset, int limit);
/// `UPDATE obj SET age = age + 1` in one transaction. Check: rows changed.
BaselineStep sqlite_baseline_update_all(SQLiteBaseline *baseline);
/// `DELETE FROM obj` in one transaction. Check: rows left.
BaselineStep sqlite_baseline_delete_all(SQLiteBaseline *baseline);
/// Switches to `synchronous=FULL` and commits `commits` transactions of one row each.
/// Check: rows stored afterwards.
BaselineStep sqlite_baseline_durable_commits(SQLiteBaseline *baseline, int commits);
/// Opens the closed database at `path` and runs `SELECT count(*)`. Check: that count.
BaselineStep sqlite_baseline_open_count(const char *path);

// MARK: Encryption

/// libsodium alone opening `count` values of `size` bytes sealed as Burrow seals each row
/// (XChaCha20-Poly1305, nonce before the ciphertext, 16 bytes of associated data), round-robin
/// over 4,096 distinct ones: the least an encrypted read of `count` rows costs.
/// Check: values opened.
BaselineStep sodium_open_floor(long count, int size);

// MARK: Row checksums

/// CRC-32C in hardware of `count` records of `size`-byte values laid out as Burrow checks each
/// row (database id, 8-byte key, value): the least a step that checks `count` rows costs beyond
/// reading them. Check: records checked (0 on a machine without SSE 4.2).
BaselineStep crc32c_record_floor(long count, int size);

// MARK: Instruction counts

/// Whether the program runs under valgrind's callgrind with its client requests compiled in
/// (valgrind's headers were found at build time). When not, the two calls below do nothing.
int instructions_counted(void);
/// Starts counting afresh: callgrind's counters go back to zero.
void instructions_restart(void);
/// Writes what callgrind counted since the last restart to a profile part labelled `label`.
void instructions_dump(const char *label);

#endif
