// The workload on SQLite, the store a Swift user would otherwise pick (GRDB, SQLite.swift),
// written after `sqlite_anchor.c`: WAL, synchronous=NORMAL, and synchronous=FULL for the
// durable commits.

#include "Baselines.h"
#include "sqlite_require.h"
#include "workload.h"

#include <sqlite3.h>
#include <unistd.h>

struct SQLiteBaseline {
    sqlite3 *database;
};

/// Runs `sql`, which returns no rows.
static void execute(sqlite3 *database, const char *sql, int line) {
    sqlite_require_at(database, sqlite3_exec(database, sql, NULL, NULL, NULL), __FILE__, line);
}

/// Compiles `sql`.
static sqlite3_stmt *prepare(sqlite3 *database, const char *sql, int line) {
    sqlite3_stmt *statement;
    sqlite_require_at(database, sqlite3_prepare_v2(database, sql, -1, &statement, NULL), __FILE__, line);
    return statement;
}

/// Runs `SELECT count(*) FROM obj` and returns the count.
static long long row_count(sqlite3 *database) {
    sqlite3_stmt *statement = prepare(database, "SELECT count(*) FROM obj", __LINE__);
    SQLITE_REQUIRE(database, sqlite3_step(statement));
    long long count = sqlite3_column_int64(statement, 0);
    sqlite3_finalize(statement);
    return count;
}

SQLiteBaseline *sqlite_baseline_create(const char *path) {
    sqlite_remove_database(path);
    SQLiteBaseline *baseline = calloc(1, sizeof *baseline);
    if (baseline == NULL) workload_fail(__FILE__, __LINE__, "out of memory");
    if (sqlite3_open(path, &baseline->database) != SQLITE_OK) {
        workload_fail(__FILE__, __LINE__, sqlite3_errmsg(baseline->database));
    }
    execute(baseline->database,
            "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;"
            "CREATE TABLE obj(id INTEGER PRIMARY KEY, name TEXT, age INTEGER, score REAL, flag INTEGER, blob BLOB);"
            "CREATE INDEX obj_name ON obj(name);",
            __LINE__);
    return baseline;
}

void sqlite_baseline_close(SQLiteBaseline *baseline) {
    sqlite3_close(baseline->database);
    free(baseline);
}

BaselineStep sqlite_baseline_insert(SQLiteBaseline *baseline, long count) {
    sqlite3 *database = baseline->database;
    char name[WORKLOAD_NAME_CAPACITY];
    unsigned char blob[WORKLOAD_BLOB_SIZE];
    double start = workload_now();
    execute(database, "BEGIN", __LINE__);
    sqlite3_stmt *insert = prepare(database, "INSERT INTO obj VALUES(?,?,?,?,?,?)", __LINE__);
    for (long id = 1; id <= count; id++) {
        sqlite_bind_object(insert, id, name, blob);
        SQLITE_REQUIRE(database, sqlite3_step(insert));
        sqlite3_reset(insert);
    }
    sqlite3_finalize(insert);
    execute(database, "COMMIT", __LINE__);
    double seconds = workload_now() - start;
    return (BaselineStep){seconds, row_count(database)};
}

BaselineStep sqlite_baseline_random_get(SQLiteBaseline *baseline, long count) {
    sqlite3 *database = baseline->database;
    execute(database, "BEGIN", __LINE__);
    unsigned int seed = 1;
    long long sum = 0;
    double start = workload_now();
    sqlite3_stmt *select = prepare(database, "SELECT age FROM obj WHERE id=?", __LINE__);
    for (long lookup = 0; lookup < count; lookup++) {
        sqlite3_bind_int64(select, 1, workload_random_id(&seed, count));
        if (sqlite3_step(select) == SQLITE_ROW) sum += sqlite3_column_int(select, 0);
        sqlite3_reset(select);
    }
    sqlite3_finalize(select);
    double seconds = workload_now() - start;
    execute(database, "COMMIT", __LINE__);
    return (BaselineStep){seconds, sum};
}

BaselineStep sqlite_baseline_scan_filter(SQLiteBaseline *baseline) {
    sqlite3 *database = baseline->database;
    double start = workload_now();
    sqlite3_stmt *select = prepare(database, "SELECT count(*) FROM obj WHERE age<2", __LINE__);
    SQLITE_REQUIRE(database, sqlite3_step(select));
    long long matches = sqlite3_column_int64(select, 0);
    sqlite3_finalize(select);
    double seconds = workload_now() - start;
    return (BaselineStep){seconds, matches};
}

