#ifndef BURROW_BENCHMARKS_SQLITE_REQUIRE_H
#define BURROW_BENCHMARKS_SQLITE_REQUIRE_H

#include "workload.h"

#include <sqlite3.h>
#include <stdio.h>
#include <unistd.h>

/// Ends the process with SQLite's message, naming `file` and `line`, when `code` is not a
/// success.
static inline void sqlite_require_at(sqlite3 *database, int code, const char *file, int line) {
    if (code != SQLITE_OK && code != SQLITE_DONE && code != SQLITE_ROW) {
        workload_fail(file, line, sqlite3_errmsg(database));
    }
}

#define SQLITE_REQUIRE(database, call) sqlite_require_at((database), (call), __FILE__, __LINE__)

/// Binds object `id`'s values to the six parameters of `INSERT INTO obj VALUES(?,…)`.
/// `name` and `blob` must outlive the statement's next step.
static inline void sqlite_bind_object(sqlite3_stmt *statement, long long id, char *name, unsigned char *blob) {
    int length = workload_name(id, name);
    workload_blob(id, blob);
    sqlite3_bind_int64(statement, 1, id);
    sqlite3_bind_text(statement, 2, name, length, SQLITE_STATIC);
    sqlite3_bind_int(statement, 3, workload_age(id));
    sqlite3_bind_double(statement, 4, workload_score(id));
    sqlite3_bind_int(statement, 5, workload_flag(id));
    sqlite3_bind_blob(statement, 6, blob, WORKLOAD_BLOB_SIZE, SQLITE_STATIC);
}

/// Removes the database at `path` with its `-wal` and `-shm` files, if there are any.
static inline void sqlite_remove_database(const char *path) {
    char sidePath[4096];
    unlink(path);
    snprintf(sidePath, sizeof sidePath, "%s-wal", path);
    unlink(sidePath);
    snprintf(sidePath, sizeof sidePath, "%s-shm", path);
    unlink(sidePath);
}

#endif
