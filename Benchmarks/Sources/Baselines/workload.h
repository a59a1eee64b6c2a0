#ifndef BURROW_BENCHMARKS_WORKLOAD_H
#define BURROW_BENCHMARKS_WORKLOAD_H

// What both baselines share: the clock, the values of object i, and failure reporting.

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/// Room for a name ("name-%07d") and its terminator.
#define WORKLOAD_NAME_CAPACITY 32
/// Bytes of the `blob` property.
#define WORKLOAD_BLOB_SIZE 16

/// Seconds on the monotonic clock.
static inline double workload_now(void) {
    struct timespec time;
    clock_gettime(CLOCK_MONOTONIC, &time);
    return (double)time.tv_sec + (double)time.tv_nsec * 1e-9;
}

/// Writes the name of object `id` ("name-%07d" of id % 100000); returns its length.
static inline int workload_name(long long id, char *name) {
    return snprintf(name, WORKLOAD_NAME_CAPACITY, "name-%07lld", id % 100000);
}

/// The name looked up by query `query` of the index-equality step.
static inline int workload_query_name(int query, char *name) {
    return snprintf(name, WORKLOAD_NAME_CAPACITY, "name-%07d", query * 7 % 100000);
}

/// Age of object `id`.
static inline int32_t workload_age(long long id) { return (int32_t)(id % 100); }
/// Score of object `id`.
static inline double workload_score(long long id) { return (double)id * 0.5; }
/// Flag of object `id`: whether it is odd.
static inline int workload_flag(long long id) { return (int)(id & 1); }
/// Fills the blob of object `id`: 16 bytes of `id & 0xff`.
static inline void workload_blob(long long id, unsigned char *blob) {
    memset(blob, (int)(id & 0xff), WORKLOAD_BLOB_SIZE);
}

/// What the read-all step sums for one object: every field read, folded into one number
/// (the score truncated, the blob by its first byte, the name by its length).
static inline long long read_all_check(long long id, int32_t age, double score, int flag,
                                       unsigned char blob_first, int name_length) {
    return id + age + (long long)score + flag + blob_first + name_length;
}

/// The id read by the next lookup of the random-get step: uniform in 1…`count`.
static inline long workload_random_id(unsigned int *seed, long count) {
    return (rand_r(seed) % count) + 1;
}

/// Prints where and why a baseline failed, then ends the process.
static inline void workload_fail(const char *file, int line, const char *message) {
    fprintf(stderr, "baseline failure at %s:%d: %s\n", file, line, message);
    exit(1);
}

#endif
