/* bigmem.h - large tables backed by huge pages where the kernel allows. */
#ifndef FTLSIM_BIGMEM_H
#define FTLSIM_BIGMEM_H

#include <stddef.h>

/* bytes of memory with every byte set to `byte`; aborts if the memory cannot
 * be mapped (the config loader refuses drives whose tables do not fit). */
void *bigmem_alloc_filled(size_t bytes, int byte);
void bigmem_free(void *p, size_t bytes); /* accepts NULL */

#endif
