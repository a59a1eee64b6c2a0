// The workload on raw LMDB: the floor for an object store on LMDB, written after
// `lmdb_anchor.c` (same record encoding, same DUPSORT name index, durable default flags).

#include "Baselines.h"
#include "lmdb_records.h"
#include "lmdb_require.h"
#include "workload.h"

#include <unistd.h>

struct LMDBBaseline {
    MDB_env *environment;
    MDB_dbi records;
    MDB_dbi names;
};

/// Opens the environment at `path` with the anchor's settings: 8 GiB map, 8 databases.
static MDB_env *open_environment(const char *path) {
    MDB_env *environment;
    LMDB_REQUIRE(mdb_env_create(&environment));
    LMDB_REQUIRE(mdb_env_set_mapsize(environment, (size_t)8 << 30));
    LMDB_REQUIRE(mdb_env_set_maxdbs(environment, 8));
    LMDB_REQUIRE(mdb_env_open(environment, path, MDB_NOSUBDIR | MDB_NOTLS, 0644));
    return environment;
}

/// Number of entries in `database`, from its header.
static long long entry_count(MDB_txn *transaction, MDB_dbi database) {
    MDB_stat stat;
    LMDB_REQUIRE(mdb_stat(transaction, database, &stat));
    return (long long)stat.ms_entries;
}

/// Number of records, in a read transaction of its own.
static long long record_count(LMDBBaseline *baseline) {
    MDB_txn *transaction;
    LMDB_REQUIRE(mdb_txn_begin(baseline->environment, NULL, MDB_RDONLY, &transaction));
    long long count = entry_count(transaction, baseline->records);
    mdb_txn_abort(transaction);
    return count;
}

LMDBBaseline *lmdb_baseline_create(const char *path) {
    char lockPath[4096];
    snprintf(lockPath, sizeof lockPath, "%s-lock", path);
    unlink(path);
    unlink(lockPath);
    LMDBBaseline *baseline = calloc(1, sizeof *baseline);
    if (baseline == NULL) workload_fail(__FILE__, __LINE__, "out of memory");
    baseline->environment = open_environment(path);
    MDB_txn *transaction;
    LMDB_REQUIRE(mdb_txn_begin(baseline->environment, NULL, 0, &transaction));
    LMDB_REQUIRE(mdb_dbi_open(transaction, "objs", MDB_CREATE, &baseline->records));
    LMDB_REQUIRE(mdb_dbi_open(transaction, "idx_name", MDB_CREATE | MDB_DUPSORT, &baseline->names));
    LMDB_REQUIRE(mdb_txn_commit(transaction));
    return baseline;
}

void lmdb_baseline_close(LMDBBaseline *baseline) {
    mdb_env_close(baseline->environment);
    free(baseline);
}

BaselineStep lmdb_baseline_insert(LMDBBaseline *baseline, long count) {
    unsigned char key[8], record[RECORD_CAPACITY];
    char name[WORKLOAD_NAME_CAPACITY];
    double start = workload_now();
    MDB_txn *transaction;
    MDB_cursor *cursor;
    LMDB_REQUIRE(mdb_txn_begin(baseline->environment, NULL, 0, &transaction));
    LMDB_REQUIRE(mdb_cursor_open(transaction, baseline->records, &cursor));
    for (long id = 1; id <= count; id++) {
        encode_key((uint64_t)id, key);
        size_t size = encode_record(id, record, name);
        MDB_val keyValue = {8, key}, recordValue = {size, record};
        LMDB_REQUIRE(mdb_cursor_put(cursor, &keyValue, &recordValue, MDB_APPEND));
        MDB_val nameValue = {strlen(name), name}, idValue = {8, key};
        LMDB_REQUIRE(mdb_put(transaction, baseline->names, &nameValue, &idValue, 0));
    }
    mdb_cursor_close(cursor);
    LMDB_REQUIRE(mdb_txn_commit(transaction));
    double seconds = workload_now() - start;
    return (BaselineStep){seconds, record_count(baseline)};
}

