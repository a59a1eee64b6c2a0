#ifndef BURROW_CLMDB_SHIM_H
#define BURROW_CLMDB_SHIM_H

#include <lmdb.h>
#include <stddef.h>

/// Asks the processor to bring the `size` bytes at `start` into its caches, a line of 64 bytes
/// at a time, without waiting for them: for a page a walk is about to read entry by entry.
static inline void burrow_prefetch(const void *start, size_t size) {
    for (size_t offset = 0; offset < size; offset += 64) __builtin_prefetch((const char *)start + offset, 0, 3);
}

#endif
