/* user.c - reaches private.h through public.h: scripts/callgraph
 * --forbid-include tests/data/callgraph_include/private.h must name the chain. */
#include "tests/data/callgraph_include/public.h"

int user(void) { return 0; }
