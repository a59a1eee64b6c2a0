// Durable one-row commits from several threads on SQLite, each thread with a connection of its
// own, as the benchmark's group-commit step does on Burrow with tasks. WAL with
// synchronous=FULL: every commit syncs the log before it returns. SQLite has no group commit:
// a writer holds the database's write lock through its sync, and the others wait on
// busy_timeout.

#include "Baselines.h"
#include "sqlite_require.h"
#include "workload.h"

#include <pthread.h>
#include <sqlite3.h>
#include <stdio.h>
#include <unistd.h>

typedef struct {
    const char *path;
    int index;
    int commits;
} Committer;

static sqlite3 *open_database(const char *path) {
    sqlite3 *database;
    if (sqlite3_open(path, &database) != SQLITE_OK) workload_fail(__FILE__, __LINE__, sqlite3_errmsg(database));
    sqlite3_busy_timeout(database, 60000);
    SQLITE_REQUIRE(database, sqlite3_exec(database, "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL;", NULL, NULL, NULL));
    return database;
}

static void *commit_rows(void *argument) {
    Committer *committer = argument;
    sqlite3 *database = open_database(committer->path);
    sqlite3_stmt *insert;
    SQLITE_REQUIRE(database, sqlite3_prepare_v2(database, "INSERT INTO obj VALUES(?,?,?,?,?,?)", -1, &insert, NULL));
    char name[WORKLOAD_NAME_CAPACITY];
    unsigned char blob[WORKLOAD_BLOB_SIZE];
    for (int commit = 0; commit < committer->commits; commit++) {
        long long id = (long long)committer->index * committer->commits + commit + 1;
        SQLITE_REQUIRE(database, sqlite3_exec(database, "BEGIN IMMEDIATE", NULL, NULL, NULL));
        sqlite_bind_object(insert, id, name, blob);
        SQLITE_REQUIRE(database, sqlite3_step(insert));
        sqlite3_reset(insert);
        SQLITE_REQUIRE(database, sqlite3_exec(database, "COMMIT", NULL, NULL, NULL));
    }
    sqlite3_finalize(insert);
    sqlite3_close(database);
    return NULL;
}

BaselineStep sqlite_concurrent_durable_commits(const char *path, int threads, int commitsPerThread) {
    sqlite_remove_database(path);
    sqlite3 *database = open_database(path);
    SQLITE_REQUIRE(database, sqlite3_exec(database,
                                   "CREATE TABLE obj(id INTEGER PRIMARY KEY, name TEXT, age INTEGER, score REAL, flag INTEGER, blob BLOB);"
                                   "CREATE INDEX obj_name ON obj(name);", NULL, NULL, NULL));
    pthread_t workers[threads];
    Committer committers[threads];
    double start = workload_now();
    for (int index = 0; index < threads; index++) {
        committers[index] = (Committer){path, index, commitsPerThread};
        if (pthread_create(&workers[index], NULL, commit_rows, &committers[index]) != 0) {
            workload_fail(__FILE__, __LINE__, "cannot start a thread");
        }
    }
    for (int index = 0; index < threads; index++) pthread_join(workers[index], NULL);
    double seconds = workload_now() - start;
    sqlite3_stmt *count;
    SQLITE_REQUIRE(database, sqlite3_prepare_v2(database, "SELECT count(*) FROM obj", -1, &count, NULL));
    SQLITE_REQUIRE(database, sqlite3_step(count));
    long long rows = sqlite3_column_int64(count, 0);
    sqlite3_finalize(count);
    sqlite3_close(database);
    sqlite_remove_database(path);
    return (BaselineStep){seconds, rows};
}
