#ifndef BURROW_CSODIUM_SHIM_H
#define BURROW_CSODIUM_SHIM_H

#include <sodium.h>

#endif
