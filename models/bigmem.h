/* bigmem.h - large tables, backed on first write, in huge pages where the
 * kernel allows. */
#ifndef FTLSIM_BIGMEM_H
#define FTLSIM_BIGMEM_H

#include <stddef.h>

/* bytes of zeroed memory, or NULL if it cannot be mapped (the caller
 * reports it; a run checks drive_memory_estimate() against the machine
 * first). Nothing is touched here: the kernel backs the pages when they
 * are first written, so a table costs what its user writes of it. */
void *bigmem_alloc_zeroed(size_t bytes);
/* The same in small pages: for tables written sparsely, where a huge page
 * would back 2 MiB for each entry stored. */
void *bigmem_alloc_sparse(size_t bytes);
void bigmem_free(void *p, size_t bytes); /* accepts NULL */

/* Back the n ranges (p[i], bytes[i]) of tables from bigmem_alloc_zeroed(),
 * in order, from a thread of their own: for a run that will write a table
 * whole anyway, the kernel then zeroes its pages on another core while
 * the simulation runs, rather than on the simulation's first write to each.
 * Contents are not touched (the owner may be writing them meanwhile). NULL
 * if the thread cannot start; kernels without MADV_POPULATE_WRITE (before
 * Linux 5.14) back nothing ahead. bigmem_warm_stop() ends the work and
 * waits for the thread; call it before freeing the tables. */
typedef struct BigmemWarm BigmemWarm;
BigmemWarm *bigmem_warm(void *const *p, const size_t *bytes, size_t n);
void bigmem_warm_stop(BigmemWarm *w); /* accepts NULL */

#endif