BaselineStep lmdb_baseline_random_get(LMDBBaseline *baseline, long count) {
    unsigned char key[8];
    MDB_txn *transaction;
    LMDB_REQUIRE(mdb_txn_begin(baseline->environment, NULL, MDB_RDONLY, &transaction));
    unsigned int seed = 1;
    long long sum = 0;
    double start = workload_now();
    for (long lookup = 0; lookup < count; lookup++) {
        encode_key((uint64_t)workload_random_id(&seed, count), key);
        MDB_val keyValue = {8, key}, recordValue;
        LMDB_REQUIRE(mdb_get(transaction, baseline->records, &keyValue, &recordValue));
        sum += record_age(recordValue.mv_data);
    }
    double seconds = workload_now() - start;
    mdb_txn_abort(transaction);
    return (BaselineStep){seconds, sum};
}

BaselineStep lmdb_baseline_scan_filter(LMDBBaseline *baseline) {
    MDB_txn *transaction;
    LMDB_REQUIRE(mdb_txn_begin(baseline->environment, NULL, MDB_RDONLY, &transaction));
    double start = workload_now();
    MDB_cursor *cursor;
    LMDB_REQUIRE(mdb_cursor_open(transaction, baseline->records, &cursor));
    MDB_val key, record;
    long long matches = 0;
    for (int code = mdb_cursor_get(cursor, &key, &record, MDB_FIRST); code == MDB_SUCCESS;
         code = mdb_cursor_get(cursor, &key, &record, MDB_NEXT)) {
        if (record_age(record.mv_data) < 2) matches++;
    }
    mdb_cursor_close(cursor);
    double seconds = workload_now() - start;
    mdb_txn_abort(transaction);
    return (BaselineStep){seconds, matches};
}

BaselineStep lmdb_baseline_read_all(LMDBBaseline *baseline) {
    MDB_txn *transaction;
    LMDB_REQUIRE(mdb_txn_begin(baseline->environment, NULL, MDB_RDONLY, &transaction));
    double start = workload_now();
    MDB_cursor *cursor;
    LMDB_REQUIRE(mdb_cursor_open(transaction, baseline->records, &cursor));
    MDB_val key, record;
    long long check = 0;
    for (int code = mdb_cursor_get(cursor, &key, &record, MDB_FIRST); code == MDB_SUCCESS;
         code = mdb_cursor_get(cursor, &key, &record, MDB_NEXT)) {
        RecordFields fields = decode_record(record.mv_data);
        check += read_all_check(fields.id, fields.age, fields.score, fields.flag, fields.blob[0], fields.name_length);
    }
    mdb_cursor_close(cursor);
    double seconds = workload_now() - start;
    mdb_txn_abort(transaction);
    return (BaselineStep){seconds, check};
}

BaselineStep lmdb_baseline_index_equality(LMDBBaseline *baseline, int queries) {
    char name[WORKLOAD_NAME_CAPACITY];
    MDB_txn *transaction;
    LMDB_REQUIRE(mdb_txn_begin(baseline->environment, NULL, MDB_RDONLY, &transaction));
    double start = workload_now();
    MDB_cursor *cursor;
    LMDB_REQUIRE(mdb_cursor_open(transaction, baseline->names, &cursor));
    long long hits = 0;
    for (int query = 0; query < queries; query++) {
        int length = workload_query_name(query, name);
        MDB_val nameValue = {(size_t)length, name}, idValue;
        if (mdb_cursor_get(cursor, &nameValue, &idValue, MDB_SET_KEY) == MDB_SUCCESS) {
            size_t duplicates;
            LMDB_REQUIRE(mdb_cursor_count(cursor, &duplicates));
            hits += (long long)duplicates;
        }
    }
    mdb_cursor_close(cursor);
    double seconds = workload_now() - start;
    mdb_txn_abort(transaction);
    return (BaselineStep){seconds, hits};
}

