/* public.h - a header that includes the forbidden one (tests/cli_callgraph.sh). */
#include "tests/data/callgraph_include/private.h"
