// Callgrind's client requests, for counting the instructions of one step (see Baselines.h).
// valgrind's headers come with Debian's valgrind package; without them the calls do nothing.
#include "Baselines.h"

#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>

int instructions_counted(void) { return RUNNING_ON_VALGRIND ? 1 : 0; }
void instructions_restart(void) { CALLGRIND_ZERO_STATS; }
void instructions_dump(const char *label) { CALLGRIND_DUMP_STATS_AT(label); }

#else

int instructions_counted(void) { return 0; }
void instructions_restart(void) {}
void instructions_dump(const char *label) { (void)label; }

#endif
