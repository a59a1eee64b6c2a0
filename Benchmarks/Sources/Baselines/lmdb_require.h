#ifndef BURROW_BENCHMARKS_LMDB_REQUIRE_H
#define BURROW_BENCHMARKS_LMDB_REQUIRE_H

#include "workload.h"

#include <lmdb.h>

/// Ends the process with LMDB's message when `call` fails.
#define LMDB_REQUIRE(call)                                                       \
    do {                                                                         \
        int code_ = (call);                                                      \
        if (code_ != MDB_SUCCESS) workload_fail(__FILE__, __LINE__, mdb_strerror(code_)); \
    } while (0)

#endif
