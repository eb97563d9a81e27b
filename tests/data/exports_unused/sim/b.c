/* b.c - a fixture for scripts/unused-exports: uses a.c's used_elsewhere
 * and calls_it. */
int used_elsewhere(void);
int calls_it(void);
int main(void) { return used_elsewhere() + calls_it(); }
