// Durable one-row commits from several threads on SQLite, each thread with a connection of its
// own, as the benchmark's group-commit step does on Burrow with tasks. WAL with
// synchronous=FULL: every commit syncs the log before it returns. SQLite has no group commit:
// a writer holds the database's write lock through its sync, and the others wait on
// busy_timeout.

#include "Baselines.h"
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

static void require(sqlite3 *database, int code, int line) {
    if (code != SQLITE_OK && code != SQLITE_DONE && code != SQLITE_ROW) {
        workload_fail(__FILE__, line, sqlite3_errmsg(database));
    }
}

static sqlite3 *open_database(const char *path) {
    sqlite3 *database;
    if (sqlite3_open(path, &database) != SQLITE_OK) workload_fail(__FILE__, __LINE__, sqlite3_errmsg(database));
    sqlite3_busy_timeout(database, 60000);
    require(database, sqlite3_exec(database, "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL;", NULL, NULL, NULL), __LINE__);
    return database;
}

static void *commit_rows(void *argument) {
    Committer *committer = argument;
    sqlite3 *database = open_database(committer->path);
    sqlite3_stmt *insert;
    require(database, sqlite3_prepare_v2(database, "INSERT INTO obj VALUES(?,?,?,?,?,?)", -1, &insert, NULL), __LINE__);
    char name[WORKLOAD_NAME_CAPACITY];
    unsigned char blob[WORKLOAD_BLOB_SIZE];
    for (int commit = 0; commit < committer->commits; commit++) {
        long long id = (long long)committer->index * committer->commits + commit + 1;
        require(database, sqlite3_exec(database, "BEGIN IMMEDIATE", NULL, NULL, NULL), __LINE__);
        int length = workload_name(id, name);
        workload_blob(id, blob);
        sqlite3_bind_int64(insert, 1, id);
        sqlite3_bind_text(insert, 2, name, length, SQLITE_STATIC);
        sqlite3_bind_int(insert, 3, workload_age(id));
        sqlite3_bind_double(insert, 4, workload_score(id));
        sqlite3_bind_int(insert, 5, workload_flag(id));
        sqlite3_bind_blob(insert, 6, blob, WORKLOAD_BLOB_SIZE, SQLITE_STATIC);
        require(database, sqlite3_step(insert), __LINE__);
        sqlite3_reset(insert);
        require(database, sqlite3_exec(database, "COMMIT", NULL, NULL, NULL), __LINE__);
    }
    sqlite3_finalize(insert);
    sqlite3_close(database);
    return NULL;
}

BaselineStep sqlite_concurrent_durable_commits(const char *path, int threads, int commitsPerThread) {
    char sidePath[4096];
    unlink(path);
    snprintf(sidePath, sizeof sidePath, "%s-wal", path);
    unlink(sidePath);
    snprintf(sidePath, sizeof sidePath, "%s-shm", path);
    unlink(sidePath);
    sqlite3 *database = open_database(path);
    require(database, sqlite3_exec(database,
                                   "CREATE TABLE obj(id INTEGER PRIMARY KEY, name TEXT, age INTEGER, score REAL, flag INTEGER, blob BLOB);"
                                   "CREATE INDEX obj_name ON obj(name);", NULL, NULL, NULL), __LINE__);
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
    require(database, sqlite3_prepare_v2(database, "SELECT count(*) FROM obj", -1, &count, NULL), __LINE__);
    require(database, sqlite3_step(count), __LINE__);
    long long rows = sqlite3_column_int64(count, 0);
    sqlite3_finalize(count);
    sqlite3_close(database);
    unlink(path);
    snprintf(sidePath, sizeof sidePath, "%s-wal", path);
    unlink(sidePath);
    snprintf(sidePath, sizeof sidePath, "%s-shm", path);
    unlink(sidePath);
    return (BaselineStep){seconds, rows};
}
