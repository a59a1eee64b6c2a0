// Concurrent primary-key reads on raw LMDB: reader threads with a read transaction each, while
// a writer commits small durable transactions, as the benchmark's concurrent-reads step does on
// Burrow.

#include "Baselines.h"
#include "lmdb_records.h"
#include "lmdb_require.h"

#include <pthread.h>
#include <stdatomic.h>
#include <unistd.h>

typedef struct {
    MDB_env *environment;
    MDB_dbi records;
    long count;
    long reads;
    unsigned int seed;
    long long sum;
    atomic_int *stop;
    long long writes;
} Worker;

static void *read_records(void *argument) {
    Worker *worker = argument;
    MDB_txn *transaction;
    LMDB_REQUIRE(mdb_txn_begin(worker->environment, NULL, MDB_RDONLY, &transaction));
    unsigned char key[8];
    for (long lookup = 0; lookup < worker->reads; lookup++) {
        encode_key((uint64_t)workload_random_id(&worker->seed, worker->count), key);
        MDB_val keyValue = {8, key}, record;
        LMDB_REQUIRE(mdb_get(transaction, worker->records, &keyValue, &record));
        worker->sum += record_age(record.mv_data);
    }
    mdb_txn_abort(transaction);
    return NULL;
}

static void *write_records(void *argument) {
    Worker *worker = argument;
    unsigned char key[8], record[RECORD_CAPACITY];
    char name[WORKLOAD_NAME_CAPACITY];
    while (!atomic_load(worker->stop)) {
        long id = workload_random_id(&worker->seed, worker->count);
        MDB_txn *transaction;
        LMDB_REQUIRE(mdb_txn_begin(worker->environment, NULL, 0, &transaction));
        encode_key((uint64_t)id, key);
        size_t size = encode_record(id, record, name);
        MDB_val keyValue = {8, key}, recordValue = {size, record};
        LMDB_REQUIRE(mdb_put(transaction, worker->records, &keyValue, &recordValue, 0));
        LMDB_REQUIRE(mdb_txn_commit(transaction));
        worker->writes++;
        usleep(CONCURRENT_WRITE_PAUSE_MICROSECONDS);
    }
    return NULL;
}

ConcurrentReads lmdb_concurrent_reads(const char *path, long count, int threads, long reads) {
    MDB_env *environment;
    LMDB_REQUIRE(mdb_env_create(&environment));
    LMDB_REQUIRE(mdb_env_set_mapsize(environment, (size_t)8 << 30));
    LMDB_REQUIRE(mdb_env_set_maxdbs(environment, 8));
    LMDB_REQUIRE(mdb_env_open(environment, path, MDB_NOSUBDIR | MDB_NOTLS, 0644));
    MDB_txn *transaction;
    MDB_dbi records;
    LMDB_REQUIRE(mdb_txn_begin(environment, NULL, 0, &transaction));
    LMDB_REQUIRE(mdb_dbi_open(transaction, "records", MDB_CREATE, &records));
    unsigned char key[8], record[RECORD_CAPACITY];
    char name[WORKLOAD_NAME_CAPACITY];
    for (long id = 1; id <= count; id++) {
        encode_key((uint64_t)id, key);
        size_t size = encode_record(id, record, name);
        MDB_val keyValue = {8, key}, recordValue = {size, record};
        LMDB_REQUIRE(mdb_put(transaction, records, &keyValue, &recordValue, MDB_APPEND));
    }
    LMDB_REQUIRE(mdb_txn_commit(transaction));

    atomic_int stop = 0;
    Worker writer = {environment, records, count, 0, 7, 0, &stop, 0};
    Worker readers[64];
    pthread_t readerThreads[64], writerThread;
    if (threads > 64) threads = 64;
    if (pthread_create(&writerThread, NULL, write_records, &writer) != 0) workload_fail(__FILE__, __LINE__, "no writer thread");
    double start = workload_now();
    for (int index = 0; index < threads; index++) {
        readers[index] = (Worker){environment, records, count, reads, (unsigned int)index + 1, 0, &stop, 0};
        if (pthread_create(&readerThreads[index], NULL, read_records, &readers[index]) != 0) {
            workload_fail(__FILE__, __LINE__, "no reader thread");
        }
    }
    ConcurrentReads result = {0, 0, 0};
    for (int index = 0; index < threads; index++) {
        pthread_join(readerThreads[index], NULL);
        result.sum += readers[index].sum;
    }
    result.seconds = workload_now() - start;
    atomic_store(&stop, 1);
    pthread_join(writerThread, NULL);
    result.writes = writer.writes;
    mdb_env_close(environment);
    unlink(path);
    char lock[4096];
    snprintf(lock, sizeof lock, "%s-lock", path);
    unlink(lock);
    return result;
}
