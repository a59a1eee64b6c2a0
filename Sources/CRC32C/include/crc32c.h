#ifndef BURROW_CRC32C_H
#define BURROW_CRC32C_H

#include <stddef.h>
#include <stdint.h>

/// CRC-32C (Castagnoli) of `length` bytes at `data`, continuing from `crc` (0 to start):
/// with the processor's CRC32 instruction where it has one (SSE 4.2), in software otherwise.
uint32_t burrow_crc32c(uint32_t crc, const void *data, size_t length);

/// CRC-32C of a stored record: the 8 bytes of `database` (little-endian), then `key`, then
/// `value`, in one pass (the same as burrow_crc32c over the three in turn).
uint32_t burrow_crc32c_record(uint64_t database, const void *key, size_t key_length, const void *value, size_t value_length);

#endif
