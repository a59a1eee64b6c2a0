// The floor of reading a file with row checksums: CRC-32C in hardware of records laid out as
// Burrow checks each row (its database's id, its 8-byte key, its value), with no storage around
// it. Each step of the CRC depends on the one before, so a record costs the latency of one
// `crc32` instruction per 8 bytes, and one per byte of a tail shorter than 8.

#include "Baselines.h"
#include "workload.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/// Where the loop's result goes, so that the loop is not optimised away.
static volatile uint32_t crc32c_floor_sink;

#if defined(__x86_64__)
__attribute__((target("sse4.2")))
static uint32_t record_crc(uint64_t database, const unsigned char *key, const unsigned char *value, size_t length) {
    uint64_t crc = __builtin_ia32_crc32di(0xFFFFFFFFu, database);
    uint64_t word;
    memcpy(&word, key, 8);
    crc = __builtin_ia32_crc32di(crc, word);
    while (length >= 8) {
        memcpy(&word, value, 8);
        crc = __builtin_ia32_crc32di(crc, word);
        value += 8;
        length -= 8;
    }
    uint32_t narrow = (uint32_t)crc;
    while (length--) narrow = __builtin_ia32_crc32qi(narrow, *value++);
    return ~narrow;
}
#endif

BaselineStep crc32c_record_floor(long count, int size) {
#if defined(__x86_64__)
    __builtin_cpu_init();
    if (!__builtin_cpu_supports("sse4.2")) return (BaselineStep){0, 0};
    enum { records = 4096 };
    unsigned char *values = malloc((size_t)size * records);
    if (values == NULL) workload_fail(__FILE__, __LINE__, "out of memory");
    for (size_t index = 0; index < (size_t)size * records; index++) values[index] = (unsigned char)(index * 131);
    double start = workload_now();
    uint32_t folded = 0;
    for (long step = 0; step < count; step++) {
        uint64_t key = (uint64_t)step;
        folded ^= record_crc(3, (const unsigned char *)&key, values + (size_t)(step % records) * (size_t)size, (size_t)size);
    }
    double seconds = workload_now() - start;
    crc32c_floor_sink = folded;
    free(values);
    return (BaselineStep){seconds, count};
#else
    (void)count;
    (void)size;
    return (BaselineStep){0, 0};
#endif
}
