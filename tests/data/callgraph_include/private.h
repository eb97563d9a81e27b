/* private.h - the header no file of this folder may reach (tests/cli_callgraph.sh). */
