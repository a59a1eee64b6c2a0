#ifndef BURROW_CLIBPQ_SHIM_H
#define BURROW_CLIBPQ_SHIM_H

#include <libpq-fe.h>

#endif