BaselineStep sqlite_baseline_read_all(SQLiteBaseline *baseline) {
    sqlite3 *database = baseline->database;
    double start = workload_now();
    sqlite3_stmt *select = prepare(database, "SELECT id, name, age, score, flag, blob FROM obj", __LINE__);
    long long check = 0;
    int code;
    while ((code = sqlite3_step(select)) == SQLITE_ROW) {
        long long id = sqlite3_column_int64(select, 0);
        const unsigned char *name = sqlite3_column_text(select, 1);
        int name_length = sqlite3_column_bytes(select, 1);
        int32_t age = (int32_t)sqlite3_column_int(select, 2);
        double score = sqlite3_column_double(select, 3);
        int flag = sqlite3_column_int(select, 4);
        const unsigned char *blob = sqlite3_column_blob(select, 5);
        (void)name;
        check += read_all_check(id, age, score, flag, blob ? blob[0] : 0, name_length);
    }
    if (code != SQLITE_DONE) workload_fail(__FILE__, __LINE__, sqlite3_errmsg(database));
    sqlite3_finalize(select);
    double seconds = workload_now() - start;
    return (BaselineStep){seconds, check};
}

BaselineStep sqlite_baseline_index_equality(SQLiteBaseline *baseline, int queries) {
    sqlite3 *database = baseline->database;
    char name[WORKLOAD_NAME_CAPACITY];
    execute(database, "BEGIN", __LINE__);
    double start = workload_now();
    sqlite3_stmt *select = prepare(database, "SELECT count(*) FROM obj WHERE name=?", __LINE__);
    long long hits = 0;
    for (int query = 0; query < queries; query++) {
        int length = workload_query_name(query, name);
        sqlite3_bind_text(select, 1, name, length, SQLITE_STATIC);
        SQLITE_REQUIRE(database, sqlite3_step(select));
        hits += sqlite3_column_int64(select, 0);
        sqlite3_reset(select);
    }
    sqlite3_finalize(select);
    double seconds = workload_now() - start;
    execute(database, "COMMIT", __LINE__);
    return (BaselineStep){seconds, hits};
}

BaselineStep sqlite_baseline_sorted_page(SQLiteBaseline *baseline, long offset, int limit) {
    sqlite3 *database = baseline->database;
    double start = workload_now();
    sqlite3_stmt *select = prepare(database, "SELECT id FROM obj ORDER BY name LIMIT ? OFFSET ?", __LINE__);
    sqlite3_bind_int(select, 1, limit);
    sqlite3_bind_int64(select, 2, offset);
    long long idSum = 0;
    while (sqlite3_step(select) == SQLITE_ROW) idSum += sqlite3_column_int64(select, 0);
    sqlite3_finalize(select);
    double seconds = workload_now() - start;
    return (BaselineStep){seconds, idSum};
}

BaselineStep sqlite_baseline_update_all(SQLiteBaseline *baseline) {
    sqlite3 *database = baseline->database;
    double start = workload_now();
    execute(database, "BEGIN; UPDATE obj SET age=age+1;", __LINE__);
    long long changed = sqlite3_changes(database);
    execute(database, "COMMIT", __LINE__);
    double seconds = workload_now() - start;
    return (BaselineStep){seconds, changed};
}

BaselineStep sqlite_baseline_delete_all(SQLiteBaseline *baseline) {
    sqlite3 *database = baseline->database;
    double start = workload_now();
    execute(database, "BEGIN; DELETE FROM obj; COMMIT;", __LINE__);
    double seconds = workload_now() - start;
    return (BaselineStep){seconds, row_count(database)};
}

BaselineStep sqlite_baseline_durable_commits(SQLiteBaseline *baseline, int commits) {
    sqlite3 *database = baseline->database;
    char name[WORKLOAD_NAME_CAPACITY];
    unsigned char blob[WORKLOAD_BLOB_SIZE];
    execute(database, "PRAGMA synchronous=FULL", __LINE__);
    sqlite3_stmt *insert = prepare(database, "INSERT INTO obj VALUES(?,?,?,?,?,?)", __LINE__);
    double start = workload_now();
    for (int commit = 0; commit < commits; commit++) {
        execute(database, "BEGIN", __LINE__);
        sqlite_bind_object(insert, commit + 1, name, blob);
        SQLITE_REQUIRE(database, sqlite3_step(insert));
        sqlite3_reset(insert);
        execute(database, "COMMIT", __LINE__);
    }
    double seconds = workload_now() - start;
    sqlite3_finalize(insert);
    return (BaselineStep){seconds, row_count(database)};
}

BaselineStep sqlite_baseline_open_count(const char *path) {
    double start = workload_now();
    sqlite3 *database;
    if (sqlite3_open(path, &database) != SQLITE_OK) {
        workload_fail(__FILE__, __LINE__, sqlite3_errmsg(database));
    }
    long long count = row_count(database);
    double seconds = workload_now() - start;
    sqlite3_close(database);
    return (BaselineStep){seconds, count};
}
