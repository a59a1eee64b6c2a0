#ifndef BURROW_CLMDB_SHIM_H
#define BURROW_CLMDB_SHIM_H

#include <lmdb.h>

#endif
