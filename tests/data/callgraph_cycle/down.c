/* down.c - completes by calling up.c by name (tests/cli_callgraph.sh). */
#include "up.h"

static int helper(int x) { return x * 2; }

int down_work(int x)
{
    return up_done(helper(x)); /* up_start( in a comment is not a call */
}
