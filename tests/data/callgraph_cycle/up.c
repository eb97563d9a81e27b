/* up.c - calls down.c, which calls back up by name: a cycle (tests/cli_callgraph.sh). */
#include "down.h"

static int helper(int x) { return x + 1; }

int up_start(int x)
{
    return down_work(helper(x));
}

int up_done(int x)
{
    return x;
}
