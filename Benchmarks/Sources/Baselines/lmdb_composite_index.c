// The index-equality step on raw LMDB with the index laid out as Burrow lays it out: a plain
// database of composite keys `value ++ objectKey` with empty values, because LMDB 0.9.24's
// DUPSORT cursors have bugs fixed only in later releases. Counting one name's entries is then
// a walk (`MDB_SET_RANGE`, then `MDB_NEXT` while the prefix matches) where the DUPSORT index
// of the baseline answers with `mdb_cursor_count`. The walk is the floor of Burrow's query.

#include "Baselines.h"
#include "lmdb_require.h"
#include "workload.h"

#include <unistd.h>

/// Burrow's index key prefix of a string: tag 1, the UTF-8 bytes (names hold no zero byte),
/// and the two-byte terminator. Returns its length.
static size_t encode_name_prefix(const char *name, int length, unsigned char *key) {
    key[0] = 1;
    memcpy(key + 1, name, (size_t)length);
    key[length + 1] = 0;
    key[length + 2] = 0;
    return (size_t)length + 3;
}

BaselineStep lmdb_composite_index_equality(const char *path, long count, int queries) {
    char lockPath[4096];
    snprintf(lockPath, sizeof lockPath, "%s-lock", path);
    unlink(path);
    unlink(lockPath);
    MDB_env *environment;
    LMDB_REQUIRE(mdb_env_create(&environment));
    LMDB_REQUIRE(mdb_env_set_mapsize(environment, (size_t)8 << 30));
    LMDB_REQUIRE(mdb_env_open(environment, path, MDB_NOSUBDIR | MDB_NOTLS | MDB_NOSYNC, 0644));

    // Untimed: the index entries of objects 1…count.
    char name[WORKLOAD_NAME_CAPACITY];
    unsigned char key[WORKLOAD_NAME_CAPACITY + 16];
    MDB_txn *transaction;
    MDB_dbi index;
    LMDB_REQUIRE(mdb_txn_begin(environment, NULL, 0, &transaction));
    LMDB_REQUIRE(mdb_dbi_open(transaction, NULL, 0, &index));
    for (long id = 1; id <= count; id++) {
        size_t length = encode_name_prefix(name, workload_name(id, name), key);
        for (int byte = 7; byte >= 0; byte--) key[length + (size_t)(7 - byte)] = (unsigned char)((uint64_t)id >> (8 * byte));
        MDB_val keyValue = {length + 8, key}, empty = {0, NULL};
        LMDB_REQUIRE(mdb_put(transaction, index, &keyValue, &empty, 0));
    }
    LMDB_REQUIRE(mdb_txn_commit(transaction));

    LMDB_REQUIRE(mdb_txn_begin(environment, NULL, MDB_RDONLY, &transaction));
    double start = workload_now();
    MDB_cursor *cursor;
    LMDB_REQUIRE(mdb_cursor_open(transaction, index, &cursor));
    long long hits = 0;
    for (int query = 0; query < queries; query++) {
        size_t length = encode_name_prefix(name, workload_query_name(query, name), key);
        MDB_val keyValue = {length, key}, value;
        int code = mdb_cursor_get(cursor, &keyValue, &value, MDB_SET_RANGE);
        while (code == MDB_SUCCESS && keyValue.mv_size == length + 8 && memcmp(keyValue.mv_data, key, length) == 0) {
            hits++;
            code = mdb_cursor_get(cursor, &keyValue, &value, MDB_NEXT);
        }
        if (code != MDB_SUCCESS && code != MDB_NOTFOUND) workload_fail(__FILE__, __LINE__, mdb_strerror(code));
    }
    mdb_cursor_close(cursor);
    double seconds = workload_now() - start;
    mdb_txn_abort(transaction);
    mdb_env_close(environment);
    unlink(path);
    unlink(lockPath);
    return (BaselineStep){seconds, hits};
}
