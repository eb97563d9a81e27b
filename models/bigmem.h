/* bigmem.h - large tables backed by huge pages where the kernel allows. */
#ifndef FTLSIM_BIGMEM_H
#define FTLSIM_BIGMEM_H

#include <stddef.h>

/* bytes of memory with every byte set to `byte`, or NULL if the memory
 * cannot be mapped (the caller reports it; the run checks the estimate of
 * drive_memory_bytes() against the machine first). */
void *bigmem_alloc_filled(size_t bytes, int byte);
void bigmem_free(void *p, size_t bytes); /* accepts NULL */

#endif
