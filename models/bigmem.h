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

#endif
