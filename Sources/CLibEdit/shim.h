#ifndef BURROW_CLIBEDIT_SHIM_H
#define BURROW_CLIBEDIT_SHIM_H

#include <stdio.h>
#include <editline/readline.h>

#endif
