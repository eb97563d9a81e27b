/* a.c - a fixture for scripts/unused-exports: one export b.c uses, one
 * nobody does, one only this file does, and a static helper. */
static int helper(void) { return 1; }
int used_elsewhere(void) { return helper(); }
int used_nowhere(void) { return 2; }
int used_here_only(void) { return 3; }
int calls_it(void) { return used_here_only(); }