BaselineStep lmdb_baseline_sorted_page(LMDBBaseline *baseline, long offset, int limit) {
    MDB_txn *transaction;
    LMDB_REQUIRE(mdb_txn_begin(baseline->environment, NULL, MDB_RDONLY, &transaction));
    double start = workload_now();
    MDB_cursor *cursor;
    LMDB_REQUIRE(mdb_cursor_open(transaction, baseline->names, &cursor));
    MDB_val name, id;
    long long idSum = 0;
    long position = 0;
    int read = 0;
    for (int rc = mdb_cursor_get(cursor, &name, &id, MDB_FIRST); rc == MDB_SUCCESS && read < limit;
         rc = mdb_cursor_get(cursor, &name, &id, MDB_NEXT), position++) {
        if (position < offset) continue;
        MDB_val record;
        LMDB_REQUIRE(mdb_get(transaction, baseline->records, &id, &record));
        int64_t recordId;
        memcpy(&recordId, record.mv_data, sizeof recordId);
        idSum += recordId;
        read++;
    }
    mdb_cursor_close(cursor);
    double seconds = workload_now() - start;
    mdb_txn_abort(transaction);
    return (BaselineStep){seconds, idSum};
}

BaselineStep lmdb_baseline_update_all(LMDBBaseline *baseline) {
    unsigned char record[RECORD_CAPACITY];
    double start = workload_now();
    MDB_txn *transaction;
    MDB_cursor *cursor;
    LMDB_REQUIRE(mdb_txn_begin(baseline->environment, NULL, 0, &transaction));
    LMDB_REQUIRE(mdb_cursor_open(transaction, baseline->records, &cursor));
    MDB_val key, current;
    long long updated = 0;
    for (int code = mdb_cursor_get(cursor, &key, &current, MDB_FIRST); code == MDB_SUCCESS;
         code = mdb_cursor_get(cursor, &key, &current, MDB_NEXT)) {
        memcpy(record, current.mv_data, current.mv_size);
        int32_t age = record_age(record) + 1;
        memcpy(record + 8, &age, 4);
        MDB_val replacement = {current.mv_size, record};
        LMDB_REQUIRE(mdb_cursor_put(cursor, &key, &replacement, MDB_CURRENT));
        updated++;
    }
    mdb_cursor_close(cursor);
    LMDB_REQUIRE(mdb_txn_commit(transaction));
    double seconds = workload_now() - start;
    return (BaselineStep){seconds, updated};
}

BaselineStep lmdb_baseline_delete_all(LMDBBaseline *baseline) {
    double start = workload_now();
    MDB_txn *transaction;
    LMDB_REQUIRE(mdb_txn_begin(baseline->environment, NULL, 0, &transaction));
    LMDB_REQUIRE(mdb_drop(transaction, baseline->records, 0));
    LMDB_REQUIRE(mdb_drop(transaction, baseline->names, 0));
    LMDB_REQUIRE(mdb_txn_commit(transaction));
    double seconds = workload_now() - start;
    return (BaselineStep){seconds, record_count(baseline)};
}

BaselineStep lmdb_baseline_durable_commits(LMDBBaseline *baseline, int commits) {
    unsigned char key[8], record[RECORD_CAPACITY];
    char name[WORKLOAD_NAME_CAPACITY];
    double start = workload_now();
    for (int commit = 0; commit < commits; commit++) {
        MDB_txn *transaction;
        LMDB_REQUIRE(mdb_txn_begin(baseline->environment, NULL, 0, &transaction));
        int64_t id = commit + 1;
        encode_key((uint64_t)id, key);
        size_t size = encode_record(id, record, name);
        MDB_val keyValue = {8, key}, recordValue = {size, record};
        LMDB_REQUIRE(mdb_put(transaction, baseline->records, &keyValue, &recordValue, 0));
        MDB_val nameValue = {strlen(name), name}, idValue = {8, key};
        LMDB_REQUIRE(mdb_put(transaction, baseline->names, &nameValue, &idValue, 0));
        LMDB_REQUIRE(mdb_txn_commit(transaction));
    }
    double seconds = workload_now() - start;
    return (BaselineStep){seconds, record_count(baseline)};
}

BaselineStep lmdb_baseline_open_count(const char *path) {
    double start = workload_now();
    MDB_env *environment = open_environment(path);
    MDB_txn *transaction;
    MDB_dbi records;
    LMDB_REQUIRE(mdb_txn_begin(environment, NULL, MDB_RDONLY, &transaction));
    LMDB_REQUIRE(mdb_dbi_open(transaction, "objs", 0, &records));
    long long count = entry_count(transaction, records);
    mdb_txn_abort(transaction);
    double seconds = workload_now() - start;
    mdb_env_close(environment);
    return (BaselineStep){seconds, count};
}
