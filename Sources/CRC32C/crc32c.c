// CRC-32C for row checksums. The polynomial is Castagnoli's (reflected 0x82F63B78), the one
// SSE 4.2's CRC32 instruction computes, so both paths give the same value.
#include "crc32c.h"

#include <string.h>

static uint32_t table[8][256];

static void build_table(void) {
    for (uint32_t byte = 0; byte < 256; byte++) {
        uint32_t crc = byte;
        for (int bit = 0; bit < 8; bit++) crc = (crc & 1) ? (crc >> 1) ^ 0x82F63B78u : crc >> 1;
        table[0][byte] = crc;
    }
    for (uint32_t byte = 0; byte < 256; byte++) {
        for (int slice = 1; slice < 8; slice++) {
            uint32_t previous = table[slice - 1][byte];
            table[slice][byte] = (previous >> 8) ^ table[0][previous & 0xFF];
        }
    }
}

static uint32_t software(uint32_t crc, const unsigned char *bytes, size_t length) {
    while (length >= 8) {
        uint64_t word;
        memcpy(&word, bytes, 8);
        word ^= crc;
        crc = table[7][word & 0xFF] ^ table[6][(word >> 8) & 0xFF] ^ table[5][(word >> 16) & 0xFF] ^
              table[4][(word >> 24) & 0xFF] ^ table[3][(word >> 32) & 0xFF] ^ table[2][(word >> 40) & 0xFF] ^
              table[1][(word >> 48) & 0xFF] ^ table[0][word >> 56];
        bytes += 8;
        length -= 8;
    }
    while (length--) crc = (crc >> 8) ^ table[0][(crc ^ *bytes++) & 0xFF];
    return crc;
}

#if defined(__x86_64__)
__attribute__((target("sse4.2")))
static uint32_t hardware(uint32_t crc, const unsigned char *bytes, size_t length) {
    uint64_t wide = crc;
    while (length >= 8) {
        uint64_t word;
        memcpy(&word, bytes, 8);
        wide = __builtin_ia32_crc32di(wide, word);
        bytes += 8;
        length -= 8;
    }
    crc = (uint32_t)wide;
    // The tail in at most three steps (4, 2, 1 bytes): each step waits for the one before.
    if (length >= 4) {
        uint32_t word;
        memcpy(&word, bytes, 4);
        crc = __builtin_ia32_crc32si(crc, word);
        bytes += 4;
        length -= 4;
    }
    if (length >= 2) {
        uint16_t half;
        memcpy(&half, bytes, 2);
        crc = __builtin_ia32_crc32hi(crc, half);
        bytes += 2;
        length -= 2;
    }
    if (length) crc = __builtin_ia32_crc32qi(crc, *bytes);
    return crc;
}
#endif

#if defined(__x86_64__)
__attribute__((target("sse4.2")))
static uint32_t hardware_record(uint64_t database, const unsigned char *key, size_t key_length,
                                const unsigned char *value, size_t value_length) {
    uint32_t crc = (uint32_t)__builtin_ia32_crc32di(0xFFFFFFFFu, database);
    crc = hardware(crc, key, key_length);
    return ~hardware(crc, value, value_length);
}
#endif

static uint32_t software_record(uint64_t database, const unsigned char *key, size_t key_length,
                                const unsigned char *value, size_t value_length) {
    unsigned char bytes[8];
    for (int index = 0; index < 8; index++) bytes[index] = (unsigned char)(database >> (8 * index));
    uint32_t crc = software(0xFFFFFFFFu, bytes, 8);
    crc = software(crc, key, key_length);
    return ~software(crc, value, value_length);
}

typedef uint32_t (*crc_function)(uint32_t, const unsigned char *, size_t);
typedef uint32_t (*record_function)(uint64_t, const unsigned char *, size_t, const unsigned char *, size_t);

static crc_function choose(void) {
#if defined(__x86_64__)
    __builtin_cpu_init();
    if (__builtin_cpu_supports("sse4.2")) return hardware;
#endif
    build_table();
    return software;
}

// Chosen before main runs: the choice is made once, with no lock on the path of every call.
static crc_function chosen;
static record_function chosen_record;
__attribute__((constructor)) static void choose_at_load(void) {
    chosen = choose();
#if defined(__x86_64__)
    chosen_record = chosen == hardware ? hardware_record : software_record;
#else
    chosen_record = software_record;
#endif
}

uint32_t burrow_crc32c_record(uint64_t database, const void *key, size_t key_length, const void *value, size_t value_length) {
    return chosen_record(database, (const unsigned char *)key, key_length, (const unsigned char *)value, value_length);
}

uint32_t burrow_crc32c(uint32_t crc, const void *data, size_t length) {
    return ~chosen(~crc, (const unsigned char *)data, length);
}
